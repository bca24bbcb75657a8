#!/usr/bin/env python3
"""Checks scripts/diagnostics/variance-levels.py on synthetic transcripts (provenance "synthetic",
built here, never measured; only the fields the script reads) whose variance components are known by
construction: log round median = log 0.01 + a_p + b_pc + e_pck, with
  e = +-E alternating within each context (4 rounds),
  b = +B, -B, 0 over each process's 3 contexts,
  a = +A, -A, +A, -A over the 4 processes.

  variance_levels_test.py SCRIPT
"""

import json
import math
import os
import subprocess
import sys
import tempfile

P, C, R = 4, 3, 4
E, B, A = 0.003, 0.02, 0.03


def transcript(process, round_seconds):
    rounds = []
    for context in range(C):
        b = [B, -B, 0.0][context]
        for k in range(R):
            e = E if k % 2 == 0 else -E
            a = A if process % 2 == 0 else -A
            rounds.append({"samples": 1, "median_ms": 0.01 * math.exp(a + b + e), "stop_reason": "sample-cap",
                           "sampling_seconds": round_seconds, "context": context})
    return {
        "schema_version": "1.8.0",
        "provenance": {"kind": "synthetic", "note": "built by tests/diagnostics/variance_levels_test.py"},
        "lab": {"name": "day48-fusion", "title": "synthetic"},
        "timing": {"mode": "hot-gated", "rounds_per_context": R,
                   "contexts": [{"create_seconds": 0.2, "setup_seconds": 0.05},
                                {"create_seconds": 0.25, "setup_seconds": 0.05},
                                {"create_seconds": 0.25, "setup_seconds": 0.05}]},
        "cases": [{"name": "day48-fusion/part3/staged-chain", "elements": 16384, "rounds": rounds},
                  # a second case whose rounds take the same time: a round of every case costs twice one
                  {"name": "day48-fusion/part3/fused-chain", "elements": 1 << 24, "rounds": rounds}],
    }


