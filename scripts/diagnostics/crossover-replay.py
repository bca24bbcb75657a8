#!/usr/bin/env python3
"""How often fusion-verdicts' L2 crossover claim would be inconclusive at C contexts, replayed from
runs' context medians (docs/measurement.md, "Fifteen contexts for the small cases in hot-gated
timing, ten for fusion-verdicts").

  crossover-replay.py RUN_FOLDER... [--contexts 5,10,15] [--draws 20000] [--seed 31]

Each RUN_FOLDER holds one fusion-verdicts transcript (*.json, or gzip-compressed *.json.gz), as
intervals-benchmark.sh leaves them.
For each size of the elementwise pair, the script prints each run's speedup and the 95% interval a
run builds for it (paired context log ratios, t(C - 1), process allowance k = 0.6, or 1.0 where a
case was found launch-bound: claims/claims.cpp claim_ratio_interval). Then, for the sizes given by
--sizes, it pools the runs' context deviations (each about its run's mean, scaled by sqrt(C/(C-1)))
and draws runs of C contexts: a mean as the runs' mean, a process offset of half the runs' spread,
and C deviations drawn from the pool; it prints how often the interval's upper end reaches the
bottom of the settled band (1 - tolerance) x the byte ratio. This is a replay of measured contexts,
not a measurement.
"""

import argparse
import math
import random
import statistics
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import context_interval, context_logs, read_transcripts  # noqa: E402 (beside this script)

PAIR = "fusion-verdicts/elementwise-pair/"
BYTE_RATIO = 2.0
TOLERANCE = 0.10
GPU_BOUND_K = 0.6
HOST_BOUND_K = 1.0


def launch_bound(case):
    check = case.get("launch_check") or {}
    return bool(check.get("launch_bound"))


def read_runs(folders):
    """(folder, {(version, n): case} of the elementwise pair) for the transcript in each folder."""
    runs = []
    for folder in folders:
        transcripts = read_transcripts([folder], "crossover-replay")
        if not transcripts:
            sys.exit("crossover-replay: no transcript in %s" % folder)
        pair = {}
        for case in transcripts[0][1]["cases"]:
            if case["name"].startswith(PAIR):
                pair[(case["name"][len(PAIR):], case["elements"])] = case
        runs.append((folder, pair))
    return runs


def log_ratios(pair, elements):
    slower, faster = pair[("two-passes", elements)], pair[("fused", elements)]
    a, b = context_logs(slower), context_logs(faster)
    return [x - y for x, y in zip(a, b)], launch_bound(slower) or launch_bound(faster)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--contexts", default="5,10,15")
    parser.add_argument("--sizes", default="1048576,2097152")
    parser.add_argument("--draws", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=31)
    options = parser.parse_args()
    runs = read_runs(options.folders)
    band_low = math.log((1.0 - TOLERANCE) * BYTE_RATIO)
    sizes = sorted({n for _, pair in runs for (_, n) in pair})
    print("speedup [95%% interval] per run; the settled band starts at %.2f" % math.exp(band_low))
    for n in sizes:
        cells = []
        for _, pair in runs:
            if ("two-passes", n) not in pair or ("fused", n) not in pair:
                continue
            logs, bound = log_ratios(pair, n)
            if len(logs) < 2:
                continue
            low, high = context_interval(logs, HOST_BOUND_K if bound else GPU_BOUND_K)
            mark = "*" if high >= band_low and low <= math.log((1.0 + TOLERANCE) * BYTE_RATIO) else " "
            cells.append("%.2f [%.2f,%.2f]%s" % (math.exp(statistics.mean(logs)), math.exp(low), math.exp(high), mark))
        print("%10d  %s" % (n, "  ".join(cells)))
    print("(* the interval reaches into the band)")
    if len(runs) < 2:
        print("(no replay: it draws a process offset from the runs' spread, which needs two runs or more)")
        return
    generator = random.Random(options.seed)
    for n in [int(x) for x in options.sizes.split(",")]:
        per_run = [log_ratios(pair, n)[0] for _, pair in runs]
        means = [statistics.mean(logs) for logs in per_run]
        deviations = []
        for logs in per_run:
            scale = math.sqrt(len(logs) / (len(logs) - 1.0))
            deviations += [(x - statistics.mean(logs)) * scale for x in logs]
        centre, spread = statistics.mean(means), statistics.stdev(means)
        print("n = %d: speedup %.3f, context sd %.2f%%, sd of the runs' means %.2f%%"
              % (n, math.exp(centre), 100 * statistics.stdev(deviations), 100 * spread))
        for contexts in [int(c) for c in options.contexts.split(",")]:
            reached = 0
            for _ in range(options.draws):
                offset = generator.gauss(0.0, 0.5 * spread)
                logs = [centre + offset + generator.choice(deviations) for _ in range(contexts)]
                reached += context_interval(logs, GPU_BOUND_K)[1] >= band_low
            print("  C = %2d: the interval reaches the band in %.1f%% of %d draws"
                  % (contexts, 100.0 * reached / options.draws, options.draws))


if __name__ == "__main__":
    main()
