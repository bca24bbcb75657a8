#!/usr/bin/env python3
"""Checks scripts/diagnostics/compare-stability.py on synthetic verdict-stability.py --json files (built
here, never measured; only the fields the script reads): a claim that steadies reads "better", one that
flips reads "worse" whatever its count, a most common verdict that moves is named, coverage is compared
as a share, a claim measured on one side only says so, the wall and small-n rows come from each side,
groups only one side measured are left out, and unreadable or disjoint inputs exit 1.

  compare_stability_test.py SCRIPT
"""

import json
import os
import subprocess
import sys
import tempfile


def claim(name, held, failed, inconclusive, off, flip=False):
    counts = {"held": held, "failed": failed, "inconclusive": inconclusive}
    return {"claim": name, "runs": held + failed + inconclusive, **counts, "off_most_common": off,
            "flip": flip, "most_common": max(counts, key=counts.get)}


def group(mode, claims, coverage, widths, wall, small_n):
    return {"lab": "lab", "mode": mode, "claims": claims,
            "claim_coverage": {"per_claim": {c: {"covered": k, "runs": n} for c, (k, n) in coverage.items()}},
            "claim_spread": [{"claim": c, "half_width_median": w} for c, w in widths.items()],
            "wall_seconds": {"median": wall, "target": 11.55}, "small_n_range_median": small_n}


BASELINE = [
    group("cold", [claim("steadied", 0, 7, 3, 3), claim("unsettled", 0, 8, 2, 2), claim("moved", 0, 0, 10, 0),
                   claim("base-only", 10, 0, 0, 0)],
          {"steadied": (9, 10), "unsettled": (10, 10), "moved": (10, 10), "base-only": (10, 10)},
          {"steadied": 0.008, "unsettled": 0.003, "moved": 0.002}, 8.9, 0.027),
    group("hot", [claim("hot-claim", 10, 0, 0, 0)], {"hot-claim": (10, 10)}, {"hot-claim": 0.01}, 7.3, 0.15),
]
CANDIDATE = [
    group("cold", [claim("steadied", 0, 10, 0, 0), claim("unsettled", 1, 9, 0, 1, flip=True),
                   claim("moved", 0, 9, 1, 1), claim("cand-only", 0, 10, 0, 0)],
          {"steadied": (10, 10), "unsettled": (8, 10), "moved": (10, 10), "cand-only": (10, 10)},
          {"steadied": 0.005, "unsettled": 0.002, "moved": 0.001}, 9.6, 0.021),
    group("hot-gated", [claim("gated", 10, 0, 0, 0)], {"gated": (10, 10)}, {"gated": 0.01}, 8.8, 0.02),
]


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, check=False)


def row(text, name):
    rows = [line for line in text.splitlines() if f"| {name} |" in line]
    assert len(rows) == 1, (name, rows)
    return [cell.strip() for cell in rows[0].strip("|").split("|")]


def main(script):
    with tempfile.TemporaryDirectory() as scratch:
        paths = []
        for name, results in (("base.json", BASELINE), ("cand.json", CANDIDATE)):
            paths.append(os.path.join(scratch, name))
            with open(paths[-1], "w", encoding="utf-8") as handle:
                json.dump(results, handle)
        done = run(script, *paths, "--names", "default,lesson")
        assert done.returncode == 0, done.stderr
        out = done.stdout
        steadied = row(out, "steadied")
        assert steadied[2:5] == ["0/7/3, 3 off", "0/10/0, 0 off", "better"], steadied
        assert steadied[5:8] == ["9/10", "10/10", "better"], steadied
        assert steadied[8:] == ["0.80%", "0.50%"], steadied
        unsettled = row(out, "unsettled")
        # Fewer runs off than before (1 against 2), but a flip: worse.
        assert unsettled[3] == "1/9/0, 1 off, FLIP" and unsettled[4] == "worse", unsettled
        assert unsettled[7] == "worse", unsettled
        moved = row(out, "moved")
        assert moved[4] == "worse; mostly inconclusive, now failed", moved
        assert "measured in default only" in row(out, "base-only")[2]
        assert "measured in lesson only" in row(out, "cand-only")[2]
        walls = [line for line in out.splitlines() if line.startswith("| lab, cold | 8.90")]
        assert len(walls) == 1, out
        wall = [cell.strip() for cell in walls[0].strip("|").split("|")]
        assert wall[1:] == ["8.90", "9.60", "11.55", "2.7%", "2.1%"], wall
        # The groups one side alone measured (hot, hot-gated) are left out.
        assert "lab, hot |" not in out and "lab, hot-gated" not in out, out
        assert "default: verdicts" in out and "lesson: verdicts" in out

        disjoint = os.path.join(scratch, "disjoint.json")
        with open(disjoint, "w", encoding="utf-8") as handle:
            json.dump([CANDIDATE[1]], handle)
        assert run(script, paths[0], disjoint).returncode == 1
        assert run(script, paths[0], os.path.join(scratch, "missing.json")).returncode == 1
        assert run(script, paths[0], paths[1], "--names", "one").returncode == 2
    print("compare-stability.py: steadier, flipped, moved and one-sided claims and the wall rows as built")


if __name__ == "__main__":
    main(sys.argv[1])
