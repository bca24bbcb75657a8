#!/usr/bin/env python3
"""Two sets of benchmark runs side by side, claim by claim: what verdict-stability.py wrote as --json for
runs at the defaults (BASELINE) and for runs of an experiment (CANDIDATE), for the (lab, mode) groups
both measured.

    compare-stability.py BASELINE.json CANDIDATE.json [--names BASE,CAND]

Per claim: its verdicts (held / failed / inconclusive), the runs off its most common verdict, whether
it flipped (held in one run, failed in another), how many runs' intervals held the runs' median, and
its interval's median half width; then per group the wall seconds per run (median) and the small-n
range. A row says "better", "worse" or "same" for stability (runs off the most common verdict, a flip
counting as worse than any count) and for coverage, so that an experiment that steadies one claim and
unsettles another shows both. Nothing is averaged over claims: a claim's verdict is what a student
reads, and each one counts on its own.

Exit status: 0; 1 a file could not be read or the two share no group; 2 usage.
"""

import argparse
import json
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as handle:
            results = json.load(handle)
    except (OSError, ValueError) as error:
        raise SystemExit(f"compare-stability: cannot read {path}: {error}") from None
    if not isinstance(results, list):
        raise SystemExit(f"compare-stability: {path} is not verdict-stability.py's --json (a list of groups)")
    return {(r["lab"], r["mode"]): r for r in results}


def claim_figures(group):
    """Per claim id: its verdict counts, stability, coverage and half width, from one group's results."""
    coverage = group.get("claim_coverage", {}).get("per_claim", {})
    spread = {s["claim"]: s for s in group.get("claim_spread", [])}
    figures = {}
    for claim in group.get("claims", []):
        if not claim.get("runs"):
            continue
        c = coverage.get(claim["claim"], {})
        s = spread.get(claim["claim"], {})
        figures[claim["claim"]] = {
            "runs": claim["runs"],
            "held": claim["held"], "failed": claim["failed"], "inconclusive": claim["inconclusive"],
            "off": claim["off_most_common"], "flip": bool(claim["flip"]), "most_common": claim.get("most_common"),
            "covered": c.get("covered"), "coverage_runs": c.get("runs"),
            "half_width": s.get("half_width_median"),
        }
    return figures


def verdicts_text(f):
    text = f"{f['held']}/{f['failed']}/{f['inconclusive']}, {f['off']} off"
    return text + (", FLIP" if f["flip"] else "")


def coverage_text(f):
    return f"{f['covered']}/{f['coverage_runs']}" if f.get("coverage_runs") else "-"


def width_text(f):
    return "-" if f.get("half_width") is None else f"{f['half_width'] * 100:.2f}%"


def stability_rank(f):
    """Lower is steadier: a flip is worse than any count of runs off the most common verdict."""
    return (1 if f["flip"] else 0, f["off"] / f["runs"])


def coverage_share(f):
    return None if not f.get("coverage_runs") else f["covered"] / f["coverage_runs"]


def compare(a, b, better_when_lower):
    if a is None or b is None:
        return "-"
    if a == b:
        return "same"
    return "better" if (b < a) == better_when_lower else "worse"


def markdown(baseline, candidate, names):
    base_name, cand_name = names
    shared = sorted(set(baseline) & set(candidate))
    out = [f"# {cand_name} against {base_name}, claim by claim", "",
           f"Verdicts are held/failed/inconclusive over the runs; \"off\": runs off the claim's most common "
           f"verdict. Stability and coverage say how {cand_name} compares with {base_name}, and stability names a "
           f"most common verdict that moved.", "",
           f"| lab, mode | claim | {base_name}: verdicts | {cand_name}: verdicts | stability | "
           f"{base_name}: coverage | {cand_name}: coverage | coverage | {base_name}: half width | "
           f"{cand_name}: half width |",
           "| --- | --- | --- | --- | --- | ---: | ---: | --- | ---: | ---: |"]
    for key in shared:
        base, cand = claim_figures(baseline[key]), claim_figures(candidate[key])
        for claim in sorted(set(base) | set(cand)):
            b, c = base.get(claim), cand.get(claim)
            if b is None or c is None:
                only = base_name if c is None else cand_name
                out.append(f"| {key[0]}, {key[1]} | {claim} | measured in {only} only | | | | | | | |")
                continue
            stability = compare(stability_rank(b), stability_rank(c), True)
            if b["most_common"] != c["most_common"]:
                stability += f"; mostly {b['most_common']}, now {c['most_common']}"
            out.append(
                f"| {key[0]}, {key[1]} | {claim} | {verdicts_text(b)} | {verdicts_text(c)} | "
                f"{stability} | {coverage_text(b)} | {coverage_text(c)} | "
                f"{compare(coverage_share(b), coverage_share(c), False)} | {width_text(b)} | {width_text(c)} |")
    out += ["", f"| lab, mode | {base_name}: s per run (median) | {cand_name}: s per run (median) | limit | "
                f"{base_name}: small-n range | {cand_name}: small-n range |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for key in shared:
        walls = [(baseline[key].get("wall_seconds") or {}), (candidate[key].get("wall_seconds") or {})]
        wall = ["-" if w.get("median") is None else f"{w['median']:.2f}" for w in walls]
        limit = next((f"{w['target']:.2f}" for w in walls if w.get("target") is not None), "-")
        ranges = ["-" if g.get("small_n_range_median") is None else f"{g['small_n_range_median'] * 100:.1f}%"
                  for g in (baseline[key], candidate[key])]
        out.append(f"| {key[0]}, {key[1]} | {wall[0]} | {wall[1]} | {limit} | {ranges[0]} | {ranges[1]} |")
    return "\n".join(out) + "\n", len(shared)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("baseline", help="verdict-stability.py --json of the runs at the defaults")
    parser.add_argument("candidate", help="verdict-stability.py --json of the experiment's runs")
    parser.add_argument("--names", default="default,experiment",
                        help="the two columns' names, comma separated (default: default,experiment)")
    args = parser.parse_args(argv)
    names = args.names.split(",")
    if len(names) != 2 or not all(names):
        parser.error("--names takes two names, comma separated")
    text, shared = markdown(load(args.baseline), load(args.candidate), names)
    if shared == 0:
        print("compare-stability: the two files share no (lab, mode) group", file=sys.stderr)
        return 1
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
