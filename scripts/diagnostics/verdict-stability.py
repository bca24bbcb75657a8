#!/usr/bin/env python3
"""Verdict stability and interval coverage over N back-to-back runs of a lab (issues 22 and 31).

Given the transcripts of N runs (files, or folders searched for *.json and gzip-compressed *.json.gz;
traces, comparisons and other JSON that is not a transcript are passed by), grouped by lab and timing
mode, it reports the figures issue 31 sets targets on:

- verdict changes: the claims whose verdict is not the same in every run (of the claims measured).
  A claim held in one run and failed in another is a flip (target: none).
- stability: per claim, the runs whose verdict differs from its most common verdict (target: at
  most 1 run in 10, that is at most 10% of the runs).
- coverage: per claim with an interval (schema 1.6.0 on), the runs whose 95% interval holds the
  median of the runs' figures (target: at least 9 of 10, that is at least 90% of the runs with an
  interval, for every claim). The runs whose interval misses are named, and listed with the claims
  they missed: one run missing several claims is an offset of its whole process.
- small n: for every case at n <= 2^16, the run-to-run range of its figures, (max - min) / median
  over the runs; the median of that over the cases (target: at most 3% in cold and hot-gated mode;
  hot mode's is reported). A case's figure is what its run recorded as one (cases[].figure_ms from
  schema 1.10.0: the geometric mean of its CUDA contexts' medians), else the median of its samples.
  Beside it, for runs of any version with contexts, the same range with every case's figure taken as
  the geometric mean of its contexts' medians (what 1.10.0 records), so older runs can be compared.
- cost: process wall seconds per run, read from a file `process_wall_seconds` beside the transcript
  (the benchmark scripts write it: the whole `labrun run`, plots included), else the transcript's
  run.wall_seconds (sampling to the end of the claims, without start-up and plots); the target is 1.5 x
  today's: the issue's H200 figures (TODAY_SECONDS), or, with --today-from, the median process wall
  seconds of the code the issue measured them with, run again on this card in the same lease (the
  benchmark's baseline stage), group by group.

It also measures what the intervals' design rests on (docs/measurement.md, "What contexts cannot see"):
per case at n <= 2^16, the variance of a run's mean log context median between the runs against what the
contexts within a run predict for it (T2_context / C); what is left over is a process component, and
k = T_process / T_context is the process allowance the case would need, against the one the
transcripts record (timing.process_allowance).

Per claim with an interval in 3 runs or more it also sets each run's interval against the runs' own
spread: the standard deviation of the logarithms of the runs' figures, the interval's half width (of
the logarithm; median, least and largest over the runs), their ratio to 1.96 times that standard
deviation (about 1 for an interval as wide as the runs' spread calls for; below it the interval covers
too little, above it the claim reads as inconclusive more often than the runs need), and how many such
standard deviations the runs' median figure lies from the nearest end of its bound (a claim within
about 2 of its bound is held or failed in one run and inconclusive in another by how wide each run's
interval happens to be). A hot claim judged on GPU time alone too has a second row for that reading,
named "(on GPU time alone)", from the figure and interval the claim records (claims[].gpu_alone,
schema 1.12.0; before it, its detail gives them to 3 decimals): its first row's interval spans both
readings, and the GPU-alone one is the one that sits near its bound.

As diagnostics it also gives issue 22's pairwise coverage (the share of the other runs' figures each
run's interval covers) for claims, case medians and predicted ratios, and the switch rate
(inconclusive against definite). The last lines are the targets' table: a row per claim with an interval or a verdict (coverage and
runs off its most common verdict, each against its target), then a row per group (flips, the small-n
range against its target, wall seconds against 1.5 x today's). Between the two it says what the
per-claim coverage target asks of intervals that are exact 95% ones: how many of the claims read would
miss it by chance alone, on average, and the probability that none would.

  verdict-stability.py [--json FILE] [--check] [--today-from DIR]... TRANSCRIPT_OR_DIR...

Prints a Markdown report. Exit status: 0 (with --check: every target met); 1 a file could not be
read (its gzip data damaged, or more than 64 MiB decompressed, included), or none was a transcript;
2 usage; 3 with --check, a target missed (the report says which).
"""

import argparse
import json
import math
import os
import re
import statistics
import sys

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
from transcript_reading import context_log_means, context_logs, number, read_transcripts  # noqa: E402 (beside this script)

