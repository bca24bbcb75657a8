#!/usr/bin/env python3
"""The attack run of issue 32: labrun's readers and writers against hostile input and faults.

Runs a built labrun (the asan preset's, so that every sanitizer finding shows) as a hostile user
would, on this machine (no GPU needed), and counts what must never happen:

- crashes (a signal labrun was not sent, a sanitizer report), hangs (past the time limit);
- exit 0 with output missing (standard output on /dev/full or past a file-size limit);
- partial sets (some files of a set written and not the others; a temporary left behind);
- forged verdicts accepted (a forged current transcript validated or aggregated; a verdict forged
  under an older schema version counted as held);
- what signals at random points leave: temporaries, scratch folders, orphan processes, half sets.

Inputs: hostile transcripts (malformed, deep, huge, odd numbers, keys given twice, bytes that are
not UTF-8, forged figures and claims, verdicts forged under an older version), hostile grade
reports for `grade --merge` and a `--batch` rerun, hostile manifests for `grade --batch`, odd file
names and file kinds. Each transcript goes through validate, report, report --format csv, compare,
plot (every 4th) and aggregate. Faults: a small tmpfs, RLIMIT_FSIZE, /dev/full, a read-only folder
(root only for the two mounts; skipped with a line otherwise). Signals: SIGINT and SIGTERM at random
points of aggregate, plot, grade --merge and grade --batch.

Usage: scripts/diagnostics/attack-run.py --labrun build/asan/labrun --out DIR [--seed N]
       [--jobs N] [--signal-trials N]
Writes DIR/findings.txt (one line per finding, with the command) and DIR/summary.txt, and prints
the summary table last. Exit status 0 when nothing was found, 1 otherwise.
"""

import argparse
import atexit
import concurrent.futures
import copy
import functools
import gzip
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVIDENCE = ROOT / "evidence"
TIME_LIMIT_S = 60
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")

SEEDS = {
    "t4": EVIDENCE / "day48-fusion/tesla-t4-lesson/cuda-13.0-reverification.json",
    "t4-original": EVIDENCE / "day48-fusion/tesla-t4-lesson/cuda-12.6-original.json",
    "day20-t4": EVIDENCE / "day20-sobel-threshold/tesla-t4-lesson/day20-as-quoted-by-day48.json",
    "day20-h200": EVIDENCE / "day20-sobel-threshold/nvidia-h200/2026-12-02T02-48-10Z.json.gz",
    "day48-1.5.0": EVIDENCE / "day48-fusion/nvidia-h200/2026-12-01T05-42-33Z.json.gz",
    # A small synthetic measured transcript with every field of a run (tests/evidence/valid/).
    "small-measured": ROOT / "tests/evidence/valid/measured-1.1.0.json",
}
# Committed runs are stored gzip-compressed (NAME.json.gz): the attacks start from their plain text,
# written once into a scratch folder removed at exit (a gzip seed is read by labrun as well, through
# the readers' own decompression, in the fuzz run and the host tests).
_SEED_COPIES = Path(tempfile.mkdtemp(prefix="attack-run-seeds-"))
atexit.register(shutil.rmtree, _SEED_COPIES, True)
for _name, _path in list(SEEDS.items()):
    if _path.suffix == ".gz":
        SEEDS[_name] = _SEED_COPIES / (_name + ".json")
        SEEDS[_name].write_bytes(gzip.decompress(_path.read_bytes()))

STAND_IN_RENDERER = """import json, sys, time, random
time.sleep(random.random() * 0.2)
for plot in json.load(open(sys.argv[1]))['plots']:
    try:
        with open(plot['file'], 'w') as out:
            out.write('<svg>' + 'x' * 2000 + '</svg>')
    except OSError as error:
        print('draw_plots: cannot write %s: %s' % (plot['file'], error.strerror), file=sys.stderr)
        sys.exit(1)
"""


class Tally:
    """Counts of what ran and of what was found; findings are written as they come."""

    def __init__(self, out):
        self.counts = {}
        self.lock = threading.Lock()
        self.findings_file = open(out / "findings.txt", "w", encoding="utf-8", errors="backslashreplace")

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n

    def finding(self, kind, what):
        self.add("finding: " + kind)
        with self.lock:
            self.findings_file.write(f"{kind}: {what}\n")
            self.findings_file.flush()


