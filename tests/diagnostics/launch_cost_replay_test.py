#!/usr/bin/env python3
"""Checks scripts/diagnostics/launch-cost-replay.py on synthetic transcripts (provenance "synthetic",
built here, never measured; only the fields the script reads):
- the interval it rebuilds at each allowance is the one computed here by hand: the staged chain at the
  size whose ratio is the claim's figure, over the queued launches, paired over the contexts both ran in;
- its verdicts follow that interval against the band 0.80 to 1.20: held inside, failed wholly above,
  inconclusive across 1.20;
- the sampling error of a round's median comes from first halves against second halves, in the
  contexts both cases ran in;
- a run without the claim's interval is refused with exit status 1.

  launch_cost_replay_test.py SCRIPT
"""

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

CHAIN = "day48-fusion/part3/staged-chain"
QUEUED = "day48-fusion/part1/empty-single-staged-launches"
CLAIM = "staged-launch-cost-converges-to-an-empty-launch"
T975 = {4: 2.7764451051977987}  # Student's t, 0.975 quantile, 4 degrees of freedom
# The chain's log ratio over the queued launches in each of five contexts.
DEVIATIONS = [0.02, -0.01, 0.005, -0.015, 0.0]


def case(name, elements, medians_by_context, samples_per_round=None, halves=(1.0, 1.0)):
    rounds = []
    samples = []
    for context, median in medians_by_context.items():
        if samples_per_round:
            # Half the round at halves[0] x its median, then half at halves[1] x: those are the
            # halves' medians.
            half = samples_per_round // 2
            round_samples = [median * halves[0]] * half + [median * halves[1]] * half
        else:
            round_samples = [median] * 6
        samples += round_samples
        rounds.append({"median_ms": median, "context": context, "samples": len(round_samples)})
    figure = math.exp(statistics.fmean(math.log(m) for m in medians_by_context.values()))
    return {"name": name, "elements": elements, "figure_ms": figure, "rounds": rounds, "samples_ms": samples}


def write_run(folder, ratio, with_interval=True, halves=False):
    """A run whose chain at 1,024 over the queued launches is `ratio` x exp(deviation) context by
    context; the queued launches have six contexts and the chain five (the last five: pairs are made
    by context number). A decoy size, 4,096, has another ratio."""
    queued = {c: 0.002 + 0.0001 * c for c in range(6)}
    chain = {c: queued[c] * ratio * math.exp(DEVIATIONS[c - 1]) for c in range(1, 6)}
    per_round = 20 if halves else None
    cases = [case(QUEUED, 1, queued, per_round), case(CHAIN, 1024, chain, per_round, (0.9, 1.1)),
             case(CHAIN, 4096, {c: 0.01 for c in range(1, 6)})]
    measured = cases[1]["figure_ms"] / cases[0]["figure_ms"]
    claim = {"id": CLAIM, "verdict": "failed", "measured": measured}
    if with_interval:
        claim["measured_interval"] = {"low": measured * 0.98, "high": measured * 1.02}
    os.makedirs(folder)
    with open(os.path.join(folder, "t.json"), "w", encoding="utf-8") as f:
        json.dump({"provenance": {"kind": "synthetic"}, "schema_version": "1.11.0", "cases": cases,
                   "claims": [claim]}, f)
    return measured


def expected_interval(measured, k):
    logs = DEVIATIONS  # the pairs' log ratios differ from the figure's by a constant only
    s = statistics.stdev(logs)
    half = T975[4] * s * math.sqrt(1.0 / len(logs) + k * k)
    return measured * math.exp(-half), measured * math.exp(half)


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def main():
    script = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        far = write_run(os.path.join(tmp, "far"), 1.40)
        near = write_run(os.path.join(tmp, "near"), 1.195)
        inside = write_run(os.path.join(tmp, "inside"), 1.10)
        done = run(script, os.path.join(tmp, "far"), os.path.join(tmp, "near"), os.path.join(tmp, "inside"),
                   "--k", "0.6,0")
        if done.returncode != 0:
            failures.append("three runs: exit %d: %s" % (done.returncode, done.stderr))
        rows = {line.split("|")[1].strip(): line for line in done.stdout.splitlines()
                if line.startswith("| ") and "t.json" in line}
        for name, measured in (("far", far), ("near", near), ("inside", inside)):
            row = next((line for path, line in rows.items() if os.sep + name + os.sep in path), None)
            if row is None:
                failures.append("no row for %s:\n%s" % (name, done.stdout))
                continue
            cells = [c.strip() for c in row.split("|")[1:-1]]
            if cells[4] != "5":
                failures.append("%s: %s contexts paired, expected 5" % (name, cells[4]))
            for cell, k in zip(cells[6:], (0.6, 0.0)):
                low, high = expected_interval(measured, k)
                verdict = ("held" if 0.80 <= low and high <= 1.20 else "failed" if low > 1.20 or high < 0.80
                           else "inconclusive")
                # Printed to 4 decimals: each end within one unit of the last digit of the one computed here.
                parts = cell.split()
                if (len(parts) != 4 or parts[1] != "to" or parts[3] != verdict
                        or abs(float(parts[0]) - low) > 1.5e-4 or abs(float(parts[2]) - high) > 1.5e-4):
                    failures.append("%s, k = %g: '%s', expected '%.4f to %.4f %s'" % (name, k, cell, low, high, verdict))
        # The near run's interval reaches 1.20 at k = 0.6 and not at k = 0; the run inside the band is
        # held at both: the tallies say so.
        if ("k = 0.6: held 1, failed 1, inconclusive 1" not in done.stdout
                or "k = 0: held 1, failed 2, inconclusive 0" not in done.stdout):
            failures.append("tallies:\n" + done.stdout)

        # Halves: the chain's first half-round is at 0.9 x its median and its second at 1.1 x, the
        # queued launches' both at 1 x; the halves' log ratios differ by log(0.9 / 1.1) in each of the
        # 5 contexts both ran in, and a full round's sampling error is half that.
        write_run(os.path.join(tmp, "halves"), 1.3, halves=True)
        done = run(script, os.path.join(tmp, "halves"))
        expected = "sampling error (first half against second): %.2f%% over 5 rounds" % (
            100 * abs(math.log(0.9 / 1.1)) / 2)
        if expected not in done.stdout:
            failures.append("halves:\n" + done.stdout + done.stderr)

        write_run(os.path.join(tmp, "bare"), 1.3, with_interval=False)
        done = run(script, os.path.join(tmp, "bare"))
        if done.returncode != 1 or "has no interval" not in done.stderr:
            failures.append("a run without an interval: exit %d, %s" % (done.returncode, done.stderr))
    for failure in failures:
        print("FAIL:", failure)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
