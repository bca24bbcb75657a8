#!/usr/bin/env python3
"""Where a small case's run-to-run variation lives, and how many repetitions each level is worth
(issue 31; Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time", 2013).

Reads the transcripts of P processes (one `labrun run` each) of one lab and timing mode, each run
with --rounds C x r --rounds-per-context r (schema 1.8.0: every round records its CUDA context), and,
per case and size, splits the variance of the log of the round medians into three nested levels by a
balanced nested analysis of variance:

  round    within a context     T2_round = MS_round
  context  within a process     T2_context = (MS_context - MS_round) / r        (at least 0)
  process                       T2_process = (MS_process - MS_context) / (C r)  (at least 0)

With one round per context (the default runs of schema 1.8.0: --rounds-per-context 1), the round and
context levels cannot be told apart; the design is then two levels, context (its round included) within
a process and process, T2_context = MS_context and T2_process = (MS_process - MS_context) / C, and
"rounds per context" is not given. Either way each case also gets k = T_process / T_context, the
process allowance it would need (docs/measurement.md, "What contexts cannot see"), and the median k over
the cases at n <= 2^16.

It prints each level's standard deviation as issue 31's probe did (of the round medians within a
context, of the context means within a process, of the process means), the components' square roots,
and Kalibera and Jones's repetition counts

  rounds per context   = ceil(sqrt(c_context / c_round   x T2_round   / T2_context))
  contexts per process = ceil(sqrt(c_process / c_context x T2_context / T2_process))

with the costs measured in the same transcripts (or given): c_round, one round of every timed case
(the rounds' sampling seconds summed over the cases, median over rounds); c_context, a later
context's creation and set-up (timing.contexts, median over the contexts after the first); c_process,
the median of the numbers in files named `process_seconds_minimal` under the folders (the design
script times a labrun run of one case there), else --process-cost. A level whose component is 0
costs nothing to leave out: its count is 1 with "-" beside it.

  variance-levels.py [--lab LAB] [--mode MODE] [--costs-from PATH]... [--round-cost S] [--context-cost S]
                     [--process-cost S] [--max-elements N] [--json FILE] FOLDER_OR_TRANSCRIPT...

--costs-from measures c_round and c_context in other transcripts (a full run of the lab: a round of
every case, where the probe timed a few); --round-cost and --context-cost give them outright. Exit status: 0; 1 nothing to analyse (no
transcript of schema 1.8.0 with 2 contexts or more, in 2 processes or more); 2 usage.
"""

import argparse
import json
import math
import os
import statistics
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import read_transcripts  # noqa: E402 (beside this script)


def minimal_process_seconds(paths):
    values = []
    for path in paths:
        if not os.path.isdir(path):
            continue
        for root, _, names in os.walk(path):
            if "process_seconds_minimal" in names:
                try:
                    with open(os.path.join(root, "process_seconds_minimal"), encoding="utf-8") as handle:
                        values += [float(v) for v in handle.read().split()]
                except (OSError, ValueError):
                    pass
    return statistics.median(values) if values else None


def runs_of(paths, lab, mode):
    runs = []
    for _, t in read_transcripts(paths, "variance-levels"):
        if not isinstance(t.get("timing"), dict):
            continue
        timing = t["timing"]
        if "rounds_per_context" not in timing:
            continue  # before schema 1.8.0: its rounds record no context
        if (lab and t["lab"]["name"] != lab) or (mode and timing.get("mode") != mode):
            continue
        runs.append(t)
    return runs


def round_logs(transcript, max_elements):
    """Per (case, n): {context: [log round median, ...]}."""
    out = {}
    for c in transcript["cases"]:
        if c["elements"] > max_elements:
            continue
        for r in c.get("rounds") or []:
            median = r.get("median_ms")
            if isinstance(median, (int, float)) and median > 0 and r.get("context") is not None:
                out.setdefault((c["name"], c["elements"]), {}).setdefault(r["context"], []).append(math.log(median))
    return out


def nested_components(data):
    """data: per process, per context, the round values (a balanced design is cut to the smallest counts).
    Returns the raw standard deviations by level, the components and the counts, or None."""
    processes = [list(p.values()) for p in data]
    contexts = min(len(p) for p in processes)
    rounds = min(len(ctx) for p in processes for ctx in p)
    if len(processes) < 2 or contexts < 2:
        return None
    if rounds < 2:
        return two_level_components(processes, contexts)
    y = [[ctx[:rounds] for ctx in p[:contexts]] for p in processes]
    count_p, count_c, count_r = len(y), contexts, rounds
    context_means = [[statistics.fmean(ctx) for ctx in p] for p in y]
    process_means = [statistics.fmean(p) for p in context_means]
    grand = statistics.fmean(process_means)
    ss_round = sum((v - context_means[i][j]) ** 2 for i, p in enumerate(y) for j, ctx in enumerate(p) for v in ctx)
    ss_context = count_r * sum((m - process_means[i]) ** 2 for i, p in enumerate(context_means) for m in p)
    ss_process = count_c * count_r * sum((m - grand) ** 2 for m in process_means)
    ms_round = ss_round / (count_p * count_c * (count_r - 1))
    ms_context = ss_context / (count_p * (count_c - 1))
    ms_process = ss_process / (count_p - 1)
    raw = {
        "round": statistics.fmean(statistics.stdev(ctx) for p in y for ctx in p),
        "context": statistics.fmean(statistics.stdev(p) for p in context_means),
        "process": statistics.stdev(process_means),
    }
    components = {
        "round": ms_round,
        "context": max(0.0, (ms_context - ms_round) / count_r),
        "process": max(0.0, (ms_process - ms_context) / (count_c * count_r)),
    }
    return {"raw_sd": raw, "components": components, "processes": count_p, "contexts": count_c, "rounds": count_r}


