#!/usr/bin/env python3
"""Verdict stability and interval coverage over N back-to-back runs of a lab (issue 22's targets).

Given the transcripts of N runs (files, or folders searched for *.json; traces, comparisons and
other JSON that is not a transcript are passed by), grouped by lab and timing mode, it reports:

- verdict stability: per claim, the verdicts over the runs. A claim held in one run and failed in
  another is a flip (target: none). A claim inconclusive in some runs and definite (held or failed)
  in others switches; the runs on the smaller side, over the runs, is its switch rate (target: at
  most 1 in 10).
- interval coverage: for every claim and every run whose transcript gives the claim's figure a 95%
  interval (schema 1.6.0, two rounds or more), the share of the other runs' figures that interval
  covers, over all claims and runs of the group (target: at least 85%). The same is reported, as a
  diagnostic, for each case's median and each predicted ratio.
- small-n spread: the run-to-run spread, (max - min) / median over the runs, of the reported medians
  of day 48's part 1 and of part 3 at n <= 2^16 (targets: 1% in hot-gated mode, 2% in hot and cold),
  with the coefficient of variation beside it.
- cost: the runs' wall seconds (run.wall_seconds), median and range.

  verdict-stability.py [--json FILE] [--check] TRANSCRIPT_OR_DIR...

Prints a Markdown report. Exit status: 0 (with --check: every target met); 1 a file could not be
read; 2 usage; 3 with --check, a target missed (the report says which).
"""

import argparse
import json
import math
import os
import statistics
import sys

COVERAGE_TARGET = 0.85
SWITCH_RATE_TARGET = 0.10
SMALL_N_MAX = 1 << 16
SMALL_N_SPREAD_TARGET = {"hot-gated": 0.01, "hot": 0.02, "cold": 0.02}


