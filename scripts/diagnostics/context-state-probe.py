#!/usr/bin/env python3
"""Reads the CSV of scripts/diagnostics/context_state_probe.cu and says at which level a small gated
workload's offset lives: the round, the stream (a hardware queue of the context), or the context.

  context-state-probe.py PROBE.csv

For each workload, standard deviations of the log round median, in percent, as variance components
(each level's variance less what the level below it contributes to it):
  round         rounds on one stream of one context
  stream        the probe's fixed streams of one context, one against another
  context       contexts, one against another, over the mean of their fixed streams
  default       the legacy default stream (where labs launch): context against context, and round
                against round inside a context
  fresh         a stream created for each round: round against round inside a context (a round that
                lands on another hardware queue moves this as much as the stream level)
  new memory    the default stream on buffers allocated for each round (none reused): round against
                round inside a context (a round whose buffers lie elsewhere moves this as much as the
                context level, if that is where the offset lives)
Then, per context, the default stream's offset from its mean over the contexts in each workload,
with the CPUs the host thread ended its rounds on (the cpu column, where the file has it), so that
an offset shared by the workloads, or one that follows a CPU, can be seen; and per workload and
context, each fixed stream's offset from the context's mean, so that states shared by streams can be
seen. Exit status: 0; 1 an unreadable or malformed file; 2 usage.
"""

import csv
import math
import statistics
import sys


def variance_component(groups, inner_variance, inner_count):
    """The variance between the means of `groups` (lists of logs), less what `inner_count` draws of a
    level below with variance `inner_variance` add to each mean; never below 0."""
    means = [statistics.fmean(g) for g in groups]
    if len(means) < 2:
        return math.nan
    return max(0.0, statistics.variance(means) - inner_variance / inner_count)


def pooled_variance(groups):
    """The pooled within-group variance of `groups` (lists of logs, each of 2 or more)."""
    squares = 0.0
    freedom = 0
    for g in groups:
        if len(g) >= 2:
            m = statistics.fmean(g)
            squares += sum((x - m) ** 2 for x in g)
            freedom += len(g) - 1
    return squares / freedom if freedom else math.nan


def percent(variance):
    return "n/a" if math.isnan(variance) else f"{100 * math.sqrt(variance):.2f}%"


def main():
    if len(sys.argv) != 2:
        print("usage: context-state-probe.py PROBE.csv", file=sys.stderr)
        return 2
    logs = {}  # (workload, variant, context) -> [log median per round]
    cpus = {}  # context -> {CPU a round ended on}
    try:
        with open(sys.argv[1], encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                median = float(row["median_us"])
                if median <= 0:
                    raise ValueError(f"median_us {median} is not positive")
                key = (row["workload"], row["variant"], int(row["context"]))
                logs.setdefault(key, []).append(math.log(median))
                if row.get("cpu") not in (None, ""):
                    cpus.setdefault(int(row["context"]), set()).add(int(row["cpu"]))
    except (OSError, ValueError, KeyError) as error:
        print(f"context-state-probe: {sys.argv[1]}: {error}", file=sys.stderr)
        return 1
    if not logs:
        print(f"context-state-probe: {sys.argv[1]}: no rows", file=sys.stderr)
        return 1
    workloads = sorted({k[0] for k in logs})
    contexts = sorted({k[2] for k in logs})
    streams = sorted({k[1] for k in logs if k[1].startswith("stream-")}, key=lambda s: int(s.split("-")[1]))
    rounds = max(len(v) for v in logs.values())
    print(f"{len(contexts)} contexts, {rounds} rounds, {len(streams)} fixed streams\n")
    print("| workload | median (us) | round | stream | context | default: context | default: round "
          "| fresh: round | new memory: round |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in workloads:
        fixed = [logs[(w, s, c)] for c in contexts for s in streams if (w, s, c) in logs]
        round_var = pooled_variance(fixed)
        per_context_streams = [[statistics.fmean(logs[(w, s, c)]) for s in streams if (w, s, c) in logs]
                               for c in contexts]
        stream_var = statistics.fmean(
            max(0.0, statistics.variance(means) - round_var / rounds)
            for means in per_context_streams if len(means) >= 2) if streams else math.nan
        context_var = variance_component(per_context_streams, stream_var + round_var / rounds, len(streams)) \
            if len(streams) >= 1 else math.nan
        default = [logs[(w, "default", c)] for c in contexts if (w, "default", c) in logs]
        default_round = pooled_variance(default)
        default_context = variance_component(default, default_round, rounds)
        fresh = [logs[(w, "fresh", c)] for c in contexts if (w, "fresh", c) in logs]
        new_memory = [logs[(w, "new-memory", c)] for c in contexts if (w, "new-memory", c) in logs]
        median_us = math.exp(statistics.median(
            x for (wk, _, _), v in logs.items() if wk == w for x in v))
        print(f"| {w} | {median_us:.2f} | {percent(round_var)} | {percent(stream_var)} | {percent(context_var)} "
              f"| {percent(default_context)} | {percent(default_round)} | {percent(pooled_variance(fresh))} "
              f"| {percent(pooled_variance(new_memory))} |")
    defaults = {w: {c: statistics.fmean(logs[(w, "default", c)]) for c in contexts if (w, "default", c) in logs}
                for w in workloads}
    print("\nthe default stream: each context's offset from its mean over the contexts, in percent")
    print("| context | CPUs | " + " | ".join(workloads) + " |")
    print("| ---: | --- | " + " | ".join("---:" for _ in workloads) + " |")
    for c in contexts:
        cells = []
        for w in workloads:
            if c in defaults[w] and len(defaults[w]) >= 2:
                cells.append(f"{100 * (defaults[w][c] - statistics.fmean(defaults[w].values())):+.1f}")
            else:
                cells.append("")
        cpu_list = ",".join(str(x) for x in sorted(cpus.get(c, ()))) or "-"
        print(f"| {c} | {cpu_list} | " + " | ".join(cells) + " |")
    for w in workloads if streams else []:
        print(f"\n{w}: each fixed stream's offset from its context's mean over them, and the default "
              "stream's, in percent")
        print("| context | mean (us) | " + " | ".join(streams) + " | default |")
        print("| ---: | ---: | " + " | ".join("---:" for _ in streams) + " | ---: |")
        for c in contexts:
            means = {s: statistics.fmean(logs[(w, s, c)]) for s in streams if (w, s, c) in logs}
            if not means:
                continue
            centre = statistics.fmean(means.values())
            cells = [f"{100 * (means[s] - centre):+.1f}" if s in means else "" for s in streams]
            default = logs.get((w, "default", c))
            default_cell = f"{100 * (statistics.fmean(default) - centre):+.1f}" if default else ""
            print(f"| {c} | {math.exp(centre):.2f} | " + " | ".join(cells) + f" | {default_cell} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
