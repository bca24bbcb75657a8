"""scripts/compress-transcripts.py on a scratch folder: a transcript becomes NAME.json.gz with the same
bytes, which labrun validates and reports as it did the plain file; other JSON is left; nothing is
overwritten; --dry-run changes nothing.

usage: compress_transcripts_test.py SCRIPT LABRUN TRANSCRIPT
(TRANSCRIPT: a committed transcript, NAME.json or NAME.json.gz, with its Markdown beside it: read,
never changed)
"""

import gzip
import os
import shutil
import subprocess
import sys
import tempfile

script, labrun, source = sys.argv[1:4]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(*args):
    proc = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


with tempfile.TemporaryDirectory() as root:
    runs = os.path.join(root, "runs")
    os.makedirs(os.path.join(runs, "deeper"))
    original = read(source)
    if original[:2] == b"\x1f\x8b":
        original = gzip.decompress(original)
    plain = os.path.join(runs, "deeper", "run.json")
    with open(plain, "wb") as out:
        out.write(original)
    markdown = source[: -len(".json.gz" if source.endswith(".gz") else ".json")] + ".md"
    shutil.copyfile(markdown, os.path.join(runs, "deeper", "run.md"))
    others = {"run.trace.json": b'{"traceEvents": []}', "comparison.json": b'{"baseline": {}, "candidate": {}}',
              "broken.json": b"{not json"}
    for name, data in others.items():
        with open(os.path.join(runs, name), "wb") as out:
            out.write(data)

    code, text = run("--dry-run", runs)
    check(code == 0 and "would write" in text and os.path.exists(plain)
          and not os.path.exists(plain + ".gz"), f"--dry-run changes nothing: {code} {text}")

    code, text = run(runs)
    packed = os.path.join(runs, "deeper", "run.json.gz")
    check(code == 0 and "compress-transcripts: 1 transcript," in text, f"one transcript compressed: {code} {text}")
    check(not os.path.exists(plain) and os.path.exists(packed), "NAME.json became NAME.json.gz")
    check(gzip.decompress(read(packed)) == original, "the compressed file holds the transcript's bytes exactly")
    check(len(read(packed)) * 4 < len(original), "compressed to under a quarter")
    check(all(read(os.path.join(runs, n)) == d for n, d in others.items()), "other JSON is left as it was")
    check(not [n for n in os.listdir(os.path.join(runs, "deeper")) if ".tmp-" in n], "no temporary file is left")
    again = read(packed)
    with open(plain, "wb") as out:
        out.write(original)
    code, text = run(plain)
    check(code == 0 and "already in" in text and not os.path.exists(plain) and read(packed) == again,
          f"a NAME.json.gz that holds the same bytes: the plain copy goes, the file is kept: {code} {text}")

    # labrun reads it as the plain file: valid, and its report is the Markdown beside it.
    proc = subprocess.run([labrun, "validate", packed], capture_output=True, text=True)
    check(proc.returncode == 0 and "valid" in proc.stdout, f"labrun validates it: {proc.stdout}{proc.stderr}")
    proc = subprocess.run([labrun, "report", packed], capture_output=True, text=True)
    check(proc.returncode == 0 and proc.stdout == read(markdown).decode("utf-8"),
          f"labrun report reproduces the Markdown from it: {proc.stderr[:300]}")

    # Nothing is overwritten: a NAME.json.gz with other text leaves NAME.json, exit 1, said.
    with open(plain, "wb") as out:
        out.write(original.replace(b'"schema_version"', b'"schema_version" ', 1))
    code, text = run(plain)
    check(code == 1 and "holds other text" in text and os.path.exists(plain) and read(packed) == again,
          f"a different NAME.json.gz is not overwritten: {code} {text}")
    os.remove(plain)

    # A file named that is not a transcript is refused and left.
    code, text = run(os.path.join(runs, "comparison.json"))
    check(code == 1 and "not a transcript" in text and os.path.exists(os.path.join(runs, "comparison.json")),
          f"a named non-transcript is refused: {code} {text}")
    code, text = run(os.path.join(runs, "no-such.txt"))
    check(code == 2, f"a path that is neither a folder nor NAME.json is a usage error: {code} {text}")

if failures:
    for failure in failures:
        print("FAILED:", failure)
    sys.exit(1)
print("compress-transcripts: ok")