def number(value):
    """A transcript number: JSON has no NaN or infinity, so they are written as strings."""
    if isinstance(value, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(value)
    return value


def interval(value):
    if not isinstance(value, dict):
        return None
    low, high = number(value.get("low")), number(value.get("high"))
    return None if low is None or high is None else (low, high)


def transcript_files(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in names if n.endswith(".json")]
        else:
            files.append(path)
    return sorted(f for f in files if not f.endswith(".trace.json"))


def read_runs(paths):
    runs = []
    for f in transcript_files(paths):
        try:
            with open(f, encoding="utf-8") as handle:
                t = json.load(handle)
        except (OSError, ValueError) as error:
            raise SystemExit(f"verdict-stability: {f}: {error}") from None
        if not isinstance(t, dict) or "schema_version" not in t or "cases" not in t:
            continue  # a comparison, a grade report, an aggregate
        if (t.get("run") or {}).get("configuration") == "smoke":
            continue
        mode = (t.get("timing") or {}).get("mode", "hot")
        runs.append({"file": f, "lab": t["lab"]["name"], "mode": mode, "transcript": t})
    return runs


def claim_rows(runs):
    """Per claim id: one (verdict, measured, interval) per run, in the runs' order."""
    rows = {}
    for index, run in enumerate(runs):
        for claim in run["transcript"].get("claims", []):
            rows.setdefault(claim["id"], [None] * len(runs))[index] = (
                claim["verdict"], number(claim.get("measured")), interval(claim.get("measured_interval")))
    return rows


def stability(rows, runs):
    findings = []
    for claim_id, per_run in rows.items():
        verdicts = [v[0] for v in per_run if v is not None and v[0] != "not measured"]
        held, failed = verdicts.count("held"), verdicts.count("failed")
        inconclusive = verdicts.count("inconclusive")
        definite = held + failed
        switch_rate = min(inconclusive, definite) / len(verdicts) if verdicts else 0.0
        findings.append({"claim": claim_id, "runs": len(verdicts), "held": held, "failed": failed,
                         "inconclusive": inconclusive, "flip": held > 0 and failed > 0,
                         "switch_rate": switch_rate, "switches_ok": switch_rate <= SWITCH_RATE_TARGET})
    return findings


def coverage_of(figures):
    """figures: per run (value, interval or None). Pairs (run i's interval, run j's value), j != i."""
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


def claim_coverage(rows):
    per_claim = {}
    for claim_id, per_run in rows.items():
        figures = [(v[1], v[2]) if v is not None else (None, None) for v in per_run]
        per_claim[claim_id] = coverage_of(figures)
    return per_claim


def case_figures(runs):
    """Per (case, n): per run (median, its interval); per (prediction, n): per run (ratio, interval)."""
    cases, ratios = {}, {}
    for index, run in enumerate(runs):
        for c in run["transcript"]["cases"]:
            summary = c.get("summary") or {}
            key = (c["name"], c["elements"])
            cases.setdefault(key, [(None, None)] * len(runs))[index] = (
                number(summary.get("median_ms")), interval(c.get("median_interval_ms")))
        for p in run["transcript"].get("predictions", []):
            for m in p.get("measured", []):
                key = (p["description"], m["elements"])
                ratios.setdefault(key, [(None, None)] * len(runs))[index] = (
                    number(m["ratio"]), interval(m.get("interval")))
    return cases, ratios


def small_n_spread(runs):
    """day 48 part 1, and part 3 at n <= 2^16: (max - min) / median and CV of the runs' medians."""
    medians = {}
    for run in runs:
        for c in run["transcript"]["cases"]:
            part = c["name"].split("/")[1] if c["name"].count("/") == 2 else ""
            if part == "part1" or (part == "part3" and c["elements"] <= SMALL_N_MAX):
                value = number((c.get("summary") or {}).get("median_ms"))
                if value is not None and value > 0:
                    medians.setdefault((c["name"], c["elements"]), []).append(value)
    spreads = {}
    for key, values in medians.items():
        if len(values) < 2:
            continue
        middle = statistics.median(values)
        spreads[key] = ((max(values) - min(values)) / middle, statistics.stdev(values) / statistics.mean(values))
    return spreads


def share(covered, total):
    return covered / total if total else None


def percent(value):
    return "-" if value is None else f"{100 * value:.1f}%"


def analyse(group, runs):
    rows = claim_rows(runs)
    found = stability(rows, runs)
    per_claim = claim_coverage(rows)
    covered = sum(c for c, _ in per_claim.values())
    total = sum(t for _, t in per_claim.values())
    cases, ratios = case_figures(runs)
    case_cov = [coverage_of(v) for v in cases.values()]
    ratio_cov = [coverage_of(v) for v in ratios.values()]
    spreads = small_n_spread(runs)
    walls = [number(r["transcript"].get("run", {}).get("wall_seconds")) for r in runs]
    walls = [w for w in walls if w is not None]
    spread_target = SMALL_N_SPREAD_TARGET.get(group[1])
    result = {
        "lab": group[0], "mode": group[1], "runs": len(runs), "files": [r["file"] for r in runs],
        "claims": found,
        "claim_coverage": {"covered": covered, "pairs": total, "share": share(covered, total),
                           "per_claim": {k: {"covered": c, "pairs": t, "share": share(c, t)}
                                         for k, (c, t) in per_claim.items()}},
        "case_median_coverage": {"covered": sum(c for c, _ in case_cov), "pairs": sum(t for _, t in case_cov)},
        "ratio_coverage": {"covered": sum(c for c, _ in ratio_cov), "pairs": sum(t for _, t in ratio_cov)},
        "small_n_spread": [{"case": k[0], "elements": k[1], "spread": s, "cv": cv}
                           for k, (s, cv) in sorted(spreads.items())],
        "wall_seconds": {"median": statistics.median(walls), "min": min(walls), "max": max(walls)} if walls else None,
    }
    misses = []
    misses += [f"{f['claim']}: held in {f['held']} runs and failed in {f['failed']}" for f in found if f["flip"]]
    misses += [f"{f['claim']}: inconclusive in {f['inconclusive']} runs and definite in "
               f"{f['held'] + f['failed']} ({percent(f['switch_rate'])} switch)" for f in found if not f["switches_ok"]]
    if total == 0:
        misses.append("no claim carries an interval (transcripts older than schema 1.6.0, or one round)")
    elif covered / total < COVERAGE_TARGET:
        misses.append(f"interval coverage {percent(covered / total)} < {percent(COVERAGE_TARGET)}")
    if spread_target is not None:
        misses += [f"small-n spread of {k[0]} n={k[1]}: {percent(s)} > {percent(spread_target)}"
                   for k, (s, _) in sorted(spreads.items()) if s > spread_target]
    result["targets_missed"] = misses
    return result


def markdown(results):
    out = ["# Verdict stability and interval coverage", ""]
    for r in results:
        out += [f"## {r['lab']}, {r['mode']}: {r['runs']} runs", ""]
        cov = r["claim_coverage"]
        out.append(f"Claim interval coverage: {cov['covered']} of {cov['pairs']} other runs' figures "
                   f"({percent(cov['share'])}; target {percent(COVERAGE_TARGET)}). Case medians: "
                   f"{percent(share(r['case_median_coverage']['covered'], r['case_median_coverage']['pairs']))}; "
                   f"predicted ratios: {percent(share(r['ratio_coverage']['covered'], r['ratio_coverage']['pairs']))}.")
        if r["wall_seconds"]:
            w = r["wall_seconds"]
            out.append(f"Wall seconds per run: median {w['median']:.2f} ({w['min']:.2f} to {w['max']:.2f}).")
        out += ["", "| claim | runs | held | failed | inconclusive | flip | switch rate | coverage |",
                "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
        for f in r["claims"]:
            c = cov["per_claim"].get(f["claim"], {})
            out.append(f"| {f['claim']} | {f['runs']} | {f['held']} | {f['failed']} | {f['inconclusive']} | "
                       f"{'FLIP' if f['flip'] else 'no'} | {percent(f['switch_rate'])} | {percent(c.get('share'))} |")
        if r["small_n_spread"]:
            out += ["", "| small-n case | n | spread (max - min) / median | CV |", "| --- | ---: | ---: | ---: |"]
            for s in r["small_n_spread"]:
                out.append(f"| {s['case']} | {s['elements']} | {percent(s['spread'])} | {percent(s['cv'])} |")
        out += ["", "Targets missed: " + ("; ".join(r["targets_missed"]) if r["targets_missed"] else "none"), ""]
    return "\n".join(out)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", help="transcripts, or folders of them")
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    parser.add_argument("--check", action="store_true", help="exit 3 when a target is missed")
    args = parser.parse_args(argv)
    runs = read_runs(args.paths)
    if not runs:
        print("verdict-stability: no transcript among the paths", file=sys.stderr)
        return 1
    groups = {}
    for run in runs:
        groups.setdefault((run["lab"], run["mode"]), []).append(run)
    results = [analyse(group, members) for group, members in sorted(groups.items())]
    print(markdown(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
            handle.write("\n")
    return 3 if args.check and any(r["targets_missed"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