def main():
    script = sys.argv[1]
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    # The components the construction gives (balanced nested ANOVA).
    ms_round = P * C * R * E * E / (P * C * (R - 1))
    ms_context = R * P * 2 * B * B / (P * (C - 1))
    ms_process = C * R * P * A * A / (P - 1)
    expected = {"round": ms_round, "context": (ms_context - ms_round) / R,
                "process": (ms_process - ms_context) / (C * R)}
    with tempfile.TemporaryDirectory() as folder:
        for p in range(P):
            os.makedirs(os.path.join(folder, f"process-{p}"))
            with open(os.path.join(folder, f"process-{p}", "t.json"), "w", encoding="utf-8") as handle:
                json.dump(transcript(p, 0.25), handle)
        with open(os.path.join(folder, "process_seconds_minimal"), "w", encoding="utf-8") as handle:
            handle.write("0.9\n1.1\n1.0\n")
        out = os.path.join(folder, "levels.json")
        result = subprocess.run([sys.executable, script, folder, "--json", out], capture_output=True, text=True,
                                check=False)
        check(result.returncode == 0, f"exit {result.returncode}: {result.stderr}")
        with open(out, encoding="utf-8") as handle:
            figures = json.load(handle)
        costs = figures["costs"]
        check(abs(costs["round"] - 0.5) < 1e-12, f"a round of both cases costs 0.5 s: {costs}")
        check(abs(costs["context"] - 0.3) < 1e-12, f"a later context costs 0.3 s: {costs}")
        check(abs(costs["process"] - 1.0) < 1e-12, f"a process costs 1.0 s (median of the files): {costs}")
        staged = next(c for c in figures["cases"] if c["case"].endswith("staged-chain"))
        check((staged["processes"], staged["contexts"], staged["rounds"]) == (P, C, R), f"design: {staged}")
        for level, value in expected.items():
            check(abs(staged["components"][level] - max(0.0, value)) < 1e-12,
                  f"{level}: {staged['components'][level]} against {value}")
        # Kalibera and Jones, with these components and costs.
        per_context = math.ceil(math.sqrt(0.3 / 0.5 * expected["round"] / expected["context"]))
        per_process = math.ceil(math.sqrt(1.0 / 0.3 * expected["context"] / expected["process"]))
        check(staged["rounds_per_context"] == per_context, f"rounds per context {staged['rounds_per_context']}")
        check(staged["contexts_per_process"] == per_process,
              f"contexts per process {staged['contexts_per_process']} against {per_process}")
        check("| day48-fusion/part3/staged-chain | 16384 |" in result.stdout, f"table: {result.stdout}")
        check("Median over 1 cases at n <= 2^16" in result.stdout, "the small-n line")
        # Costs from another run (a full run of the lab): its rounds took 1.5 s, its later contexts 0.4 s.
        other = os.path.join(folder, "full")
        os.makedirs(other)
        full = transcript(0, 0.75)
        full["timing"]["contexts"][1:] = [{"create_seconds": 0.3, "setup_seconds": 0.1}] * 2
        with open(os.path.join(other, "full.json"), "w", encoding="utf-8") as handle:
            json.dump(full, handle)
        result = subprocess.run([sys.executable, script, *(os.path.join(folder, f"process-{p}") for p in range(P)),
                                 "--costs-from", other, "--process-cost", "2", "--json", out],
                                capture_output=True, text=True, check=False)
        with open(out, encoding="utf-8") as handle:
            costs = json.load(handle)["costs"]
        check(result.returncode == 0 and abs(costs["round"] - 1.5) < 1e-12 and abs(costs["context"] - 0.4) < 1e-12
              and costs["process"] == 2.0, f"costs from another run: {costs}")
        # Without the process: no process level, and nothing to analyse.
        only = subprocess.run([sys.executable, script, os.path.join(folder, "process-0")], capture_output=True,
                              text=True, check=False)
        check(only.returncode == 1 and "nothing to analyse" in only.stderr, f"one process: {only.returncode}")

    # One round per context (1.8.0's default): two levels, context (its round included) and process.
    # Per process, contexts at b = +B, -B, 0 (+ e = +E on the first round's context only: folded into
    # the context level), processes at +A, -A, +A, -A.
    with tempfile.TemporaryDirectory() as folder:
        values = []
        for p in range(P):
            t = transcript(p, 0.25)
            for c in t["cases"]:
                c["rounds"] = [r for r in c["rounds"] if r["context"] is not None][::R]
            t["timing"]["rounds_per_context"] = 1
            values.append([math.log(r["median_ms"]) for r in t["cases"][0]["rounds"]])
            os.makedirs(os.path.join(folder, f"process-{p}"))
            with open(os.path.join(folder, f"process-{p}", "t.json"), "w", encoding="utf-8") as handle:
                json.dump(t, handle)
        means = [sum(v) / C for v in values]
        grand = sum(means) / P
        ms_context = sum((x - means[i]) ** 2 for i, v in enumerate(values) for x in v) / (P * (C - 1))
        ms_process = C * sum((m - grand) ** 2 for m in means) / (P - 1)
        out = os.path.join(folder, "levels.json")
        result = subprocess.run([sys.executable, script, folder, "--json", out], capture_output=True, text=True,
                                check=False)
        check(result.returncode == 0, f"two levels: exit {result.returncode}: {result.stderr}")
        with open(out, encoding="utf-8") as handle:
            staged = next(c for c in json.load(handle)["cases"] if c["case"].endswith("staged-chain"))
        components = staged["components"]
        check(staged["rounds"] == 1 and components["round"] is None, f"two levels: no round level: {staged}")
        check(abs(components["context"] - ms_context) < 1e-12, f"two levels: context {components}")
        process = (ms_process - ms_context) / C
        check(abs(components["process"] - process) < 1e-12, f"two levels: process {components}")
        check(abs(staged["process_allowance"] - math.sqrt(process / ms_context)) < 1e-12,
              f"two levels: k {staged['process_allowance']}")
        check(staged["rounds_per_context"] is None, "two levels: no rounds per context")
        check("k = T process / T context: median" in result.stdout, f"two levels: the k line: {result.stdout}")

    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
