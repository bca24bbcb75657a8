#!/usr/bin/env python3
"""Do a cold run's samples alternate? (docs/measurement.md, "The SM clock of every sample".) For day 48's
cases that showed it (part 1's queued empty launches and part 3's staged chain, four launches a sample,
with part 3's fused chain, one launch, as the control) at n <= 2^18, the even/odd gap of every round:
(mean of the even samples - mean of the odd ones) / the round's median, over rounds of 10 samples or
more. A run's gap for a case is the mean of its rounds' absolute gaps. Beside each, the median SM clock
its samples recorded, and per run the launch-cost claim's figure, interval and verdict, and the
transcript's clock source.

    alternation-gaps.py PATH... [--summary-only]

PATHs are transcripts or folders searched for them (plain or gzip-compressed). A run is named by the
folder its transcript is in; runs of one timing mode whose names differ only in a trailing "-N" (old-1,
old-2; run-1, run-2) form one side, and the summary last gives per side and case the median of its
runs' gaps, and the launch-cost claim's verdicts and figures.

Exit status: 0; 1 no transcript was read; 2 usage.
"""

import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import read_transcripts, round_samples  # noqa: E402

WATCHED = ("part1/empty-single-staged-launches", "part3/staged-chain", "part3/fused-chain")
LARGEST_WATCHED = 1 << 18
CLAIM = "staged-launch-cost-converges-to-an-empty-launch"
MIN_ROUND_SAMPLES = 10


def round_gaps(case):
    """Each round's (mean of even samples - mean of odd ones) / its median, for rounds of at least
    MIN_ROUND_SAMPLES samples; a case without rounds is one round of all its samples."""
    rounds = [part for _, part in round_samples(case)] or [case.get("samples_ms") or []]
    gaps = []
    for part in rounds:
        if len(part) >= MIN_ROUND_SAMPLES:
            gaps.append((statistics.fmean(part[0::2]) - statistics.fmean(part[1::2])) / statistics.median(part))
    return gaps


def side_of(run):
    return re.sub(r"-\d+$", "", run)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--summary-only", action="store_true", help="print only the summary per side")
    args = parser.parse_args()
    transcripts = read_transcripts(args.paths, "alternation-gaps")
    if not transcripts:
        print("alternation-gaps: no transcript read", file=sys.stderr)
        return 1
    gaps_by_side = {}      # (side, case, n) -> [run gap]
    claims_by_side = {}    # side -> [(figure, verdict)]
    rows = []
    for path, transcript in sorted(transcripts, key=lambda item: item[0]):
        run = os.path.basename(os.path.dirname(os.path.abspath(path)))
        mode = (transcript.get("timing") or {}).get("mode")
        side = side_of(run) + (", " + mode if mode else "")
        for case in transcript.get("cases", []):
            short = case["name"].split("/", 1)[-1]
            if short not in WATCHED or case.get("elements", 0) > LARGEST_WATCHED:
                continue
            gaps = round_gaps(case)
            if not gaps:
                continue
            gap = statistics.fmean(abs(g) for g in gaps)
            gaps_by_side.setdefault((side, short, case["elements"]), []).append(gap)
            clocks = [c for c in case.get("sample_sm_clock_mhz") or [] if c]
            clock = "%.0f" % statistics.median(clocks) if clocks else "-"
            rows.append("| %s | %s, %d | %d | %.1f%% | %s (%d of %d) |" % (
                run, short, case["elements"], len(case.get("samples_ms") or []), 100 * gap, clock,
                len(clocks), len(case.get("samples_ms") or [])))
        for claim in transcript.get("claims", []):
            if claim.get("id") == CLAIM and claim.get("measured") is not None:
                interval = claim.get("measured_interval") or {}
                claims_by_side.setdefault(side, []).append((claim["measured"], claim.get("verdict")))
                rows.append("| %s | launch-cost claim | | %.4f (%s to %s) | %s |" % (
                    run, claim["measured"],
                    "%.4f" % interval["low"] if interval else "-",
                    "%.4f" % interval["high"] if interval else "-", claim.get("verdict")))
        source = (transcript.get("timing") or {}).get("clock_source", "")
        rows.append("| %s | clock source | | | %s |" % (run, source[:60]))
    if not args.summary_only:
        print("| run | case, n | samples | even/odd gap | sample clock, median MHz (readings) |")
        print("| --- | --- | ---: | ---: | ---: |")
        print("\n".join(rows))
        print()
    print("| side | case, n | runs | even/odd gap, median over runs (least - most) |")
    print("| --- | --- | ---: | ---: |")
    for (side, short, elements), gaps in sorted(gaps_by_side.items()):
        print("| %s | %s, %d | %d | %.1f%% (%.1f - %.1f%%) |" % (
            side, short, elements, len(gaps), 100 * statistics.median(gaps), 100 * min(gaps), 100 * max(gaps)))
    for side, claims in sorted(claims_by_side.items()):
        verdicts = {}
        for _, verdict in claims:
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
        figures = [figure for figure, _ in claims]
        print("| %s | launch-cost claim | %d | %s; figure %.4f - %.4f |" % (
            side, len(claims), ", ".join("%s %d" % item for item in sorted(verdicts.items())),
            min(figures), max(figures)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
