#!/usr/bin/env python3
"""Day 48's launch-cost claim, replayed at other process allowances from runs' context medians
(docs/measurement.md, "The final tree on the H200, in one lease").

  launch-cost-replay.py RUN_FOLDER... [--k 0.6,0.45,0.3,0]

Each RUN_FOLDER holds one day-48 transcript (*.json, or gzip-compressed *.json.gz) of cold or
hot-gated timing, as intervals-benchmark.sh leaves them. In those modes the claim
`staged-launch-cost-converges-to-an-empty-launch` reads the staged chain at the size it picked on the
run, over part 1's empty-single-staged-launches, paired over the CUDA contexts both ran in.

For each run the script prints:
- the recorded figure, verdict and interval's lower end;
- the standard deviation s of the contexts' log ratios;
- for each allowance k, the interval, figure x exp(-+t(C - 1) s sqrt(1 / C + k^2)), and the verdict it
  gives against the claim's band, 0.80 to 1.20: held inside it, failed wholly outside it, else
  inconclusive (the figure lies above the band on the H200 and inside it on an H100).

At k = 0.6 (claims/claims.cpp, a GPU-bound figure) the rebuilt lower end matches the recorded one. The
per-sample split prints how much of s is the sampling error of a round's median: each round's samples
are split into first and second halves in each CUDA context both cases ran in, and the ratios of the
two halves' medians are compared.
"""

import argparse
import math
import statistics
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import (context_interval, paired_log_ratios, read_transcripts,  # noqa: E402 (beside this script)
                                round_samples)

CLAIM = "staged-launch-cost-converges-to-an-empty-launch"
CHAIN = "day48-fusion/part3/staged-chain"
QUEUED = "day48-fusion/part1/empty-single-staged-launches"
BOUND_LOW, BOUND_HIGH = 0.80, 1.20  # the claim's band: within 20% of 1


def rounds_by_context(case):
    """{context number: that context's samples (its rounds' pooled)}."""
    out = {}
    for r, samples in round_samples(case):
        out.setdefault(r["context"], []).extend(samples)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--k", default="0.6,0.45,0.3,0")
    args = parser.parse_args()
    ks = [float(k) for k in args.k.split(",")]
    print("| run | figure | verdict | recorded low | C | s | " + " | ".join("interval, k = %g" % k for k in ks) + " |")
    print("| --- | ---: | --- | ---: | ---: | ---: | " + " | ".join("---" for _ in ks) + " |")
    tallies = {k: {"held": 0, "failed": 0, "inconclusive": 0} for k in ks}
    halves = []
    between = []
    for path, transcript in read_transcripts(args.runs, "launch-cost-replay"):
        claim = next((c for c in transcript["claims"] if c["id"] == CLAIM), None)
        if claim is None or claim.get("measured") is None or not claim.get("measured_interval"):
            sys.exit("launch-cost-replay: %s has no interval for %s" % (path, CLAIM))
        figure = claim["measured"]
        # The picked size: the chain's size whose figure over the queued launch is the claim's.
        queued = next(c for c in transcript["cases"] if c["name"] == QUEUED)
        chain = min((c for c in transcript["cases"] if c["name"] == CHAIN and c.get("figure_ms")),
                    key=lambda c: abs(c["figure_ms"] / queued["figure_ms"] - figure))
        logs = paired_log_ratios(chain, queued)
        count = len(logs)
        spread = statistics.stdev(logs)
        between.append(spread)
        cells = []
        for k in ks:
            # The run's interval has context_interval's half width, centred on the run's figure.
            low_log, high_log = context_interval(logs, k)
            low = figure * math.exp(-(high_log - low_log) / 2)
            high = figure * math.exp((high_log - low_log) / 2)
            if BOUND_LOW <= low and high <= BOUND_HIGH:
                verdict = "held"
            elif low > BOUND_HIGH or high < BOUND_LOW:
                verdict = "failed"
            else:
                verdict = "inconclusive"
            tallies[k][verdict] += 1
            cells.append("%.4f to %.4f %s" % (low, high, verdict))
        chain_rounds, queued_rounds = rounds_by_context(chain), rounds_by_context(queued)
        for context in chain_rounds.keys() & queued_rounds.keys():
            a, b = chain_rounds[context], queued_rounds[context]
            if len(a) >= 12 and len(b) >= 12:
                ha, hb = len(a) // 2, len(b) // 2
                first = math.log(statistics.median(a[:ha]) / statistics.median(b[:hb]))
                second = math.log(statistics.median(a[ha:]) / statistics.median(b[hb:]))
                halves.append(first - second)
        print("| %s | %.4f | %s | %.4f | %d | %.2f%% | %s |" % (
            path, figure, claim["verdict"], claim["measured_interval"]["low"], count, 100 * spread,
            " | ".join(cells)))
    print()
    for k in ks:
        print("k = %g: held %d, failed %d, inconclusive %d" % (k, tallies[k]["held"], tallies[k]["failed"],
                                                              tallies[k]["inconclusive"]))
    rms = lambda values: math.sqrt(statistics.fmean([v * v for v in values]))  # noqa: E731
    if halves:
        # var(first - second) = 2 var(half) = 4 var(full round): the full round's sampling sd is half of it.
        print("between-context s, root mean square over the runs: %.2f%%; a round median's sampling error "
              "(first half against second): %.2f%% over %d rounds" % (100 * rms(between), 100 * rms(halves) / 2,
                                                                       len(halves)))


if __name__ == "__main__":
    main()