class Labrun:
    """Runs the labrun program with a private TMPDIR, a time limit and optional faults."""

    def __init__(self, program, work, tally):
        self.program = str(program)
        self.work = work
        self.tally = tally
        self.scripts = work / "scripts"
        self.scripts.mkdir(parents=True, exist_ok=True)
        (self.scripts / "draw_plots.py").write_text(STAND_IN_RENDERER)
        self.tmp = work / "tmp"
        self.tmp.mkdir(exist_ok=True)

    def environment(self, tmp=None):
        env = dict(os.environ)
        env["TMPDIR"] = str(tmp or self.tmp)
        env["LABRUN_SCRIPTS_DIR"] = str(self.scripts)
        env["ASAN_OPTIONS"] = "malloc_context_size=2:detect_leaks=1"
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
        return env

    def run(self, args, stdout_path=None, file_size=None, cwd=None, what=None, tmp=None):
        """Runs labrun ARGS; returns (rc, stdout, stderr). Records crashes, hangs and sanitizer
        findings. stdout_path: where standard output goes ('/dev/full', a file) instead of a pipe."""
        self.tally.add("labrun runs")
        what = what or " ".join(str(a) for a in args)

        def limit():
            os.setsid()
            if file_size is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, resource.RLIM_INFINITY))

        out_handle = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
        try:
            proc = subprocess.Popen([self.program] + [str(a) for a in args], stdout=out_handle,
                                    stderr=subprocess.PIPE, env=self.environment(tmp), cwd=cwd,
                                    preexec_fn=limit)
            try:
                out, err = proc.communicate(timeout=TIME_LIMIT_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, err = proc.communicate()
                self.tally.finding("hang", what)
                return None, b"", err
        finally:
            if stdout_path:
                out_handle.close()
        out = out or b""
        self.check_ending(proc.returncode, err, what)
        return proc.returncode, out, err

    def check_ending(self, rc, err, what, sent=None):
        text = err.decode("utf-8", "replace")
        if any(mark in text for mark in SANITIZER_MARKS):
            self.tally.finding("sanitizer", what + " :: " + first_sanitizer_line(text))
        elif rc is not None and rc < 0 and -rc != sent:
            self.tally.finding("crash", f"{what} :: signal {-rc}")
        elif rc is not None and rc >= 128 and rc - 128 != sent:
            self.tally.finding("crash", f"{what} :: exit {rc}")

    def leftovers(self, *folders, tmp=None):
        """Temporaries and scratch folders labrun left: `.tmp-` files in `folders`, anything in the
        private TMPDIR it ran with (each worker has its own: runs side by side share none)."""
        left = []
        for folder in folders:
            for path in Path(folder).rglob("*"):
                if ".tmp-" in path.name:
                    left.append(str(path))
        left += [str(p) for p in Path(tmp or self.tmp).iterdir()]
        return left


def first_sanitizer_line(text):
    for line in text.splitlines():
        if any(mark in line for mark in SANITIZER_MARKS):
            return line.strip()[:200]
    return ""


def load(name):
    return json.loads(SEEDS[name].read_text())


def dump(document):
    return json.dumps(document, indent=1).encode()


# ---------------------------------------------------------------------------------------------
# Hostile transcripts


def structural_inputs(rng):
    """Malformed and oversized texts: they must be refused, never crash."""
    base = SEEDS["t4"].read_bytes()
    h200 = SEEDS["day20-h200"].read_bytes()
    inputs = []
    for i in range(40):  # truncated anywhere
        cut = rng.randrange(len(base))
        inputs.append((f"truncated-{i}", base[:cut]))
    for i in range(130):  # bytes flipped
        data = bytearray(rng.choice([base, h200]))
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        inputs.append((f"flipped-{i}", bytes(data)))
    for depth in (33, 64, 65, 1000, 20000, 100000, 200000):
        deep = "[" * depth + "]" * depth
        inputs.append((f"deep-array-{depth}", deep.encode()))
        inputs.append((f"deep-object-{depth}", ('{"a":' * depth + "1" + "}" * depth).encode()))
        doc = base.decode()
        inputs.append((f"deep-first-member-{depth}", ('{"deep": ' + deep + ", " + doc[1:]).encode()))
        inputs.append((f"deep-in-environment-{depth}",
                       doc.replace('"environment": {', '"environment": {"deep": ' + deep + ", ", 1).encode()))
    for size in (4097, 30000, 1 << 20):
        doc = load("t4")
        doc["cases"][0]["name"] = "day48-fusion/part1/" + "a" * size
        inputs.append((f"long-string-{size}", dump(doc)))
        doc = load("t4")
        doc["provenance"]["k" * size] = 1
        inputs.append((f"long-key-{size}", dump(doc)))
    numbers = ["1e400", "-1e400", "1e-400", "-0", "9223372036854775807", "9223372036854775808",
               "18446744073709551615", "18446744073709551616", "4294967298", "-4294967298", "NaN",
               "\"nan\"", "\"inf\"", "\"-inf\"", "0.0", "-1", "1e308", "2.2250738585072014e-308"]
    fields = ['"warmups": ', '"seed": ', '"elements": ', '"launches_per_sample": ', '"value_ms": ', '"runs": ']
    text = SEEDS["small-measured"].read_text()
    for number in numbers:
        for field in fields:
            at = text.find(field)
            if at < 0:
                continue
            end = at + len(field)
            stop = min(text.find(",", end), text.find("}", end))
            label = field.strip(':" ') + "-" + number.strip('"')
            inputs.append((f"number-{label}", (text[:end] + number + text[stop:]).encode()))
    for i, where in enumerate(['"schema_version"', '"lab"', '"cases"', '"claims"', '"run"', '"name"',
                               '"samples_ms"', '"median_ms"', '"environment"', '"device"']):
        at = text.find(where)
        if at >= 0:  # the key given again, earlier in its object
            value = '"1.0.0"' if where == '"schema_version"' else "null"
            brace = text.rfind("{", 0, at)
            inputs.append((f"duplicate-key-{i}", (text[:brace + 1] + where + ": " + value + ", " +
                                                   text[brace + 1:]).encode()))
    for i, bad in enumerate([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00", b"\x1b[2J",
                             b"\xe2\x80\xae", b"\r\n"]):
        inputs.append((f"bytes-in-string-{i}", base.replace(b'"labrun", "run"', b'"labrun' + bad + b'", "run"', 1)))
        inputs.append((f"bytes-in-key-{i}", base.replace(b'"seed"', b'"se' + bad + b'ed"', 1)))
    for i, text_ in enumerate([b"", b" ", b"\xef\xbb\xbf" + base, b"null", b"[]", b"[{}]", b"{}", b"42",
                               b'"schema_version"', b'{"schema_version": 1}', b'{"schema_version": "9.9.9"}',
                               b'{"schema_version": "1.7.0"}', b'{"$schema": "x"}', b'{"traceEvents": []}',
                               b'{"baseline": 1, "candidate": 2}', b'[{"submission": 1, "score": 2}]']):
        inputs.append((f"odd-document-{i}", text_))
    return [(name, data, "garbage") for name, data in inputs]


def forged_current_inputs(rng):
    """A measured 1.7.0 transcript (day 20 on the H200) forged field by field: each must be refused."""
    inputs = []

    def forge(name, edit):
        doc = load("day20-h200")
        edit(doc)
        inputs.append((f"forged-{name}", dump(doc), "forged-current"))

    def case_field(path, value):
        def edit(doc):
            target = doc
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        return edit

    doc = load("day20-h200")
    for c in range(min(16, len(doc["cases"]))):
        for field, value in [("median_ms", -1.0), ("median_ms", 0.0), ("median_ms", 1e9), ("mean_ms", 123.0),
                             ("min_ms", 0.0), ("max_ms", 1e-9), ("q1_ms", 5.0), ("count", 1),
                             ("relative_spread", 0.0)]:
            forge(f"case{c}-{field}-{value}", case_field(["cases", c, "summary", field], value))
        forge(f"case{c}-read-bytes", case_field(["cases", c, "model", "read_bytes_per_element"], 0.5))
        forge(f"case{c}-launches", case_field(["cases", c, "model", "launches"], 7))
        forge(f"case{c}-shape", case_field(["cases", c, "shape"], {"width": 1, "height": 1}))
        forge(f"case{c}-elements", case_field(["cases", c, "elements"], 12345))
        forge(f"case{c}-round-median", case_field(["cases", c, "rounds", 0, "median_ms"], 0.001))
        forge(f"case{c}-interval", case_field(["cases", c, "median_interval_ms"], {"low": 0.0, "high": 0.001}))
        forge(f"case{c}-sample", lambda d, c=c: d["cases"][c]["samples_ms"].__setitem__(0, 1e3))
        forge(f"case{c}-size-label", case_field(["cases", c, "size_label"], "lesson-ish"))
    for k, claim in enumerate(doc["claims"]):
        forge(f"claim{k}-bound", case_field(["claims", k, "bound"], {"low": 0.0, "high": 1e9}))
        forge(f"claim{k}-expected", case_field(["claims", k, "expected"], 1.5))
        forge(f"claim{k}-tolerance", case_field(["claims", k, "tolerance"], "anything goes"))
        forge(f"claim{k}-statement", case_field(["claims", k, "statement"], "It holds."))
        forge(f"claim{k}-basis", case_field(["claims", k, "verdict_basis"], "point"))
        forge(f"claim{k}-hedge", case_field(["claims", k, "expected_to_fail"], not claim["expected_to_fail"]))
        for verdict in ("held", "failed", "inconclusive", "not measured"):
            if verdict != claim["verdict"]:
                forge(f"claim{k}-verdict-{verdict}", case_field(["claims", k, "verdict"], verdict))
        forge(f"claim{k}-measured", case_field(["claims", k, "measured"], 2.6))
        forge(f"claim{k}-interval", case_field(["claims", k, "measured_interval"], {"low": 2.5, "high": 2.7}))
        forge(f"claim{k}-deleted", lambda d, k=k: d["claims"].pop(k))
        forge(f"claim{k}-twice", lambda d, k=k: d["claims"].append(copy.deepcopy(d["claims"][k])))
    forge("correctness-elements", case_field(["correctness", "checks", 0, "elements"], 10 ** 9))
    forge("correctness-mismatches", case_field(["correctness", "checks", 0, "mismatches"], 10 ** 12))
    forge("correctness-passed", lambda d: d["correctness"]["checks"][0].update({"passed": False}))
    forge("bitwise-elements", case_field(["correctness", "bitwise", 0, "elements"], 10 ** 9))
    forge("roofline-case", lambda d: d["roofline"]["memory_ceiling_cases"].__setitem__(0, "day20-sobel-threshold/card/nothing"))
    forge("roofline-compute", case_field(["roofline", "compute_ceiling_case"], "day20-sobel-threshold/edges/fused"))
    forge("prediction-measured-removed", case_field(["predictions", 0, "measured"], []))
    forge("prediction-measured-one", lambda d: d["predictions"][0]["measured"].pop())
    forge("prediction-ratio", case_field(["predictions", 0, "byte_ratio"], 10.0))
    forge("prediction-description", case_field(["predictions", 0, "description"], "made up"))
    forge("prediction-deleted", lambda d: d["predictions"].pop(0))
    forge("lab-name-path", case_field(["lab", "name"], "../../../tmp/x"))
    forge("stability-median", lambda d: d["stability"].update({"first_median_ms": 0.001}) if d.get("stability") else None)
    rng.shuffle(inputs)
    return inputs


def forged_older_inputs(rng):
    """Verdicts of a 1.5.0 run turned from failed to held, the transcript then claiming each older
    version (the newer groups deleted): accepted as valid, never counted as held."""
    inputs = []
    for version in ("1.5.0", "1.4.0", "1.3.0", "1.2.0", "1.1.0"):
        for subset in range(4):
            doc = load("day48-1.5.0")
            turned = []
            for claim in doc["claims"]:
                if claim["verdict"] == "failed" and (subset == 0 or rng.random() < 0.6):
                    claim["verdict"] = "held"
                    turned.append(claim["id"])
            if not turned:
                continue
            doc["schema_version"] = version
            if version != "1.5.0":
                doc.pop("timeline", None)
            if version in ("1.3.0", "1.2.0", "1.1.0"):
                pass  # the groups a 1.4.0 run must have stay: older schemas allow them
            data = dump(doc)
            inputs.append((f"older-{version}-{subset}", data, "forged-older", turned))
    return inputs


def name_inputs():
    """Valid transcripts under hostile names: they must be read, and their names shown as data."""
    data = SEEDS["t4"].read_bytes()
    names = ["t4-\udcff\udcfe.json", "t4\nnewline.json", "-starts-with-dash.json", "n" * 245 + ".json",
             "n" * 250 + ".json", "sp ace & <tag> `tick` | pipe.json", "t4-\u202eevil.json", "..json",
             "t4-\u00e9\u20ac.json"]
    return [(name, data, "name") for name in names]


def write_input(folder, name, data):
    """Writes `data` to folder/name; a name holding surrogate escapes ("\udcff") is the raw byte."""
    path = folder / name
    with open(path, "wb") as out:
        out.write(data)
    return path


# ---------------------------------------------------------------------------------------------
# Runs


def run_transcript_input(labrun, tally, work, index, item, seed_file):
    name, data, kind = item[0], item[1], item[2]
    turned = item[3] if len(item) > 3 else []
    folder = work / f"input-{index}"
    folder.mkdir(parents=True)
    tmp = work / f"tmp-{index}"
    tmp.mkdir()
    run = functools.partial(labrun.run, tmp=tmp)
    file_name = name if kind == "name" else name + ".json"
    path = write_input(folder, file_name, data)
    tally.add("hostile inputs: " + kind)
    rc, out, err = run(["validate", "--", path], what=f"validate {name}")
    if kind == "forged-current" and rc == 0:
        tally.finding("forged verdict accepted", f"validate accepted {name}")
    if kind == "name" and rc != 0:
        tally.finding("name refused", f"validate {name}: {err.decode(errors='replace').strip()[:200]}")
    for args, what in ([["report", path], "report"], [["report", path, "--format", "csv"], "report csv"],
                       [["compare", path, seed_file], "compare"]):
        rc2, out2, _ = run(args if not str(path).startswith("-") else args, what=f"{what} {name}")
        if rc2 == 0 and not out2:
            tally.finding("exit 0 with output missing", f"{what} {name}")
    if index % 4 == 0 or kind == "name":
        rc3, _, err3 = run(["plot", path, "--force"], what=f"plot {name}")
        if rc3 == 0:
            stem = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
            if not list(folder.glob("*.svg")):
                tally.finding("exit 0 with output missing", f"plot {name}: no plot written")
        left = labrun.leftovers(folder, tmp=tmp)
        if left:
            tally.finding("partial set", f"plot {name} left {left[:3]}")
    out_dir = work / f"aggregate-{index}"
    rc4, out4, err4 = run(["aggregate", folder, "--out", out_dir], what=f"aggregate {name}")
    if rc4 == 0:
        check_aggregate_set(tally, out_dir, f"aggregate {name}")
        document = json.loads((out_dir / "aggregate.json").read_text())
        used = [i for i in document["inputs"] if i["used"]]
        if kind == "forged-current" and used:
            tally.finding("forged verdict accepted", f"aggregate used {name}")
        if kind == "forged-older":
            for lab in document["labs"]:
                for card in lab["cards"]:
                    for claim in card["claims"]:
                        if claim["id"] in turned and claim["held"] > 0:
                            tally.finding("forged verdict accepted", f"aggregate counted {claim['id']} held in {name}")
    elif kind == "name":
        tally.finding("name refused", f"aggregate {name}: {rc4}")
    elif rc4 not in (1,):
        tally.finding("unexpected status", f"aggregate {name}: {rc4}")
    left = labrun.leftovers(folder, out_dir, tmp=tmp)
    if left:
        tally.finding("partial set", f"aggregate {name} left {left[:3]}")
    for gone in (folder, out_dir, tmp):
        shutil.rmtree(gone, ignore_errors=True)


def check_aggregate_set(tally, out_dir, what):
    names = sorted(p.name for p in Path(out_dir).iterdir()) if Path(out_dir).exists() else []
    if "aggregate.json" not in names or "aggregate.md" not in names or not any(n.endswith(".csv") for n in names):
        tally.finding("partial set", f"{what}: {names}")
    if any(".tmp-" in n for n in names):
        tally.finding("partial set", f"{what}: temporaries {names}")


def grade_report_inputs(rng):
    good = {"lab": "day48-fusion", "student_id": "s", "score": 50, "max_score": 100, "execution_time": 1.0,
            "mistakes": [{"id": "slow"}], "environment": {"device": "NVIDIA H200", "host": "n"}}
    texts = []
    for depth in (65, 1000, 100000):
        deep = "[" * depth + "]" * depth
        texts.append((f"deep-first-{depth}", ('{"extra": ' + deep + ', ' + json.dumps(good)[1:]).encode()))
        texts.append((f"deep-last-{depth}", (json.dumps(good)[:-1] + ', "extra": ' + deep + "}").encode()))
        texts.append((f"deep-root-{depth}", deep.encode()))
        texts.append((f"deep-mistake-{depth}", json.dumps(good).replace('"slow"', '"slow", "x": ' + deep).encode()))
    for key in good:
        broken = dict(good)
        broken[key] = [[[]]]
        texts.append((f"wrong-type-{key}", json.dumps(broken).encode()))
        missing = dict(good)
        missing.pop(key)
        texts.append((f"missing-{key}", json.dumps(missing).encode()))
        texts.append((f"twice-{key}", ('{"' + key + '": 1, ' + json.dumps(good)[1:]).encode()))
    for value in ("1e400", "-1", "9223372036854775808", "NaN", '"\\u0000"', '"\\ud800"'):
        texts.append((f"score-{value}", json.dumps(good).replace('"score": 50', '"score": ' + value).encode()))
    for bad in (b"\xff", b"\x1b[31m", b"\xe2\x80\xae", b"=cmd|' /C calc'!A0"):
        texts.append((f"bytes-{bad[:2].hex()}", json.dumps(good).encode().replace(b'"s"', b'"' + bad + b'"')))
    for i in range(40):
        data = bytearray(json.dumps(good).encode())
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        texts.append((f"flipped-{i}", bytes(data)))
    texts += [("empty", b""), ("null", b"null"), ("array", b"[1,2]"), ("truncated", json.dumps(good).encode()[:30])]
    return texts


def run_grade_report_input(labrun, tally, work, index, name, data):
    out = work / f"merge-{index}"
    tmp = work / f"tmp-report-{index}"
    tmp.mkdir(parents=True)
    run = functools.partial(labrun.run, tmp=tmp)
    for folder, text in (("good-one", json.dumps({"student_id": "g", "score": 1, "max_score": 1, "mistakes": []}).encode()),
                         (name, data)):
        (out / "submissions" / folder).mkdir(parents=True, exist_ok=True)
        (out / "submissions" / folder / "report.json").write_bytes(text)
    tally.add("hostile inputs: grade report")
    rc, stdout, _ = run(["grade", "--merge", out], what=f"grade --merge {name}")
    summary = sorted(p.name for p in out.glob("summary*"))
    if rc == 0:
        if summary != ["summary.csv", "summary.json", "summary.md"] or not stdout:
            tally.finding("exit 0 with output missing", f"grade --merge {name}: {summary}")
    elif summary:
        tally.finding("partial set", f"grade --merge {name} failed but left {summary}")
    batch = work / f"batch-{index}"
    (batch / name).mkdir(parents=True)
    (batch / "good-one").mkdir()
    run(["grade", "--batch", batch, "--out", out, "--jobs", "1"], what=f"grade --batch rerun {name}")
    left = labrun.leftovers(out, tmp=tmp)
    if left:
        tally.finding("partial set", f"grade {name} left {left[:3]}")
    for gone in (out, batch, tmp):
        shutil.rmtree(gone, ignore_errors=True)


def manifest_inputs():
    good = {"student_id": "s", "exercise": "halfway-pair",
            "kernels": {"halfway_stages_1_2": {"threads_per_block": 256}, "halfway_stages_3_4": {"threads_per_block": 256}}}
    texts = [("deep", ("[" * 100000 + "]" * 100000).encode()),
             ("deep-first", ('{"x": ' + "[" * 100000 + "]" * 100000 + ", " + json.dumps(good)[1:]).encode()),
             ("twice", ('{"student_id": "a", ' + json.dumps(good)[1:]).encode()),
             ("not-json", b"{"), ("empty", b""), ("huge-number", json.dumps(good).replace("256", "1e400").encode()),
             ("negative", json.dumps(good).replace("256", "-1").encode()),
             ("bad-bytes", json.dumps(good).encode().replace(b'"s"', b'"\xff\x1b"')),
             ("long-id", json.dumps(dict(good, student_id="x" * 100000)).encode()),
             ("array", b"[]"), ("wrong-exercise", json.dumps(dict(good, exercise=[1])).encode())]
    return texts


def run_manifests(labrun, tally, work):
    batch = work / "manifests"
    for name, text in manifest_inputs():
        folder = batch / name
        folder.mkdir(parents=True)
        (folder / "halfway.cu").write_text("// a submission whose manifest is hostile\n")
        (folder / "halfway.json").write_bytes(text)
        tally.add("hostile inputs: manifest")
    out = work / "manifests-out"
    rc, _, _ = labrun.run(["grade", "--batch", batch, "--out", out, "--jobs", "2"], what="grade --batch manifests")
    if rc == 0 and not (out / "summary.json").exists():
        tally.finding("exit 0 with output missing", "grade --batch manifests")


def run_file_kinds(labrun, tally, work, seed_file):
    folder = work / "kinds"
    folder.mkdir()
    os.mkfifo(folder / "fifo.json")
    (folder / "folder.json").mkdir()
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "loop.json").symlink_to("loop.json")
    (folder / "dangling.json").symlink_to("nothing.json")
    with open(folder / "sparse-65mib.json", "wb") as out:
        out.truncate(65 << 20)
    for path in sorted(folder.iterdir()):
        tally.add("hostile inputs: file kind")
        for args in (["validate", "--", path], ["report", path], ["compare", path, seed_file], ["plot", path]):
            labrun.run(args, what=" ".join(map(str, args[:1])) + " " + path.name)
    labrun.run(["aggregate", folder, "--out", work / "kinds-out"], what="aggregate file kinds")
    merge = work / "merge-kinds" / "submissions"
    merge.mkdir(parents=True)
    (merge / "loop").symlink_to("loop")
    (merge / "fifo").mkdir()
    os.mkfifo(merge / "fifo" / "report.json")
    (merge / "link").mkdir()
    (merge / "link" / "report.json").symlink_to("/etc/hostname")
    tally.add("hostile inputs: file kind", 3)
    rc, _, err = labrun.run(["grade", "--merge", work / "merge-kinds"], what="grade --merge file kinds")
    if b"filesystem error" in err:
        tally.finding("raw error", "grade --merge over a link loop printed a raw filesystem error")
    (work / "self").symlink_to("self")
    labrun.run(["grade", "--merge", work / "merge-kinds", work / "self"], what="grade --merge FROM a loop")


# ---------------------------------------------------------------------------------------------
# Faults


PRINTING = lambda seed: [["validate", seed], ["report", seed], ["report", seed, "--format", "csv"],
                         ["compare", seed, seed], ["list"], ["plan", "day48-fusion"], ["--help"],
                         ["list", "day48-fusion"]]


def run_stdout_faults(labrun, tally, work, seed_file):
    measured = SEEDS["day20-h200"]
    for args in PRINTING(seed_file) + PRINTING(measured):
        tally.add("faults: /dev/full")
        rc, _, _ = labrun.run(args, stdout_path="/dev/full", what="/dev/full " + " ".join(map(str, args)))
        if rc == 0:
            tally.finding("exit 0 with output missing", "stdout /dev/full: " + " ".join(map(str, args)))
        complete = None
        for limit in (1, 16, 200, 4096):
            tally.add("faults: ulimit -f")
            target = work / "stdout.txt"
            rc, _, _ = labrun.run(args, stdout_path=target, file_size=limit,
                                  what=f"ulimit {limit} " + " ".join(map(str, args)))
            if rc == 0:
                # What fits is a success; a file cut short of the whole output is not.
                if complete is None:
                    complete = labrun.run(args, what="unlimited " + " ".join(map(str, args)))[1]
                if len(complete) != target.stat().st_size:
                    tally.finding("exit 0 with output missing", f"ulimit -f {limit}: " + " ".join(map(str, args)))
    # aggregate and grade --merge print their Markdown too.
    for args in (["aggregate", seed_file, "--out", work / "agg-full", "--force"],):
        tally.add("faults: /dev/full")
        rc, _, _ = labrun.run(args, stdout_path="/dev/full", what="/dev/full aggregate")
        if rc == 0:
            tally.finding("exit 0 with output missing", "aggregate with stdout on /dev/full")


def writer_commands(labrun, work, tag):
    """Commands that write sets, each with its folder and the files a whole set has."""
    seeds = work / f"seeds-{tag}"
    seeds.mkdir(parents=True, exist_ok=True)
    for name in ("t4", "t4-original", "day20-t4"):
        shutil.copy(SEEDS[name], seeds / (name + ".json"))
    batch = work / f"batch-src-{tag}"
    for k in range(12):
        (batch / f"student-{k:02d}").mkdir(parents=True, exist_ok=True)
    return seeds, batch


def set_state(folder, pattern_names):
    """'whole', 'none' or 'partial' for the files of a set found in `folder`."""
    present = [n for n in pattern_names if (folder / n).exists()]
    if not present:
        return "none"
    return "whole" if len(present) == len(pattern_names) else "partial"


def run_write_faults(labrun, tally, work):
    seeds, batch = writer_commands(labrun, work, "faults")
    # The whole sets, from unlimited runs.
    reference = work / "reference"
    labrun.run(["aggregate", seeds, "--out", reference / "agg"], what="reference aggregate")
    aggregate_set = sorted(p.name for p in (reference / "agg").iterdir())
    labrun.run(["grade", "--batch", batch, "--out", reference / "batch", "--jobs", "2"], what="reference batch")
    summary_set = ["summary.csv", "summary.json", "summary.md"]

    def check(label, rc, folder, names):
        state = set_state(folder, names) if folder.exists() else "none"
        left = labrun.leftovers(folder) if folder.exists() else []
        if left:
            tally.finding("partial set", f"{label}: left {left[:3]}")
        if state == "partial":
            tally.finding("partial set", f"{label}: {sorted(p.name for p in folder.iterdir())}")
        if rc == 0 and state != "whole":
            tally.finding("exit 0 with output missing", label)

    is_root = os.geteuid() == 0
    for limit in (512, 2048, 4096, 8192, 16384, 65536, 262144):
        tally.add("faults: ulimit -f")
        out = work / f"ulimit-agg-{limit}"
        rc, _, _ = labrun.run(["aggregate", seeds, "--out", out], file_size=limit, what=f"aggregate ulimit {limit}")
        check(f"aggregate under ulimit -f {limit}", rc, out, aggregate_set)
        tally.add("faults: ulimit -f")
        out = work / f"ulimit-batch-{limit}"
        rc, _, _ = labrun.run(["grade", "--batch", batch, "--out", out, "--jobs", "2"], file_size=limit,
                              what=f"batch ulimit {limit}")
        check(f"grade --batch under ulimit -f {limit}", rc, out, summary_set)
        tally.add("faults: ulimit -f")
        rc, _, _ = labrun.run(["grade", "--merge", reference / "batch"], file_size=limit, what=f"merge ulimit {limit}")
        check(f"grade --merge under ulimit -f {limit}", rc, reference / "batch", summary_set)
        copy_dir = work / f"ulimit-plot-{limit}"
        copy_dir.mkdir()
        shutil.copy(SEEDS["t4"], copy_dir / "t4.json")
        tally.add("faults: ulimit -f")
        rc, _, _ = labrun.run(["plot", copy_dir / "t4.json", "--force"], file_size=limit, what=f"plot ulimit {limit}")
        if labrun.leftovers(copy_dir):
            tally.finding("partial set", f"plot under ulimit -f {limit}")
    if not is_root:
        tally.add("faults skipped (not root): small tmpfs and read-only folder")
        return
    for size in (8192, 32768, 65536, 131072, 262144, 1048576):
        mount = work / f"tmpfs-{size}"
        mount.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)]).returncode != 0:
            tally.add("faults skipped: tmpfs mount failed")
            continue
        try:
            for what, args, folder, names in (
                    ("aggregate", ["aggregate", seeds, "--out", mount / "agg"], mount / "agg", aggregate_set),
                    ("grade --batch", ["grade", "--batch", batch, "--out", mount / "batch", "--jobs", "2"],
                     mount / "batch", summary_set)):
                tally.add("faults: small tmpfs")
                rc, _, _ = labrun.run(args, what=f"{what} on a {size}-byte tmpfs")
                check(f"{what} on a {size}-byte tmpfs", rc, folder, names)
            try:
                shutil.copy(SEEDS["t4"], mount / "t4.json")
            except OSError:
                (mount / "t4.json").unlink(missing_ok=True)  # the tmpfs is full already
            if (mount / "t4.json").exists():
                tally.add("faults: small tmpfs")
                labrun.run(["plot", mount / "t4.json", "--force"], what=f"plot on a {size}-byte tmpfs")
                if labrun.leftovers(mount):
                    tally.finding("partial set", f"plot on a {size}-byte tmpfs")
        finally:
            subprocess.run(["umount", "-l", str(mount)])
    readonly = work / "readonly"
    readonly.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=65536", "tmpfs", str(readonly)]).returncode == 0:
        try:
            for what, args in (("aggregate", ["aggregate", seeds, "--out", readonly]),
                               ("aggregate into a new folder", ["aggregate", seeds, "--out", readonly / "new"]),
                               ("grade --batch", ["grade", "--batch", batch, "--out", readonly]),
                               ("grade --merge", ["grade", "--merge", readonly, reference / "batch"])):
                tally.add("faults: read-only folder")
                rc, _, err = labrun.run(args, what=f"{what} into a read-only folder")
                if rc == 0:
                    tally.finding("exit 0 with output missing", f"{what} into a read-only folder")
                if b"filesystem error" in err:
                    tally.finding("raw error", f"{what} into a read-only folder: {err[-200:]}")
        finally:
            subprocess.run(["umount", "-l", str(readonly)])