COVERAGE_TARGET = 0.90          # runs whose interval holds the runs' median figure, per claim
NOMINAL_COVERAGE = 0.95         # what each interval claims: a 95% interval
STABILITY_TARGET = 0.10         # runs off a claim's most common verdict, per claim, at most
SMALL_N_MAX = 1 << 16
# The expected range of N runs' figures is about RANGE_OF_10_RUNS standard deviations of one (for 10
# normal draws: 3.08); the model's range at C contexts is that times sqrt(T2_process + T2_context / C).
RANGE_OF_10_RUNS = 3.08
MODEL_CONTEXTS = (5, 10, 15, 20)
SMALL_N_RANGE_TARGET = {"hot-gated": 0.03, "cold": 0.03}  # hot mode's is reported, not held to one
WALL_FACTOR = 1.5
# Issue 31's process wall seconds per run before contexts (H200, 2026-12-02), by (lab, mode).
TODAY_SECONDS = {("day48-fusion", "cold"): 7.7, ("day48-fusion", "hot"): 7.0,
                 ("day48-fusion", "hot-gated"): 6.3, ("fusion-verdicts", "hot"): 7.7,
                 ("day20-sobel-threshold", "hot"): 2.3}
WALL_FILE = "process_wall_seconds"


def measured_today(paths):
    """Today's process wall seconds per run, measured: by (lab, mode), the median over the baseline's
    runs that have a process_wall_seconds file beside them, with how many runs it rests on."""
    seconds = {}
    for run in read_runs(paths):
        if run["process_seconds"] is not None:
            seconds.setdefault((run["lab"], run["mode"]), []).append(run["process_seconds"])
    return {group: {"seconds": statistics.median(values), "runs": len(values)} for group, values in seconds.items()}


def interval(value):
    if not isinstance(value, dict):
        return None
    low, high = number(value.get("low")), number(value.get("high"))
    return None if low is None or high is None else (low, high)


