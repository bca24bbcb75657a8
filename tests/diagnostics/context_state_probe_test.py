#!/usr/bin/env python3
"""Checks scripts/diagnostics/context-state-probe.py on a synthetic probe CSV (built here, never
measured) whose levels are drawn from a seeded generator: log round median = log base + k_c + s_cj +
e_cjr for the fixed streams (context c, stream j, round r); the default stream takes stream 0's offset
and its own round noise; a fresh stream takes a new stream offset each round, and new memory a new
offset of its own each round. The script's components
are held against the balanced nested ANOVA's, computed here from mean squares.

  context_state_probe_test.py SCRIPT
"""

import math
import os
import random
import re
import subprocess
import sys
import tempfile

C, S, R = 7, 6, 4


def main():
    script = sys.argv[1]
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    draw = random.Random(31)
    cells = {}  # (variant, context) -> [log]
    for c in range(C):
        k = draw.gauss(0.0, 0.01)
        offsets = [draw.gauss(0.0, 0.02) for _ in range(S)]
        for j in range(S):
            cells[(f"stream-{j}", c)] = [k + offsets[j] + draw.gauss(0.0, 0.003) for _ in range(R)]
        cells[("default", c)] = [k + offsets[0] + draw.gauss(0.0, 0.003) for _ in range(R)]
        cells[("fresh", c)] = [k + draw.gauss(0.0, 0.02) for _ in range(R)]
        cells[("new-memory", c)] = [k + offsets[0] + draw.gauss(0.0, 0.015) for _ in range(R)]
    rows = ["context,round,variant,workload,median_us,cpu"]
    for (variant, c), logs in cells.items():
        for r, x in enumerate(logs):
            rows.append(f"{c},{r},{variant},chain,{10.0 * math.exp(x)!r},{c % 3}")

    def mean(v):
        return sum(v) / len(v)

    # Balanced nested ANOVA over the fixed streams.
    fixed = {(j, c): cells[(f"stream-{j}", c)] for j in range(S) for c in range(C)}
    cell_mean = {key: mean(v) for key, v in fixed.items()}
    context_mean = {c: mean([cell_mean[(j, c)] for j in range(S)]) for c in range(C)}
    grand = mean(list(context_mean.values()))
    ms_round = sum((x - cell_mean[key]) ** 2 for key, v in fixed.items() for x in v) / (C * S * (R - 1))
    ms_stream = R * sum((cell_mean[(j, c)] - context_mean[c]) ** 2 for j in range(S) for c in range(C)) / (C * (S - 1))
    ms_context = S * R * sum((m - grand) ** 2 for m in context_mean.values()) / (C - 1)
    default = [cells[("default", c)] for c in range(C)]
    default_means = [mean(v) for v in default]
    ms_default_round = sum((x - mean(v)) ** 2 for v in default for x in v) / (C * (R - 1))
    ms_default_context = R * sum((m - mean(default_means)) ** 2 for m in default_means) / (C - 1)
    fresh = [cells[("fresh", c)] for c in range(C)]
    ms_fresh = sum((x - mean(v)) ** 2 for v in fresh for x in v) / (C * (R - 1))
    new_memory = [cells[("new-memory", c)] for c in range(C)]
    ms_new_memory = sum((x - mean(v)) ** 2 for v in new_memory for x in v) / (C * (R - 1))
    expected = [ms_round, (ms_stream - ms_round) / R, (ms_context - ms_stream) / (S * R),
                (ms_default_context - ms_default_round) / R, ms_default_round, ms_fresh, ms_new_memory]
    expected = [100 * math.sqrt(max(0.0, v)) for v in expected]

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "probe.csv")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(rows) + "\n")
        result = subprocess.run([sys.executable, script, path], capture_output=True, text=True, check=False)
        check(result.returncode == 0, f"exit {result.returncode}: {result.stderr}")
        check(result.stdout.startswith(f"{C} contexts, {R} rounds, {S} fixed streams"), result.stdout[:80])
        row = next((line for line in result.stdout.splitlines() if line.startswith("| chain |")), "")
        figures = [float(x) for x in re.findall(r"(-?[0-9.]+)%", row)]
        check(len(figures) == 7, f"seven components in the row: {row!r}")
        for name, got, want in zip(["round", "stream", "context", "default: context", "default: round",
                                    "fresh: round", "new memory: round"], figures, expected):
            check(abs(got - want) < 0.006, f"{name}: {got}% against {want:.4f}%")
        # The default stream's table: a row per context, its CPUs and its offset from the contexts' mean.
        default_rows = [line for line in result.stdout.splitlines() if re.match(r"\| [0-9]+ \| [0-9,]+ \| [-+]", line)]
        check(len(default_rows) == C, f"the default stream: a row per context: {len(default_rows)}")
        centre = mean(default_means)
        for c, line in enumerate(default_rows):
            fields = [f.strip() for f in line.strip("|").split("|")]
            check(fields[1] == str(c % 3), f"context {c}'s CPU: {line}")
            check(abs(float(fields[2]) - 100 * (default_means[c] - centre)) < 0.051, f"context {c}'s offset: {line}")
        # The stream table: a row per context, the offsets of each context's streams summing to 0.
        table = [line for line in result.stdout.splitlines() if re.match(r"\| [0-9]+ \| [0-9]+\.[0-9]+ \| ", line)]
        check(len(table) == C, f"a row per context: {len(table)}")
        for line in table:
            offsets = [float(x) for x in line.strip("|").split("|")[2:2 + S]]
            check(abs(sum(offsets)) < 0.05 * S, f"offsets around the context's mean: {line}")

        with open(path, "a", encoding="utf-8") as handle:
            handle.write("0,0,default,chain,-1\n")
        bad = subprocess.run([sys.executable, script, path], capture_output=True, text=True, check=False)
        check(bad.returncode == 1 and "not positive" in bad.stderr, f"a bad row: {bad.returncode} {bad.stderr}")
        usage = subprocess.run([sys.executable, script], capture_output=True, text=True, check=False)
        check(usage.returncode == 2 and "usage" in usage.stderr, f"usage: {usage.returncode}")

    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