# ---------------------------------------------------------------------------------------------
# Signals


def processes_with(marker):
    """Processes whose command line or environment holds `marker` (this run's private folder)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            text = (proc / "cmdline").read_bytes() + (proc / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in text:
            found.append(proc.name)
    return found


def run_signal_trials(labrun, tally, work, trials, rng):
    seeds, batch = writer_commands(labrun, work, "signals")
    earlier = work / "signals-earlier"
    labrun.run(["aggregate", seeds, "--out", earlier], what="earlier aggregate")
    aggregate_set = sorted(p.name for p in earlier.iterdir())
    summary_set = ["summary.csv", "summary.json", "summary.md"]
    merge_source = work / "signals-merge-source"
    labrun.run(["grade", "--batch", batch, "--out", merge_source, "--jobs", "2"], what="merge source")
    for f in merge_source.glob("summary*"):
        f.unlink()
    kinds = ["aggregate", "aggregate --force", "plot", "grade --batch", "grade --merge"]

    def prepare(kind, folder):
        """The command of a trial in `folder`: its arguments, its output folder, the set's names."""
        folder.mkdir(parents=True)
        if kind == "aggregate":
            return ["aggregate", seeds, "--out", folder / "out"], folder / "out", aggregate_set
        if kind == "aggregate --force":
            shutil.copytree(earlier, folder / "out")
            return ["aggregate", seeds, "--out", folder / "out", "--force"], folder / "out", aggregate_set
        if kind == "plot":
            shutil.copy(SEEDS["t4"], folder / "t4.json")
            return ["plot", folder / "t4.json", "--force"], folder, None
        if kind == "grade --batch":
            return ["grade", "--batch", batch, "--out", folder / "out", "--jobs", "2"], folder / "out", summary_set
        shutil.copytree(merge_source, folder / "out")
        return ["grade", "--merge", folder / "out"], folder / "out", summary_set

    durations = {}
    for kind in kinds:
        args, _, _ = prepare(kind, work / ("timing-" + kind.replace(" ", "-")))
        start = time.monotonic()
        labrun.run(args, what="timing " + kind)
        durations[kind] = time.monotonic() - start
    for trial in range(trials):
        kind = kinds[trial % len(kinds)]
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        to_group = rng.random() < 0.5
        folder = work / f"signal-{trial}"
        args, out, names = prepare(kind, folder)
        before = sorted(p.name for p in out.iterdir()) if out.exists() else []
        delay = rng.random() * durations[kind] * 1.1
        tally.add("signal trials")
        tally.add(f"signal trials: {kind}")
        proc = subprocess.Popen([labrun.program] + [str(a) for a in args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=labrun.environment(), preexec_fn=os.setsid)
        time.sleep(delay)
        try:
            if to_group:
                os.killpg(proc.pid, sig)
            else:
                os.kill(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            _, err = proc.communicate(timeout=TIME_LIMIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
            tally.finding("hang", f"signal trial {trial} ({kind})")
            continue
        what = f"signal trial {trial}: {kind}, {signal.Signals(sig).name} at {delay:.3f} s" + (" to the group" if to_group else "")
        labrun.check_ending(proc.returncode, err, what, sent=sig)
        if proc.returncode == -sig:
            tally.add("signal trials: ended by the signal")
        orphans = []
        for _ in range(20):  # a child's keeper kills its tree as labrun ends: give it a moment
            orphans = processes_with(str(labrun.tmp)) + processes_with(str(labrun.scripts))
            if not orphans:
                break
            time.sleep(0.05)
        if orphans:
            tally.finding("orphan process", f"{what}: {orphans}")
        left = labrun.leftovers(folder)
        if left:
            tally.finding("temporary left", f"{what}: {left[:3]}")
            for path in labrun.tmp.iterdir():
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink()
        if names is not None and out.exists():
            now = sorted(p.name for p in out.iterdir() if p.name != "submissions")
            state = set_state(out, names)
            if kind == "aggregate --force":
                if now != before and now != sorted(names):
                    tally.finding("partial set", f"{what}: {now}")
            elif state == "partial":
                tally.finding("partial set", f"{what}: {now}")
            if kind == "grade --batch" and (out / "submissions").exists():
                for sub in (out / "submissions").iterdir():
                    files = sorted(p.name for p in sub.iterdir())
                    if files and files != ["report.json", "report.md", "results.json"]:
                        tally.finding("partial set", f"{what}: {sub.name} holds {files}")
        elif kind == "plot":
            svgs = list(folder.glob("t4.*.svg"))
            if proc.returncode == 0 and not svgs:
                tally.finding("exit 0 with output missing", what)
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labrun", required=True, help="the labrun program (the asan build's)")
    parser.add_argument("--out", required=True, help="folder for findings.txt, summary.txt and scratch")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--signal-trials", type=int, default=220)
    parser.add_argument("--every", type=int, default=1,
                        help="take every Nth hostile transcript and grade report only (a quick look)")
    options = parser.parse_args()
    out = Path(options.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    work = out / "work"
    work.mkdir()
    rng = random.Random(options.seed)
    tally = Tally(out)
    labrun = Labrun(Path(options.labrun).resolve(), work, tally)
    started = time.monotonic()
    seed_file = SEEDS["t4"]

    transcripts = structural_inputs(rng) + forged_current_inputs(rng) + forged_older_inputs(rng) + name_inputs()
    transcripts = transcripts[::options.every]
    print(f"attack-run: {len(transcripts)} hostile transcripts", file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = [pool.submit(run_transcript_input, labrun, tally, work / "transcripts", i, item, seed_file)
                   for i, item in enumerate(transcripts)]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            future.result()
            if done % 100 == 0:
                print(f"attack-run: {done}/{len(futures)} transcripts", file=sys.stderr)
        reports = grade_report_inputs(rng)[::options.every]
        futures = [pool.submit(run_grade_report_input, labrun, tally, work / "reports", i, name, data)
                   for i, (name, data) in enumerate(reports)]
        for future in futures:
            future.result()
    print("attack-run: manifests, file kinds, faults", file=sys.stderr)
    run_manifests(labrun, tally, work)
    run_file_kinds(labrun, tally, work, seed_file)
    run_stdout_faults(labrun, tally, work, seed_file)
    run_write_faults(labrun, tally, work)
    print(f"attack-run: {options.signal_trials} signal trials", file=sys.stderr)
    run_signal_trials(labrun, tally, work, options.signal_trials, rng)

    minutes = (time.monotonic() - started) / 60
    inputs = sum(v for k, v in tally.counts.items() if k.startswith("hostile inputs"))
    findings = {k[len("finding: "):]: v for k, v in tally.counts.items() if k.startswith("finding: ")}
    lines = [f"labrun: {options.labrun}", f"seed {options.seed}, {minutes:.1f} min", ""]
    for key in sorted(tally.counts):
        if not key.startswith("finding: "):
            lines.append(f"{key}: {tally.counts[key]}")
    lines.append("")
    lines.append("| what | count |")
    lines.append("| --- | ---: |")
    lines.append(f"| hostile inputs | {inputs} |")
    lines.append(f"| labrun runs | {tally.counts.get('labrun runs', 0)} |")
    lines.append(f"| signal trials | {tally.counts.get('signal trials', 0)} |")
    for kind in ("crash", "hang", "sanitizer", "exit 0 with output missing", "partial set", "temporary left",
                 "orphan process", "forged verdict accepted", "raw error", "name refused", "unexpected status"):
        lines.append(f"| {kind} | {findings.get(kind, 0)} |")
    text = "\n".join(lines) + "\n"
    (out / "summary.txt").write_text(text)
    shutil.rmtree(work, ignore_errors=True)
    print(text)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
