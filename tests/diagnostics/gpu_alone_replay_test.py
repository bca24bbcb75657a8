#!/usr/bin/env python3
"""Checks scripts/diagnostics/gpu-alone-replay.py on synthetic transcripts (provenance "synthetic",
built here, never measured; only the fields the script reads): a hot claim held inside its bound whose
hot-gated reading fails becomes inconclusive, one whose hot-gated reading agrees stays held, an
inconclusive one stays inconclusive, one its noise left inconclusive rests on a hot-gated reading judged
by its interval, and folders of unequal runs are refused.

  gpu_alone_replay_test.py SCRIPT
"""

import json
import os
import subprocess
import sys
import tempfile

BOUND = {"low": 2.7, "high": 3.3}


def claim(claim_id, verdict, low, high, basis="interval"):
    return {"id": claim_id, "verdict": verdict, "verdict_basis": basis, "bound": BOUND,
            "measured_interval": {"low": low, "high": high}}


def write(folder, run, claims):
    os.makedirs(os.path.join(folder, f"run-{run}"))
    with open(os.path.join(folder, f"run-{run}", "t.json"), "w", encoding="utf-8") as f:
        json.dump({"provenance": {"kind": "synthetic"}, "claims": claims}, f)


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        hot, gated = os.path.join(root, "hot"), os.path.join(root, "gated")
        for run in (1, 2):
            write(hot, run, [claim("decided-by-the-host", "held", 3.22, 3.29),
                             claim("agrees", "held", 2.9, 3.0),
                             claim("on-the-bound", "inconclusive", 3.25, 3.35),
                             claim("noisy", "inconclusive", 3.4, 3.9, "noise")])
            write(gated, run, [claim("decided-by-the-host", "failed", 3.44, 3.47),
                               claim("agrees", "held", 2.95, 3.05),
                               claim("on-the-bound", "held", 3.0, 3.1),
                               claim("noisy", "failed", 3.49, 3.51)])
        ids = ["--claim", "decided-by-the-host", "--claim", "agrees", "--claim", "on-the-bound", "--claim", "noisy"]
        out = subprocess.run([sys.executable, script, hot, gated] + ids, capture_output=True, text=True, check=True)
        rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:4]]
                for line in out.stdout.splitlines() if line.startswith("| ") and "claim" not in line}
        assert rows["decided-by-the-host"] == ["held 2", "inconclusive 2"], rows
        assert rows["agrees"] == ["held 2", "held 2"], rows
        assert rows["on-the-bound"] == ["inconclusive 2", "inconclusive 2"], rows
        assert rows["noisy"] == ["inconclusive 2", "failed 2"], rows
        write(gated, 3, [])
        refused = subprocess.run([sys.executable, script, hot, gated], capture_output=True, text=True)
        assert refused.returncode == 2, refused
    print("gpu-alone-replay: ok")


if __name__ == "__main__":
    main()