def process_wall_seconds(transcript_file):
    """The benchmark's process wall time for the run, from the file beside the transcript; None without."""
    path = os.path.join(os.path.dirname(transcript_file), WALL_FILE)
    try:
        with open(path, encoding="utf-8") as handle:
            return float(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def read_runs(paths):
    runs = []
    for f, t in read_transcripts(paths, "verdict-stability"):
        if (t.get("run") or {}).get("configuration") == "smoke":
            continue
        mode = (t.get("timing") or {}).get("mode", "hot")
        runs.append({"file": f, "lab": t["lab"]["name"], "mode": mode, "transcript": t,
                     "process_seconds": process_wall_seconds(f)})
    return runs


def claim_rows(runs):
    """Per claim id: one (verdict, measured, interval) per run, in the runs' order."""
    rows = {}
    for index, run in enumerate(runs):
        for claim in run["transcript"].get("claims", []):
            rows.setdefault(claim["id"], [None] * len(runs))[index] = (
                claim["verdict"], number(claim.get("measured")), interval(claim.get("measured_interval")))
    return rows


def most_common(values):
    """The most common value; a tie goes to the one seen first."""
    counts = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return max(counts, key=lambda v: (counts[v], -values.index(v)))


def stability(rows):
    findings = []
    for claim_id, per_run in rows.items():
        verdicts = [v[0] for v in per_run if v is not None and v[0] != "not measured"]
        held, failed = verdicts.count("held"), verdicts.count("failed")
        inconclusive = verdicts.count("inconclusive")
        definite = held + failed
        common = most_common(verdicts) if verdicts else None
        off = sum(1 for v in verdicts if v != common)
        findings.append({"claim": claim_id, "runs": len(verdicts), "held": held, "failed": failed,
                         "inconclusive": inconclusive, "flip": held > 0 and failed > 0,
                         "changes": len(set(verdicts)) > 1, "most_common": common, "off_most_common": off,
                         "stable": off <= STABILITY_TARGET * len(verdicts) + 1e-9,
                         "switch_rate": min(inconclusive, definite) / len(verdicts) if verdicts else 0.0})
    return findings


def median_coverage(per_run):
    """per_run: (value, interval or None) per run. Runs whose interval holds the median of the runs'
    figures: (covered, runs with an interval, the median)."""
    values = [v for v, _ in per_run if v is not None and math.isfinite(v)]
    if not values:
        return 0, 0, None
    middle = statistics.median(values)
    with_interval = [iv for _, iv in per_run if iv is not None]
    covered = sum(1 for low, high in with_interval if low <= middle <= high)
    return covered, len(with_interval), middle


def runs_missing_median(per_run):
    """per_run: (value, interval or None) per run. The indices of the runs whose interval does not hold
    the median of the runs' figures (median_coverage's complement, run by run)."""
    _, _, middle = median_coverage(per_run)
    if middle is None:
        return []
    return [i for i, (_, iv) in enumerate(per_run) if iv is not None and not iv[0] <= middle <= iv[1]]


def run_labels(files):
    """Each file's path below the folder the runs share (run-4/2026-...json): how the report names a run."""
    if len(files) < 2:
        return [os.path.basename(f) for f in files]
    common = os.path.commonpath([os.path.abspath(f) for f in files])
    return [os.path.relpath(os.path.abspath(f), common) for f in files]


def pairwise_coverage(figures):
    """Issue 22's figure: per run (value, interval or None); pairs (run i's interval, run j's value), j != i."""
    covered = total = 0
    for i, (_, own) in enumerate(figures):
        if own is None:
            continue
        for j, (value, _) in enumerate(figures):
            if j == i or value is None or not math.isfinite(value):
                continue
            total += 1
            covered += 1 if own[0] <= value <= own[1] else 0
    return covered, total


def case_figure(case):
    """A case's figure: cases[].figure_ms where the run recorded one (schema 1.10.0), else its median."""
    figure = number(case.get("figure_ms"))
    return figure if figure is not None else number((case.get("summary") or {}).get("median_ms"))


def context_geometric_mean(case):
    """The geometric mean of a case's CUDA contexts' medians (rounds of one context pooled as the mean of
    their log medians); None for a case of fewer than 2 contexts or one read from before schema 1.8.0."""
    logs = context_logs(case)
    return math.exp(statistics.fmean(logs)) if len(logs) >= 2 else None


def case_figures(runs):
    """Per (case, n): per run (median, its interval); per (prediction, n): per run (ratio, interval)."""
    cases, ratios = {}, {}
    for index, run in enumerate(runs):
        for c in run["transcript"]["cases"]:
            summary = c.get("summary") or {}
            key = (c["name"], c["elements"])
            cases.setdefault(key, [(None, None)] * len(runs))[index] = (
                case_figure(c) if summary else None, interval(c.get("median_interval_ms")))
        for p in run["transcript"].get("predictions", []):
            for m in p.get("measured", []):
                key = (p["description"], m["elements"])
                ratios.setdefault(key, [(None, None)] * len(runs))[index] = (
                    number(m["ratio"]), interval(m.get("interval")))
    return cases, ratios


def small_n_ranges(runs, figure=case_figure):
    """Every case at n <= 2^16 timed in 2 runs or more: (max - min) / median of its runs' figures
    (`figure`, a case's figure by default)."""
    medians = {}
    for run in runs:
        for c in run["transcript"]["cases"]:
            value = figure(c)
            if c["elements"] <= SMALL_N_MAX and value is not None and value > 0:
                medians.setdefault((c["name"], c["elements"]), []).append(value)
    return {key: (max(v) - min(v)) / statistics.median(v) for key, v in medians.items() if len(v) >= 2}


def contexts_per_case(runs):
    """The CUDA contexts a case's rounds ran in (schema 1.8.0 and later), median over every case and run:
    at n <= 2^16 and above it (schema 1.11.0 gives the small cases more in cold and hot-gated timing);
    None for a side with no such case."""
    small, large = [], []
    for run in runs:
        for c in run["transcript"]["cases"]:
            count = len(context_logs(c))
            if count:
                (small if c["elements"] <= SMALL_N_MAX else large).append(count)
    return {"small": statistics.median(small) if small else None,
            "large": statistics.median(large) if large else None}


def context_deviations(case):
    """{context number: the case's log figure in that context less its mean over its contexts}; {}
    with fewer than 2 contexts."""
    means = context_log_means(case)
    if len(means) < 2:
        return {}
    centre = statistics.fmean(means.values())
    return {k: m - centre for k, m in means.items()}


def shared_offsets(run):
    """The part of each context's offset that the run's small cases (n <= 2^16) share: {context number:
    the mean over the small cases run in it of their deviations there (context_deviations)}."""
    per_context = {}
    for c in run["transcript"]["cases"]:
        if c["elements"] <= SMALL_N_MAX:
            for k, d in context_deviations(c).items():
                per_context.setdefault(k, []).append(d)
    return {k: statistics.fmean(v) for k, v in per_context.items()}


def shared_context_offset(shared_by_run):
    """The standard deviation of the runs' shared offsets (shared_offsets of each run), pooled over the
    runs with 2 contexts or more; None without such a run. (Each shared offset also carries the cases'
    own deviations over their count, a small part when many cases share the contexts.)"""
    variances = []
    for shared in shared_by_run:
        common = list(shared.values())
        if len(common) >= 2:
            variances.append(statistics.variance(common))
    return math.sqrt(statistics.fmean(variances)) if variances else None


def shared_offset_followers(runs, shared_by_run, most=3):
    """How far the cases above 2^16 follow the small cases' shared offset (shared_by_run: shared_offsets
    of each of `runs`), context by context: per case
    with 6 (run, context) pairs or more, the correlation of its deviation in a context with the shared
    offset there, the slope of one on the other, and the standard deviation of its deviations; the
    median correlation over the cases and the `most` that follow it most closely. None without such a
    case."""
    pairs = {}
    for run, shared in zip(runs, shared_by_run):
        for c in run["transcript"]["cases"]:
            if c["elements"] > SMALL_N_MAX:
                for k, d in context_deviations(c).items():
                    if k in shared:
                        pairs.setdefault((c["name"], c["elements"]), []).append((shared[k], d))
    cases = []
    for (name, elements), p in sorted(pairs.items()):
        xs, ys = [x for x, _ in p], [y for _, y in p]
        if len(p) < 6 or statistics.pvariance(xs) == 0 or statistics.pvariance(ys) == 0:
            continue
        cases.append({"case": name, "elements": elements, "correlation": statistics.correlation(xs, ys),
                      "slope": statistics.linear_regression(xs, ys).slope, "sd": statistics.pstdev(ys)})
    if not cases:
        return None
    ranked = sorted(cases, key=lambda c: -c["correlation"])
    return {"cases": len(cases), "median_correlation": statistics.median(c["correlation"] for c in cases),
            "most": ranked[:most]}


def process_component(runs):
    """Per case at n <= 2^16 timed in 3 runs or more of 2 contexts or more: T_context (the contexts'
    standard deviation within a run, pooled over the runs), T_process (what the runs' means vary by
    beyond T2_context / C, at least 0) and k = T_process / T_context; and their medians over the cases,
    with the median over the cases of the model's range of 10 runs' figures at each of MODEL_CONTEXTS
    contexts (RANGE_OF_10_RUNS x sqrt(T2_process + T2_context / C))."""
    per_case = {}
    for run in runs:
        for c in run["transcript"]["cases"]:
            logs = context_logs(c)
            if c["elements"] <= SMALL_N_MAX and len(logs) >= 2:
                per_case.setdefault((c["name"], c["elements"]), []).append(logs)
    cases = []
    for key, per_run in sorted(per_case.items()):
        if len(per_run) < 3:
            continue
        within = statistics.fmean(statistics.variance(logs) for logs in per_run)
        contexts = statistics.fmean(len(logs) for logs in per_run)
        between = statistics.variance([statistics.fmean(logs) for logs in per_run])
        process = max(0.0, between - within / contexts)
        cases.append({"case": key[0], "elements": key[1], "t_context": math.sqrt(within),
                      "t_process": math.sqrt(process),
                      "k": math.sqrt(process / within) if within > 0 else None})
    if not cases:
        return None
    ks = [c["k"] for c in cases if c["k"] is not None]
    allowances = {number((r["transcript"].get("timing") or {}).get("process_allowance")) or 0.0 for r in runs}
    model = {str(count): statistics.median(RANGE_OF_10_RUNS * math.sqrt(c["t_process"] ** 2 + c["t_context"] ** 2 / count)
                                           for c in cases) for count in MODEL_CONTEXTS}
    shared_by_run = [shared_offsets(run) for run in runs]
    return {"cases": cases, "model_range_by_contexts": model,
            "t_shared_context": shared_context_offset(shared_by_run),
            "shared_offset_followers": shared_offset_followers(runs, shared_by_run),
            "t_context_median": statistics.median(c["t_context"] for c in cases),
            "t_process_median": statistics.median(c["t_process"] for c in cases),
            "k_median": statistics.median(ks) if ks else None, "k_largest": max(ks) if ks else None,
            "recorded_allowances": sorted(allowances)}


# What a hot run's claim judged on GPU time alone too says of that reading (claims/claims.cpp,
# span_gpu_alone): from schema 1.12.0 the claim's `gpu_alone` field; before it, only its detail, with the
# figure and its interval to 3 decimals and its verdict. The claim's own interval is the span of both
# readings'.
GPU_ALONE_DETAIL = re.compile(r"on GPU time alone \(its cases' gated samples\): ([0-9.]+) \(([0-9.]+) to ([0-9.]+)\), "
                              r"(held|failed|inconclusive)")
GPU_ALONE_ROW = " (on GPU time alone)"


def gpu_alone_reading(claim):
    """(figure, (low, high)) of `claim`'s reading on GPU time alone, from its `gpu_alone` field (1.12.0)
    or, where the transcript records none, from its detail; None where it gives neither."""
    recorded = claim.get("gpu_alone")
    if isinstance(recorded, dict):
        figure, iv = number(recorded.get("measured")), interval(recorded.get("measured_interval"))
        if figure is None or iv is None:
            return None
        return (figure, iv) if 0 < iv[0] <= figure <= iv[1] else None
    match = GPU_ALONE_DETAIL.search(claim.get("detail") or "")
    if not match:
        return None
    figure, low, high = (float(match.group(i)) for i in (1, 2, 3))
    return (figure, (low, high)) if 0 < low <= figure <= high else None


def claim_spread(runs):
    """Per claim with a positive figure and interval in 3 runs or more: the runs' figures' standard
    deviation (of their logarithms), the intervals' half widths (of the logarithm), their ratio to 1.96
    times that deviation, and the runs' median figure's distance from the nearest end of the claim's
    bound in those deviations (None without a bound or a spread).

    A hot claim judged on GPU time alone too gets a second row, named with GPU_ALONE_ROW, for that
    reading: its verdict is decided where either reading's interval reaches the bound, and the first
    row's interval is the span of both. That row's half width is half the log width of the reading's own
    interval (symmetric in the logarithm), from the recorded figures (1.12.0) or those its detail
    prints to 3 decimals."""
    per_claim = {}
    for run in runs:
        for claim in run["transcript"].get("claims", []):
            measured, iv = number(claim.get("measured")), interval(claim.get("measured_interval"))
            if measured is None or iv is None or not (measured > 0 and iv[0] > 0):
                continue
            bound = claim.get("bound") or {}
            per_claim.setdefault(claim["id"], []).append((measured, iv, bound, False))
            reading = gpu_alone_reading(claim)
            if reading is not None:
                per_claim.setdefault(claim["id"] + GPU_ALONE_ROW, []).append((*reading, bound, True))
    rows = []
    for claim_id, entries in per_claim.items():
        if len(entries) < 3:
            continue
        logs = [math.log(m) for m, _, _, _ in entries]
        sd = statistics.stdev(logs)
        halves = [math.log(iv[1] / iv[0]) / 2 if symmetric else math.log(iv[1] / m)
                  for m, iv, _, symmetric in entries]
        middle = statistics.median(logs)
        ends = [number(entries[0][2].get(end)) for end in ("low", "high")]
        distances = [abs(math.log(e) - middle) for e in ends if e is not None and e > 0]
        rows.append({"claim": claim_id, "runs": len(entries), "figure_sd": sd,
                     "half_width_median": statistics.median(halves), "half_width_min": min(halves),
                     "half_width_max": max(halves),
                     "width_over_spread": statistics.median(halves) / (1.96 * sd) if sd > 0 else None,
                     "bound_distance_sd": min(distances) / sd if distances and sd > 0 else None})
    return rows


def share(covered, total):
    return covered / total if total else None


def percent(value):
    return "-" if value is None else f"{100 * value:.1f}%"


def seconds_of(runs):
    process = [r["process_seconds"] for r in runs if r["process_seconds"] is not None]
    if process:
        return process, "process"
    walls = [number((r["transcript"].get("run") or {}).get("wall_seconds")) for r in runs]
    return [w for w in walls if w is not None], "transcript"


def analyse(group, runs, today_measured=None):
    rows = claim_rows(runs)
    found = stability(rows)
    coverage = {}
    labels = run_labels([r["file"] for r in runs])
    for claim_id, per_run in rows.items():
        figures = [(v[1], v[2]) if v is not None else (None, None) for v in per_run]
        covered, with_interval, middle = median_coverage(figures)
        pair_covered, pairs = pairwise_coverage(figures)
        coverage[claim_id] = {"covered": covered, "runs": with_interval, "share": share(covered, with_interval),
                              "median": middle, "pairwise": share(pair_covered, pairs),
                              "missed_by": [labels[i] for i in runs_missing_median(figures)],
                              "met": with_interval == 0 or covered >= COVERAGE_TARGET * with_interval - 1e-9}
    # Runs whose intervals miss the median for several claims: an offset of the whole run (its process),
    # which the contexts inside it cannot see, rather than one claim's interval too narrow.
    misses_by_run = {}
    for claim_id, c in coverage.items():
        for label in c["missed_by"]:
            misses_by_run.setdefault(label, []).append(claim_id)
    covered_all = sum(c["covered"] for c in coverage.values())
    runs_all = sum(c["runs"] for c in coverage.values())
    cases, ratios = case_figures(runs)
    case_cov = [median_coverage(v) for v in cases.values()]
    ratio_cov = [median_coverage(v) for v in ratios.values()]
    ranges = small_n_ranges(runs)
    range_median = statistics.median(ranges.values()) if ranges else None
    geometric = small_n_ranges(runs, context_geometric_mean)
    geometric_median = statistics.median(geometric.values()) if geometric else None
    seconds, seconds_source = seconds_of(runs)
    # Today's figure: measured on this card where the baseline ran this group, else the issue's.
    if today_measured is not None:
        measured = today_measured.get(group)
        today = None if measured is None else measured["seconds"]
        today_source = None if measured is None else f"the issue's code, {measured['runs']} runs here"
    else:
        today = TODAY_SECONDS.get(group)
        today_source = None if today is None else "the issue's H200 figure"
    wall = None
    if seconds:
        wall = {"median": statistics.median(seconds), "min": min(seconds), "max": max(seconds),
                "source": seconds_source, "today": today, "today_source": today_source,
                "target": WALL_FACTOR * today if today is not None and seconds_source == "process" else None}
    result = {
        "lab": group[0], "mode": group[1], "runs": len(runs), "files": [r["file"] for r in runs],
        "claims": found,
        "claims_measured": sum(1 for f in found if f["runs"] > 0),
        "claims_changing": sum(1 for f in found if f["changes"]),
        "claim_coverage": {"covered": covered_all, "runs": runs_all, "share": share(covered_all, runs_all),
                           "per_claim": coverage},
        "case_median_coverage": {"covered": sum(c for c, _, _ in case_cov), "runs": sum(r for _, r, _ in case_cov)},
        "ratio_coverage": {"covered": sum(c for c, _, _ in ratio_cov), "runs": sum(r for _, r, _ in ratio_cov)},
        "small_n_range": [{"case": k[0], "elements": k[1], "range": v} for k, v in sorted(ranges.items())],
        "small_n_range_median": range_median,
        "small_n_range_context_geometric_mean_median": geometric_median,
        "wall_seconds": wall,
        "process_component": process_component(runs),
        "contexts_per_case": contexts_per_case(runs),
        "claim_spread": claim_spread(runs),
        "coverage_misses_by_run": misses_by_run,
    }
    misses = [f"{f['claim']}: held in {f['held']} runs and failed in {f['failed']}" for f in found if f["flip"]]
    misses += [f"{f['claim']}: {f['off_most_common']} of {f['runs']} runs off its most common verdict "
               f"({f['most_common']})" for f in found if not f["stable"]]
    misses += [f"{claim}: interval holds the runs' median in {c['covered']} of {c['runs']} runs"
               f" (not in {', '.join(c['missed_by'])})"
               for claim, c in coverage.items() if not c["met"]]
    if runs_all == 0:
        misses.append("no claim carries an interval (transcripts older than schema 1.6.0, or one round)")
    target = SMALL_N_RANGE_TARGET.get(group[1])
    if target is not None and range_median is not None and range_median > target:
        misses.append(f"small-n range of case figures {percent(range_median)} > {percent(target)}")
    if wall and wall["target"] is not None and wall["median"] > wall["target"]:
        misses.append(f"wall time {wall['median']:.2f} s per run > {wall['target']:.2f} s")
    result["targets_missed"] = misses
    return result


def process_text(component):
    """The summary's process column: the median T_process over the small cases, and the median k."""
    if not component:
        return "-"
    k = "-" if component["k_median"] is None else f"{component['k_median']:.2f}"
    return f"{percent(component['t_process_median'])} ({k})"


def markdown(results):
    out = ["# Verdict stability and interval coverage", ""]
    for r in results:
        out += [f"## {r['lab']}, {r['mode']}: {r['runs']} runs", ""]
        cov = r["claim_coverage"]
        out.append(f"Claims whose verdict changes between runs: {r['claims_changing']} of {r['claims_measured']}. "
                   f"Runs whose interval holds the runs' median figure: {cov['covered']} of {cov['runs']} "
                   f"({percent(cov['share'])}; target {percent(COVERAGE_TARGET)} for every claim). "
                   f"Case medians: {percent(share(r['case_median_coverage']['covered'], r['case_median_coverage']['runs']))}; "
                   f"predicted ratios: {percent(share(r['ratio_coverage']['covered'], r['ratio_coverage']['runs']))}.")
        if r["coverage_misses_by_run"]:
            out.append("Runs whose interval misses the runs' median, with the claims: " + "; ".join(
                f"{label} ({', '.join(claims)})" for label, claims in sorted(r["coverage_misses_by_run"].items()))
                + ".")
        if r["small_n_range_median"] is not None:
            target = SMALL_N_RANGE_TARGET.get(r["mode"])
            out.append(f"Small-n run-to-run range of case figures (n <= 2^16), median over "
                       f"{len(r['small_n_range'])} cases: {percent(r['small_n_range_median'])}"
                       + (f" (target {percent(target)})." if target is not None else " (reported).")
                       + ("" if r["small_n_range_context_geometric_mean_median"] is None else
                          f" With every case's figure the geometric mean of its contexts' medians (schema "
                          f"1.10.0's): {percent(r['small_n_range_context_geometric_mean_median'])}."))
        pc = r["process_component"]
        if pc:
            k = "-" if pc["k_median"] is None else f"{pc['k_median']:.2f} (largest {pc['k_largest']:.2f})"
            out.append(f"Process component at n <= 2^16, median over {len(pc['cases'])} cases: T_context "
                       f"{percent(pc['t_context_median'])}, T_process {percent(pc['t_process_median'])}, "
                       f"k = T_process / T_context {k}; the runs' recorded process allowance: "
                       f"{', '.join(format(a, 'g') for a in pc['recorded_allowances'])}. "
                       f"The model's range of 10 runs' figures, {RANGE_OF_10_RUNS} x sqrt(T2_process + "
                       f"T2_context / C), median over the cases: "
                       + ", ".join(f"{percent(v)} at C = {c}" for c, v in pc["model_range_by_contexts"].items())
                       + "."
                       + ("" if pc["t_shared_context"] is None else
                          f" The part of a context's offset its small cases share (the mean of their "
                          f"deviations in it): {percent(pc['t_shared_context'])}, against T_context "
                          f"{percent(pc['t_context_median'])}.")
                       + ("" if pc["shared_offset_followers"] is None else
                          f" Cases above 2^16 follow it context by context with a median correlation of "
                          f"{pc['shared_offset_followers']['median_correlation']:.2f} over "
                          f"{pc['shared_offset_followers']['cases']} cases; most closely "
                          + "; ".join(f"{f['case']} at {f['elements']} (r {f['correlation']:.2f}, slope "
                                      f"{f['slope']:.2f}, its contexts' sd {percent(f['sd'])})"
                                      for f in pc["shared_offset_followers"]["most"]) + "."))
        contexts = r["contexts_per_case"]
        if contexts["small"] is not None or contexts["large"] is not None:
            count = {side: "-" if v is None else format(v, "g") for side, v in contexts.items()}
            out.append(f"CUDA contexts per case, median: n <= 2^16 {count['small']}, larger {count['large']}.")
        if r["wall_seconds"]:
            w = r["wall_seconds"]
            limit = (f"; target {w['target']:.2f} s (1.5 x {w['today']:.2f}, {w['today_source']})"
                     if w["target"] is not None else "")
            out.append(f"Wall seconds per run ({w['source']}): median {w['median']:.2f} "
                       f"({w['min']:.2f} to {w['max']:.2f}){limit}.")
        out += ["", "| claim | runs | held | failed | inconclusive | flip | off most common | coverage | pairwise |",
                "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
        for f in r["claims"]:
            c = cov["per_claim"].get(f["claim"], {})
            held = f"{c['covered']}/{c['runs']}" if c.get("runs") else "-"
            out.append(f"| {f['claim']} | {f['runs']} | {f['held']} | {f['failed']} | {f['inconclusive']} | "
                       f"{'FLIP' if f['flip'] else 'no'} | {f['off_most_common']} | {held} | "
                       f"{percent(c.get('pairwise'))} |")
        if r["claim_spread"]:
            out += ["", "| claim | runs' figures, sd | interval half width, median (least to largest) | "
                        "half width / (1.96 sd) | median figure to nearest bound end, in sd |",
                    "| --- | ---: | ---: | ---: | ---: |"]
            for c in r["claim_spread"]:
                ratio = "-" if c["width_over_spread"] is None else f"{c['width_over_spread']:.2f}"
                distance = "-" if c["bound_distance_sd"] is None else f"{c['bound_distance_sd']:.1f}"
                out.append(f"| {c['claim']} | {percent(c['figure_sd'])} | {percent(c['half_width_median'])} "
                           f"({percent(c['half_width_min'])} to {percent(c['half_width_max'])}) | {ratio} | "
                           f"{distance} |")
        if r["small_n_range"]:
            out += ["", "| small-n case | n | run-to-run range |", "| --- | ---: | ---: |"]
            for s in r["small_n_range"]:
                out.append(f"| {s['case']} | {s['elements']} | {percent(s['range'])} |")
        out += ["", "Targets missed: " + ("; ".join(r["targets_missed"]) if r["targets_missed"] else "none"), ""]
    out += ["## Summary", "",
            "| lab, mode | runs | verdict changes | flips | coverage | worst claim coverage | most runs off | "
            "small-n range | small-n T_process (k) | s per run | targets |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in results:
        per_claim = [c for c in r["claim_coverage"]["per_claim"].values() if c["runs"]]
        worst = min(per_claim, key=lambda c: c["share"]) if per_claim else None
        off = max((f["off_most_common"] for f in r["claims"]), default=0)
        w = r["wall_seconds"]
        out.append(f"| {r['lab']}, {r['mode']} | {r['runs']} | {r['claims_changing']} of {r['claims_measured']} | "
                   f"{sum(1 for f in r['claims'] if f['flip'])} | {percent(r['claim_coverage']['share'])} | "
                   f"{'-' if worst is None else str(worst['covered']) + '/' + str(worst['runs'])} | {off} | "
                   f"{percent(r['small_n_range_median'])} | {process_text(r['process_component'])} | "
                   f"{'-' if not w else format(w['median'], '.2f')} | "
                   f"{'met' if not r['targets_missed'] else str(len(r['targets_missed'])) + ' missed'} |")
    out += targets_table(results)
    return "\n".join(out) + "\n"


def misses_coverage_by_chance(runs, coverage=NOMINAL_COVERAGE):
    """The probability that a claim whose every interval holds the truth with probability `coverage`,
    independently in each of `runs` runs, holds it in fewer runs than the coverage target asks."""
    need = math.ceil(COVERAGE_TARGET * runs - 1e-9)
    return sum(math.comb(runs, k) * coverage ** k * (1 - coverage) ** (runs - k) for k in range(need))


def coverage_by_chance(results):
    """What the per-claim coverage target asks of exact 95% intervals over these claims: the claims
    with an interval, how many of them would miss it by chance alone on average, and the probability
    that none would (the runs' median standing in for the truth, and runs taken as independent)."""
    runs = [c["runs"] for r in results for c in r["claim_coverage"]["per_claim"].values() if c["runs"]]
    misses = [misses_coverage_by_chance(n) for n in runs]
    return {"claims": len(runs), "expected_misses": sum(misses), "missed": sum(
                1 for r in results for c in r["claim_coverage"]["per_claim"].values() if c["runs"] and not c["met"]),
            "all_met_probability": math.prod(1 - m for m in misses)}


def targets_table(results):
    """The targets' table, last: a row per claim measured (coverage, runs off its most common verdict),
    then a row per group (flips, the small-n range, wall seconds), each against its target."""
    out = ["", "## Targets", "",
           "| lab, mode | claim | coverage (target 90%) | off most common (at most 10%) | flip | met |",
           "| --- | --- | ---: | ---: | --- | --- |"]
    for r in results:
        for f in r["claims"]:
            if f["runs"] == 0:
                continue
            c = r["claim_coverage"]["per_claim"].get(f["claim"], {})
            coverage = f"{c['covered']}/{c['runs']}" if c.get("runs") else "-"
            met = f["stable"] and not f["flip"] and c.get("met", True)
            out.append(f"| {r['lab']}, {r['mode']} | {f['claim']} | {coverage} | {f['off_most_common']}/{f['runs']} | "
                       f"{'FLIP' if f['flip'] else 'no'} | {'met' if met else 'MISSED'} |")
    chance = coverage_by_chance(results)
    if chance["claims"]:
        out += ["", f"Coverage by chance alone: were every interval an exact 95% one, {chance['expected_misses']:.1f} "
                    f"of these {chance['claims']} claims would hold the runs' median in fewer runs than the target "
                    f"asks, on average, and all {chance['claims']} would meet it with probability "
                    f"{percent(chance['all_met_probability'])}; {chance['missed']} missed it here."]
    out += ["", "| lab, mode | runs | flips | small-n range (target) | s per run (limit) | targets |",
            "| --- | ---: | ---: | ---: | ---: | --- |"]
    for r in results:
        target = SMALL_N_RANGE_TARGET.get(r["mode"])
        small = percent(r["small_n_range_median"]) + (f" ({percent(target)})" if target is not None else " (reported)")
        w = r["wall_seconds"]
        wall = "-" if not w else f"{w['median']:.2f}" + (f" ({w['target']:.2f})" if w["target"] is not None else "")
        out.append(f"| {r['lab']}, {r['mode']} | {r['runs']} | {sum(1 for f in r['claims'] if f['flip'])} | {small} | "
                   f"{wall} | {'met' if not r['targets_missed'] else str(len(r['targets_missed'])) + ' missed'} |")
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+",
                        help="transcripts (.json, or gzip-compressed .json.gz), or folders of them")
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    parser.add_argument("--check", action="store_true", help="exit 3 when a target is missed")
    parser.add_argument("--today-from", action="append", metavar="DIR",
                        help="runs of the code the issue measured today's figures with, on this card, each"
                             " with its process_wall_seconds beside it: the wall target is 1.5 x their"
                             " median, group by group (a group they leave out has no wall target), instead"
                             " of the issue's H200 figures")
    args = parser.parse_args(argv)
    today_measured = None
    if args.today_from:
        today_measured = measured_today(args.today_from)
        if not today_measured:
            print("verdict-stability: no run with its process wall seconds under --today-from", file=sys.stderr)
            return 1
    runs = read_runs(args.paths)
    if not runs:
        print("verdict-stability: no transcript among the paths", file=sys.stderr)
        return 1
    groups = {}
    for run in runs:
        groups.setdefault((run["lab"], run["mode"]), []).append(run)
    results = [analyse(group, members, today_measured) for group, members in sorted(groups.items())]
    print(markdown(results), end="")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
            handle.write("\n")
    return 3 if args.check and any(r["targets_missed"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
