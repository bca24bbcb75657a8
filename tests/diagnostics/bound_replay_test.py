#!/usr/bin/env python3
"""Checks scripts/diagnostics/bound-replay.py on synthetic transcripts (provenance "synthetic", built
here, never measured; only the fields the script reads): the interval it rebuilds from two cases'
context medians is the one computed here by hand, paired over the contexts both cases ran in; a
figure far from its bound is never drawn across it and one on its bound nearly always is; the pair is
found among the claim's cases at the size whose ratio is the claim's figure; a bound open at one end
is read by its one end; and a claim that is not
such a ratio, or is missing, is refused with exit status 1.

  bound_replay_test.py SCRIPT
"""

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

TOP, BOTTOM, OTHER = "lab/part/top", "lab/part/bottom", "lab/part/other"
# Each run's context deviations of the log ratio (five contexts each); the runs differ by their means.
DEVIATIONS = [[0.002, -0.001, 0.0005, -0.0015, 0.0], [-0.002, 0.001, 0.0015, -0.0005, 0.0]]
RUN_OFFSETS = [0.0004, -0.0004]


def case(name, elements, medians_by_context):
    rounds = [{"median_ms": m, "context": c} for c, m in medians_by_context.items()]
    figure = math.exp(statistics.fmean(math.log(m) for m in medians_by_context.values()))
    return {"name": name, "elements": elements, "figure_ms": figure, "rounds": rounds}


def write_run(folder, run, ratio, bound, claim_id="ratio-claim", figures=None):
    """A run whose `top` over `bottom` at 2^24 is `ratio` times exp(deviation) context by context;
    `bottom` has ten contexts and `top` five (the last five: the pair is made by context number, not
    by position). A decoy pair at 2^20 of the same cases has another ratio."""
    bottom = {c: 1.0 + 0.01 * c for c in range(10)}
    log_ratio = math.log(ratio) + RUN_OFFSETS[run]
    top = {c: bottom[c] * math.exp(log_ratio + DEVIATIONS[run][c - 5]) for c in range(5, 10)}
    cases = [case(TOP, 1 << 24, top), case(BOTTOM, 1 << 24, bottom),
             case(TOP, 1 << 20, {c: 0.5 for c in range(5)}), case(BOTTOM, 1 << 20, {c: 0.25 for c in range(5)})]
    measured = cases[0]["figure_ms"] / cases[1]["figure_ms"]
    claim = {"id": claim_id, "verdict": "held", "measured": measured, "bound": bound,
             "measured_interval": {"low": measured * 0.99, "high": measured * 1.01},
             "figures": figures or f"median time of {TOP} over {BOTTOM} at the lesson size"}
    os.makedirs(os.path.join(folder, f"run-{run + 1}"))
    with open(os.path.join(folder, f"run-{run + 1}", "t.json"), "w", encoding="utf-8") as f:
        json.dump({"provenance": {"kind": "synthetic"}, "schema_version": "1.11.0", "cases": cases,
                   "claims": [claim]}, f)
    return measured


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def draw_lines(out):
    """{C: (share across the bound, share holding the mean)} from the script's draw lines."""
    shares = {}
    for line in out.splitlines():
        if line.strip().startswith("C = "):
            contexts = int(line.split("=")[1].split(":")[0])
            numbers = [float(w.rstrip("%;")) for w in line.replace("%", "% ").split() if w.endswith("%")]
            shares[contexts] = (numbers[0], numbers[1])
    return shares


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        far = os.path.join(root, "far")
        figures = [write_run(far, r, 2.0, {"low": 1.5, "high": 2.5}) for r in (0, 1)]
        out = run(script, "ratio-claim", os.path.join(far, "run-1"), os.path.join(far, "run-2"),
                  "--contexts", "5,10", "--draws", "2000")
        assert out.returncode == 0, out.stderr
        # Run 1's interval, by hand: the five paired log ratios, t(4) = 2.776, k = 0.6.
        logs = [math.log(2.0) + RUN_OFFSETS[0] + d for d in DEVIATIONS[0]]
        half = 2.776 * statistics.stdev(logs) * math.sqrt(1 / 5 + 0.36)
        centre = statistics.fmean(logs)
        expected = "%.4f to %.4f | 5" % (math.exp(centre - half), math.exp(centre + half))
        row = [line for line in out.stdout.splitlines() if line.startswith(os.path.join(far, "run-1"))][0]
        assert row.endswith(expected), (row, expected)
        assert "%.4f" % figures[0] in row, (row, figures)
        shares = draw_lines(out.stdout)
        assert shares[5][0] == 0.0 and shares[10][0] == 0.0, shares
        assert shares[5][1] > 90.0, shares

        # A figure on its bound's nearer end: nearly every draw reaches across it.
        near = os.path.join(root, "near")
        for r in (0, 1):
            write_run(near, r, 2.0, {"low": 1.5, "high": 2.0})
        out = run(script, "ratio-claim", os.path.join(near, "run-1"), os.path.join(near, "run-2"),
                  "--contexts", "5,15", "--draws", "2000")
        assert out.returncode == 0, out.stderr
        shares = draw_lines(out.stdout)
        assert shares[5][0] > 80.0 and shares[15][0] > 80.0, shares

        # A bound open at one end ("at least 2.0", the figure on it): its one end is the nearer one.
        open_end = os.path.join(root, "open")
        for r in (0, 1):
            write_run(open_end, r, 2.0, {"low": 2.0, "high": None})
        out = run(script, "ratio-claim", os.path.join(open_end, "run-1"), os.path.join(open_end, "run-2"),
                  "--contexts", "5", "--draws", "2000")
        assert out.returncode == 0, out.stderr
        assert "bound at least 2" in out.stdout, out.stdout
        assert draw_lines(out.stdout)[5][0] > 80.0, out.stdout

        # Refused: a claim that is not the ratio of its cases, and a missing one.
        odd = os.path.join(root, "odd")
        write_run(odd, 0, 2.0, {"low": 1.5, "high": 2.5}, figures=f"median time of {OTHER} alone")
        out = run(script, "ratio-claim", os.path.join(odd, "run-1"))
        assert out.returncode == 1 and "is not the ratio" in out.stderr, (out.returncode, out.stderr)
        out = run(script, "no-such-claim", os.path.join(far, "run-1"))
        assert out.returncode == 1 and "no claim 'no-such-claim'" in out.stderr, (out.returncode, out.stderr)
    print("bound-replay: ok")


if __name__ == "__main__":
    main()
