#!/usr/bin/env python3
"""Replays the rule that judges a hot run's bound claims on GPU time alone too (docs/measurement.md,
"Hot timing at the lesson's size"), on transcripts written before it, with no GPU.

A hot run written before the rule has no gated samples of its claims' larger cases. The replay takes
them from a hot-gated run of the same lab instead: hot run i is paired with hot-gated run i (each
folder's transcripts in name order: *.json and gzip-compressed *.json.gz, Chrome traces left out),
and each claim the rule judges (CLAIM, repeatable; default the day-48 claims it applies to at the
lesson's size) gets as its interval the span of the hot run's interval and the hot-gated run's, and
that span's verdict against its bound (a hot claim its noise left inconclusive rests on the hot-gated
reading so, where that one was judged by its interval). The gated reading then comes from another
process, so this is an estimate of what the rule does, not a measurement of it.

  gpu-alone-replay.py HOT_FOLDER GATED_FOLDER [--claim ID]...

Prints, per claim, the hot runs' verdicts as they were judged and as the rule would judge them.
Exit status: 0; 1 a transcript could not be read (its gzip data damaged, or more than 64 MiB
decompressed, included); 2 usage, or folders without transcripts or with different numbers of them.
"""

import argparse
import collections
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import TranscriptReadError, load_transcript, transcript_files  # noqa: E402 (beside this script)

DAY48_CLAIMS = [
    "staged-over-fused-is-the-byte-ratio",
    "chain-rows-at-the-copy-floor",
    "widening-does-not-make-it-faster",
    "halfway-against-staged",
    "halfway-against-fused",
]


def transcripts(folder):
    """Each run's transcript under FOLDER (one level of run folders or files; .json or .json.gz, Chrome
    traces left out), in name order."""
    return transcript_files([folder])


def claims_of(path):
    """{claim id: claim} of a transcript, plain or gzip-compressed; a file that cannot be read ends the
    program, named, with exit status 1."""
    try:
        document = load_transcript(path)
    except TranscriptReadError as error:
        raise SystemExit(f"gpu-alone-replay: {error}") from None
    except OSError as error:
        raise SystemExit(f"gpu-alone-replay: {path}: {error}") from None
    return {c["id"]: c for c in document.get("claims", [])}


def verdict(low, high, bound):
    lo, hi = bound.get("low"), bound.get("high")
    if (lo is not None and high < lo) or (hi is not None and low > hi):
        return "failed"
    if (lo is None or low >= lo) and (hi is None or high <= hi):
        return "held"
    return "inconclusive"


def spanned(hot, gated):
    """The hot claim's verdict with its interval spanned by the gated claim's, as the rule judges: a hot
    claim judged by its interval, or one its noise left inconclusive (basis "noise": it rests on the
    gated reading), against a gated claim judged by its interval; any other claim as it was judged."""
    if hot.get("verdict_basis") not in ("interval", "noise") or not hot.get("measured_interval") or \
            not gated or gated.get("verdict_basis") != "interval" or not gated.get("measured_interval"):
        return hot["verdict"]
    low = min(hot["measured_interval"]["low"], gated["measured_interval"]["low"])
    high = max(hot["measured_interval"]["high"], gated["measured_interval"]["high"])
    return verdict(low, high, hot["bound"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hot")
    parser.add_argument("gated")
    parser.add_argument("--claim", action="append", dest="claims")
    args = parser.parse_args()
    hot, gated = transcripts(args.hot), transcripts(args.gated)
    if not hot or len(hot) != len(gated):
        print(f"gpu-alone-replay: {len(hot)} hot and {len(gated)} hot-gated transcripts: need as many of each, "
              "at least one", file=sys.stderr)
        return 2
    ids = args.claims or DAY48_CLAIMS
    before = {claim: collections.Counter() for claim in ids}
    after = {claim: collections.Counter() for claim in ids}
    for hot_path, gated_path in zip(hot, gated):
        hot_claims, gated_claims = claims_of(hot_path), claims_of(gated_path)
        for claim in ids:
            if claim in hot_claims:
                before[claim][hot_claims[claim]["verdict"]] += 1
                after[claim][spanned(hot_claims[claim], gated_claims.get(claim))] += 1
    print(f"{len(hot)} hot runs, each paired with a hot-gated run as its gated reading (a replay, not a measurement)")
    print()
    print("| claim | hot, as judged | with the hot-gated run's interval spanned in |")
    print("| --- | --- | --- |")
    words = lambda counts: ", ".join(f"{v} {counts[v]}" for v in ("held", "failed", "inconclusive") if counts[v]) or "-"
    for claim in ids:
        print(f"| {claim} | {words(before[claim])} | {words(after[claim])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