def two_level_components(processes, contexts):
    """One round per context: contexts within processes, and processes (see the module's text)."""
    y = [[ctx[0] for ctx in p[:contexts]] for p in processes]
    count_p, count_c = len(y), contexts
    process_means = [statistics.fmean(p) for p in y]
    grand = statistics.fmean(process_means)
    ms_context = sum((v - process_means[i]) ** 2 for i, p in enumerate(y) for v in p) / (count_p * (count_c - 1))
    ms_process = count_c * sum((m - grand) ** 2 for m in process_means) / (count_p - 1)
    raw = {"round": None, "context": statistics.fmean(statistics.stdev(p) for p in y),
           "process": statistics.stdev(process_means)}
    components = {"round": None, "context": ms_context, "process": max(0.0, (ms_process - ms_context) / count_c)}
    return {"raw_sd": raw, "components": components, "processes": count_p, "contexts": count_c, "rounds": 1}


def allowance(components):
    """k = T_process / T_context; None when the context component is 0."""
    return math.sqrt(components["process"] / components["context"]) if components["context"] > 0.0 else None


def repetitions(cost_upper, cost_lower, lower, upper):
    """Kalibera and Jones: ceil(sqrt(c_upper / c_lower x T2_lower / T2_upper)); None when upper is 0."""
    if upper <= 0.0 or cost_lower is None or cost_upper is None or cost_lower <= 0.0:
        return None
    return max(1, math.ceil(math.sqrt(cost_upper / cost_lower * lower / upper)))


def measured_costs(runs):
    rounds, contexts = [], []
    for t in runs:
        per_round = {}
        for c in t["cases"]:
            for index, r in enumerate(c.get("rounds") or []):
                per_round[index] = per_round.get(index, 0.0) + (r.get("sampling_seconds") or 0.0)
        rounds += list(per_round.values())
        contexts += [ctx["create_seconds"] + ctx["setup_seconds"] for ctx in t["timing"].get("contexts", [])[1:]]
    return (statistics.median(rounds) if rounds else None, statistics.median(contexts) if contexts else None)


def percent(value):
    return "-" if value is None else f"{100 * value:.2f}%"


def root(value):
    return None if value is None else math.sqrt(value)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--lab")
    parser.add_argument("--mode")
    parser.add_argument("--costs-from", action="append", default=[])
    parser.add_argument("--round-cost", type=float)
    parser.add_argument("--context-cost", type=float)
    parser.add_argument("--process-cost", type=float)
    parser.add_argument("--max-elements", type=int, default=1 << 62)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    runs = runs_of(args.paths, args.lab, args.mode)
    round_cost, context_cost = measured_costs(runs_of(args.costs_from, args.lab, args.mode)
                                              if args.costs_from else runs)
    round_cost = args.round_cost if args.round_cost is not None else round_cost
    context_cost = args.context_cost if args.context_cost is not None else context_cost
    process_cost = args.process_cost if args.process_cost is not None else minimal_process_seconds(args.paths)
    per_case = {}
    for t in runs:
        for key, contexts in round_logs(t, args.max_elements).items():
            per_case.setdefault(key, []).append(contexts)
    results = []
    for key in sorted(per_case):
        found = nested_components(per_case[key])
        if found is None:
            continue
        c = found["components"]
        found.update({"case": key[0], "elements": key[1], "process_allowance": allowance(c),
                      "rounds_per_context": None if c["round"] is None else
                      repetitions(context_cost, round_cost, c["round"], c["context"]),
                      "contexts_per_process": repetitions(process_cost, context_cost, c["context"], c["process"])})
        results.append(found)
    if not results:
        print("variance-levels: nothing to analyse: no case timed in 2 processes or more, each with 2 CUDA "
              "contexts or more (schema 1.8.0)", file=sys.stderr)
        return 1
    first = results[0]
    print(f"# Variance by level: {len(runs)} processes x {first['contexts']} contexts x {first['rounds']} rounds")
    print()
    cost = lambda s: "-" if s is None else f"{s:.3f} s"  # noqa: E731
    print(f"Costs: a round {cost(round_cost)}, a context {cost(context_cost)}, a process {cost(process_cost)}.")
    print()
    print("| case | n | sd round | sd context | sd process | T round | T context | T process | k "
          "| rounds per context | contexts per process |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        raw, comp = r["raw_sd"], r["components"]
        count = lambda v: "-" if v is None else str(v)  # noqa: E731
        ratio = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        print(f"| {r['case']} | {r['elements']} | {percent(raw['round'])} | {percent(raw['context'])} | "
              f"{percent(raw['process'])} | {percent(root(comp['round']))} | {percent(math.sqrt(comp['context']))} | "
              f"{percent(math.sqrt(comp['process']))} | {ratio(r['process_allowance'])} | {count(r['rounds_per_context'])} | "
              f"{count(r['contexts_per_process'])} |")
    small = [r for r in results if r["elements"] <= 1 << 16]
    if small:
        def median(key):
            values = [math.sqrt(r["components"][key]) for r in small if r["components"][key] is not None]
            return statistics.median(values) if values else None
        ks = [r["process_allowance"] for r in small if r["process_allowance"] is not None]
        print()
        print(f"Median over {len(small)} cases at n <= 2^16 of each component's square root: round "
              f"{percent(median('round'))}, context {percent(median('context'))}, process {percent(median('process'))}; "
              f"k = T process / T context: median {statistics.median(ks):.2f}, largest {max(ks):.2f}." if ks else ".")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"costs": {"round": round_cost, "context": context_cost, "process": process_cost},
                       "cases": results}, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
