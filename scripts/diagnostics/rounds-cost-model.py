#!/usr/bin/env python3
"""The cost model behind the provisional default of `--rounds` (docs/measurement.md, "Rounds and
intervals"): each case's sampling time in a committed transcript replayed through the budget that R
rounds share (core/rounds.hpp: --reps, --max-samples and --case-time-limit split between the rounds,
at least 6 samples per adaptive round, the interval target widened by sqrt(R)).

A case's per-sample cost is its sampling_seconds over its sample count; its median's interval is
assumed to narrow as 1 / sqrt(samples) from the width it recorded. It is a model of the sampling
time only: a later round's renewal of the buffers is not in it (to be measured).

  rounds-cost-model.py TRANSCRIPT... [--rounds 1,3,4,5,8,10]

Each TRANSCRIPT is a .json file, or a gzip-compressed .json.gz one. Prints, per transcript, the
modelled sampling time at each R over the transcript's own. Exit status: 0; 1 a transcript could not
be read (its gzip data damaged, or more than 64 MiB decompressed, included); 2 usage.
"""

import argparse
import math
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import TranscriptReadError, load_transcript  # noqa: E402 (beside this script)

MIN_SAMPLES_PER_ADAPTIVE_ROUND = 6


def modelled_seconds(transcript, rounds):
    timing = transcript["timing"]
    reps, most, limit = timing["min_samples"], timing["max_samples"], timing["case_time_limit_s"]
    target, batch = timing["target_relative_median_ci"], timing["batch"]
    total = 0.0
    for case in transcript["cases"]:
        taken = case["summary"]["count"]
        per_sample = case["sampling_seconds"] / taken
        width = case["summary"]["relative_median_ci"]
        width = width if isinstance(width, (int, float)) else 1.0
        least = math.ceil(reps / rounds)
        if target > 0 and rounds > 1:
            least = max(least, MIN_SAMPLES_PER_ADAPTIVE_ROUND)
        cap = max(math.ceil(most / rounds), least)
        round_target = target * math.sqrt(rounds)
        needed = taken * (width / round_target) ** 2 if round_target > 0 and width > 0 else least
        n = least
        while not (n >= needed and n >= 6) and n < cap and n * per_sample < limit / rounds:
            n += batch
        total += rounds * min(n, cap) * per_sample
    return total


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("transcripts", nargs="+", help="transcripts (.json, or gzip-compressed .json.gz)")
    parser.add_argument("--rounds", default="1,3,4,5,8,10")
    args = parser.parse_args(argv)
    counts = [int(r) for r in args.rounds.split(",")]
    for path in args.transcripts:
        try:
            t = load_transcript(path)
        except TranscriptReadError as error:
            print(f"rounds-cost-model: {error}", file=sys.stderr)
            return 1
        except OSError as error:
            print(f"rounds-cost-model: {path}: {error}", file=sys.stderr)
            return 1
        if not t.get("timing") or "sampling_seconds" not in t["cases"][0]:
            print(f"{path}: no sampling record (schema 1.2.0 on is needed)", file=sys.stderr)
            continue
        recorded = sum(c["sampling_seconds"] for c in t["cases"])
        cells = "  ".join(f"R={r}: {modelled_seconds(t, r) / recorded:.2f} x" for r in counts)
        print(f"{path} ({t['lab']['name']}, {t['timing']['mode']}, {recorded:.2f} s sampling): {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
