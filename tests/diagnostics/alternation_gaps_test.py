#!/usr/bin/env python3
"""Checks scripts/diagnostics/alternation-gaps.py on synthetic transcripts (provenance "synthetic",
built here, never measured; only the fields the script reads):
- a round whose samples alternate between two levels has the gap computed here by hand, and a steady
  round none;
- rounds of fewer than 10 samples are left out, and a case above 2^18 or not watched is not listed;
- runs named old-1, old-2 form the side "old, cold", and the summary gives the median of its runs'
  gaps and the launch-cost claim's verdicts and figures;
- no transcript read exits 1.

  alternation_gaps_test.py SCRIPT
"""

import json
import os
import subprocess
import sys
import tempfile

CHAIN = "day48-fusion/part3/staged-chain"
CLAIM = "staged-launch-cost-converges-to-an-empty-launch"


def case(name, elements, rounds):
    samples = [s for r in rounds for s in r]
    return {"name": name, "elements": elements, "samples_ms": samples,
            "rounds": [{"samples": len(r)} for r in rounds],
            "sample_sm_clock_mhz": [1980.0] * len(samples)}


def transcript(cases, figure, verdict):
    return {"schema_version": "1.11.0", "provenance": "synthetic", "timing": {"mode": "cold", "clock_source": "synthetic"},
            "cases": cases,
            "claims": [{"id": CLAIM, "measured": figure, "verdict": verdict,
                        "measured_interval": {"low": figure * 0.98, "high": figure * 1.02}}]}


def write(folder, name, document):
    os.makedirs(os.path.join(folder, name), exist_ok=True)
    with open(os.path.join(folder, name, "t.json"), "w", encoding="utf-8") as handle:
        json.dump(document, handle)


def main():
    script = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        # old-1: 20 samples alternating 0.011 / 0.010 ms: gap (0.011 - 0.010) / median(0.0105) = 9.52%.
        alternating = [0.011 if i % 2 == 0 else 0.010 for i in range(20)]
        steady = [0.010] * 20
        # old-2: two rounds, one alternating the other way (-9.52%) and one steady: mean |gap| 4.76%.
        reverse = [0.010 if i % 2 == 0 else 0.011 for i in range(20)]
        write(folder, "old-1", transcript([case(CHAIN, 1024, [alternating, alternating[:8]]),
                                           case(CHAIN, 1 << 20, [alternating]),
                                           case("day48-fusion/part2/copy-floor", 1024, [alternating])],
                                          1.22, "failed"))
        write(folder, "old-2", transcript([case(CHAIN, 1024, [reverse, steady])], 1.19, "inconclusive"))
        result = subprocess.run([sys.executable, script, folder], capture_output=True, text=True, check=False)
        out = result.stdout
        if result.returncode != 0:
            failures.append(f"exit {result.returncode}: {result.stderr}")
        if "| old-1 | part3/staged-chain, 1024 | 28 | 9.5% |" not in out:
            failures.append("old-1's gap is not 9.5% over its one round of 10 or more samples:\n" + out)
        if "| old-2 | part3/staged-chain, 1024 | 40 | 4.8% |" not in out:
            failures.append("old-2's gap is not the mean of |-9.5%| and 0:\n" + out)
        if "1048576" in out or "copy-floor" in out:
            failures.append("a case above 2^18 or not watched was listed:\n" + out)
        # The median of 9.52% and 4.76% is 7.14%.
        if "| old, cold | part3/staged-chain, 1024 | 2 | 7.1% (4.8 - 9.5%) |" not in out:
            failures.append("the side's summary is not the median of its runs' gaps:\n" + out)
        if "| old, cold | launch-cost claim | 2 | failed 1, inconclusive 1; figure 1.1900 - 1.2200 |" not in out:
            failures.append("the side's launch-cost verdicts are not counted:\n" + out)
        summary = subprocess.run([sys.executable, script, folder, "--summary-only"], capture_output=True, text=True,
                                 check=False).stdout
        if "| old-1 |" in summary or "| old, cold |" not in summary:
            failures.append("--summary-only printed the runs or no summary:\n" + summary)
        empty = os.path.join(folder, "empty")
        os.makedirs(empty)
        if subprocess.run([sys.executable, script, empty], capture_output=True, check=False).returncode != 1:
            failures.append("no transcript read did not exit 1")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
