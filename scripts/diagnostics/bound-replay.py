#!/usr/bin/env python3
"""How often a two-case ratio claim's interval would reach across its bound at C contexts, replayed
from runs' context medians (docs/measurement.md, "Measured on an H100, not yet on the H200").

  bound-replay.py CLAIM_ID RUN_FOLDER... [--contexts 5,8,10,15] [--k 0.6] [--draws 20000] [--seed 31]

Each RUN_FOLDER holds one transcript of the same lab and timing mode (*.json, or gzip-compressed
*.json.gz), as intervals-benchmark.sh leaves them. CLAIM_ID names a claim that is the ratio of two
cases' figures at one size (a time-ratio or byte-ratio claim) with a bound: the script finds, in
each run, the two cases named in the claim's `figures` text whose figures' ratio at one size is the
claim's measured figure.

It prints each run's figure, verdict and recorded interval, and the interval rebuilt from the two
cases' context medians (paired over the contexts both cases ran in: the mean of their log ratios,
t(C - 1), half width t s sqrt(1 / C + k^2); k is the GPU-bound figure's process allowance, 0.6:
claims/claims.cpp) as a check that the replay builds what the runs built. Then it estimates the ratio's two levels over the
runs: T_context, the root mean square of the runs' context standard deviations, and T_process, what
the runs' means vary by beyond T_context^2 / C. It draws runs of C contexts from them (a normal
process offset of T_process, C normal context deviations of T_context about the runs' mean), builds
each draw's interval as a run does, and prints for each C how often it reaches across the bound's
nearer end (the claim inconclusive) and how often it holds the runs' mean. This is a model fitted to
measured contexts, with random draws: not a measurement.
"""

import argparse
import math
import random
import statistics
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import context_interval, paired_log_ratios, read_transcripts  # noqa: E402 (beside this script)

RELATIVE_MATCH = 1e-9  # a pair's ratio of figures is the claim's figure to this relative difference


def claim_pair(transcript, claim_id):
    """(claim, numerator case, denominator case): the two cases named in the claim's `figures`
    whose figures at one size give its measured figure; exits with a message where there are none."""
    claims = [c for c in transcript["claims"] if c["id"] == claim_id]
    if not claims:
        sys.exit("bound-replay: no claim '%s' in the transcript" % claim_id)
    claim = claims[0]
    bound = claim.get("bound")
    if bound is None or claim.get("measured") is None or (bound.get("low") is None and bound.get("high") is None):
        sys.exit("bound-replay: claim '%s' has no bound or no figure" % claim_id)
    text = claim.get("figures", "")
    named = [c for c in transcript["cases"] if c["name"] in text and c.get("figure_ms")]
    for top in named:
        for bottom in named:
            if top is bottom or top["elements"] != bottom["elements"]:
                continue
            ratio = top["figure_ms"] / bottom["figure_ms"]
            if abs(ratio / claim["measured"] - 1.0) <= RELATIVE_MATCH:
                return claim, top, bottom
    sys.exit("bound-replay: claim '%s' is not the ratio of two of its cases' figures at one size" % claim_id)


def bound_text(bound):
    """A claim's bound in words: both ends, or the one end of a bound open at the other."""
    low, high = bound.get("low"), bound.get("high")
    if low is None:
        return "at most %.4g" % high
    if high is None:
        return "at least %.4g" % low
    return "%.4g to %.4g" % (low, high)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("claim")
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--contexts", default="5,8,10,15")
    parser.add_argument("--k", type=float, default=0.6)
    parser.add_argument("--draws", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=31)
    options = parser.parse_args()
    contexts_list = [int(c) for c in options.contexts.split(",")]
    if any(c < 2 for c in contexts_list) or options.draws < 1:
        sys.exit("bound-replay: --contexts must each be at least 2 and --draws at least 1")

    runs = []
    for folder in options.folders:
        transcripts = read_transcripts([folder], "bound-replay")
        if not transcripts:
            sys.exit("bound-replay: no transcript in %s" % folder)
        claim, top, bottom = claim_pair(transcripts[0][1], options.claim)
        logs = paired_log_ratios(top, bottom)
        if len(logs) < 2:
            sys.exit("bound-replay: %s: fewer than 2 contexts" % folder)
        runs.append((folder, claim, top, logs))

    claim, top = runs[0][1], runs[0][2]
    bound = claim["bound"]
    print("claim %s: %s, n = %d; bound %s"
          % (options.claim, claim.get("figures", ""), top["elements"], bound_text(bound)))
    print("run | figure | verdict | recorded interval | rebuilt (k = %.2f) | contexts" % options.k)
    for folder, run_claim, _, logs in runs:
        recorded = run_claim.get("measured_interval") or {}
        low, high = context_interval(logs, options.k)
        print("%s | %.4f | %s | %s | %.4f to %.4f | %d"
              % (folder, run_claim["measured"], run_claim["verdict"],
                 "%.4f to %.4f" % (recorded["low"], recorded["high"]) if recorded else "-",
                 math.exp(low), math.exp(high), len(logs)))

    means = [statistics.mean(logs) for _, _, _, logs in runs]
    t_context = math.sqrt(statistics.mean([statistics.stdev(logs) ** 2 for _, _, _, logs in runs]))
    contexts_run = len(runs[0][3])
    spread = statistics.stdev(means) if len(means) > 1 else 0.0
    t_process = math.sqrt(max(0.0, spread ** 2 - t_context ** 2 / contexts_run))
    centre = statistics.mean(means)
    # A bound may be open at one end (at least, or at most): the nearer end is then its only one.
    ends = [math.log(end) for end in (bound.get("low"), bound.get("high")) if end is not None]
    nearer = min(ends, key=lambda end: abs(centre - end))
    print("runs' mean figure %.4f; T_context %.2f%%, sd of the runs' means %.2f%%, T_process %.2f%%;"
          " the bound's nearer end %.4f, %.1f of the runs' sd away"
          % (math.exp(centre), 100 * t_context, 100 * spread, 100 * t_process, math.exp(nearer),
             abs(centre - nearer) / spread if spread > 0 else float("inf")))
    generator = random.Random(options.seed)
    for contexts in contexts_list:
        across = held = 0
        for _ in range(options.draws):
            offset = generator.gauss(0.0, t_process)
            logs = [centre + offset + generator.gauss(0.0, t_context) for _ in range(contexts)]
            low, high = context_interval(logs, options.k)
            across += low <= nearer <= high
            held += low <= centre <= high
        print("  C = %2d: the interval reaches across the bound in %.1f%% of %d draws; holds the runs' mean in %.1f%%"
              % (contexts, 100.0 * across / options.draws, options.draws, 100.0 * held / options.draws))


if __name__ == "__main__":
    main()
