#!/usr/bin/env python3
"""Checks scripts/diagnostics/gpu-alone-replay.py on synthetic transcripts (provenance "synthetic",
built here, never measured; only the fields the script reads): a hot claim held inside its bound whose
hot-gated reading fails becomes inconclusive, one whose hot-gated reading agrees stays held, an
inconclusive one stays inconclusive, one its noise left inconclusive rests on a hot-gated reading judged
by its interval, and folders of unequal runs are refused. Gzip-compressed transcripts (NAME.json.gz) are
read as the plain ones, Chrome traces in either form are left out, and gzip data that is damaged or
decompresses to more than 64 MiB is refused, naming the file.

  gpu_alone_replay_test.py SCRIPT
"""

import gzip
import json
import os
import subprocess
import sys
import tempfile
import zlib

BOUND = {"low": 2.7, "high": 3.3}


def claim(claim_id, verdict, low, high, basis="interval"):
    return {"id": claim_id, "verdict": verdict, "verdict_basis": basis, "bound": BOUND,
            "measured_interval": {"low": low, "high": high}}


def write(folder, run, claims, compressed=False):
    """Run `run`'s transcript, plain (t.json) or as committed compressed (t.json.gz: one gzip member,
    level 9, mtime 0)."""
    os.makedirs(os.path.join(folder, f"run-{run}"))
    text = json.dumps({"provenance": {"kind": "synthetic"}, "claims": claims})
    if compressed:
        with open(os.path.join(folder, f"run-{run}", "t.json.gz"), "wb") as f:
            f.write(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    else:
        with open(os.path.join(folder, f"run-{run}", "t.json"), "w", encoding="utf-8") as f:
            f.write(text)


def bomb(size):
    """A small gzip member of `size` zero bytes (about 65 KiB for 64 MiB), compressed a MiB at a time."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts, left = [], size
    while left:
        step = min(left, 1 << 20)
        parts.append(compressor.compress(bytes(step)))
        left -= step
    return b"".join(parts) + compressor.flush()


def main():
    script = sys.argv[1]
    ids = ["--claim", "decided-by-the-host", "--claim", "agrees", "--claim", "on-the-bound", "--claim", "noisy"]
    # Plain runs; runs all compressed; and compressed hot runs beside plain hot-gated ones.
    for hot_compressed, gated_compressed in ((False, False), (True, True), (True, False)):
        with tempfile.TemporaryDirectory() as root:
            hot, gated = os.path.join(root, "hot"), os.path.join(root, "gated")
            for run in (1, 2):
                write(hot, run, [claim("decided-by-the-host", "held", 3.22, 3.29),
                                 claim("agrees", "held", 2.9, 3.0),
                                 claim("on-the-bound", "inconclusive", 3.25, 3.35),
                                 claim("noisy", "inconclusive", 3.4, 3.9, "noise")], hot_compressed)
                write(gated, run, [claim("decided-by-the-host", "failed", 3.44, 3.47),
                                   claim("agrees", "held", 2.95, 3.05),
                                   claim("on-the-bound", "held", 3.0, 3.1),
                                   claim("noisy", "failed", 3.49, 3.51)], gated_compressed)
            # Chrome traces in either form are left out: counted, they would make the folders unequal.
            for name in ("t.trace.json", "t.trace.json.gz"):
                with open(os.path.join(hot, "run-1", name), "wb") as f:
                    f.write(gzip.compress(b'{"traceEvents": []}', mtime=0) if name.endswith(".gz") else b"{}")
            out = subprocess.run([sys.executable, script, hot, gated] + ids, capture_output=True, text=True, check=True)
            rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:4]]
                    for line in out.stdout.splitlines() if line.startswith("| ") and "claim" not in line}
            assert out.stdout.startswith("2 hot runs"), out.stdout
            assert rows["decided-by-the-host"] == ["held 2", "inconclusive 2"], rows
            assert rows["agrees"] == ["held 2", "held 2"], rows
            assert rows["on-the-bound"] == ["inconclusive 2", "inconclusive 2"], rows
            assert rows["noisy"] == ["inconclusive 2", "failed 2"], rows
            write(gated, 3, [], gated_compressed)
            refused = subprocess.run([sys.executable, script, hot, gated], capture_output=True, text=True)
            assert refused.returncode == 2, refused
            if not (hot_compressed and gated_compressed):
                continue
            # A third hot run beside the third hot-gated one, damaged (cut short), then a gzip bomb: more
            # than 64 MiB from about 65 KiB; each refused, the file named, exit status 1.
            write(hot, 3, [], True)
            third = os.path.join(hot, "run-3", "t.json.gz")
            with open(third, "rb") as f:
                whole = f.read()
            for data, reason in ((whole[:-12], "damaged gzip data"),
                                 (bomb((64 << 20) + 1), f"gzip data decompresses to more than {64 << 20} bytes")):
                with open(third, "wb") as f:
                    f.write(data)
                refused = subprocess.run([sys.executable, script, hot, gated], capture_output=True, text=True)
                assert refused.returncode == 1 and f"gpu-alone-replay: {third}: {reason}" in refused.stderr, refused
    print("gpu-alone-replay: ok")


if __name__ == "__main__":
    main()
