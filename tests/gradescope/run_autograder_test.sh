#!/usr/bin/env bash
# scripts/gradescope/run_autograder in a Gradescope-shaped folder (AUTOGRADER_ROOT): whatever
# happens, it leaves results/results.json with output_format md. Without a GPU labrun's own
# results.json scores 0 with a message for staff; a submission of two .cu files, a missing labrun
# and an unreachable GPU host each get a results.json that says why.
#
#   tests/gradescope/run_autograder_test.sh LABRUN CORPUS SCRIPTS_DIR
set -uo pipefail
labrun=${1:?usage: run_autograder_test.sh LABRUN CORPUS SCRIPTS_DIR}
corpus=${2:?}
scripts=${3:?}
fail() { echo "gradescope test: FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Copies run_autograder into a fresh Gradescope tree with the given config, and runs it there.
run_case() {
  local name=$1 config=$2
  shift 2
  local root="$work/$name"
  mkdir -p "$root/submission" "$root/source/scripts/gradescope"
  cp "$scripts/gradescope/run_autograder" "$root/source/scripts/gradescope/"
  printf '%s\n' "$config" >"$root/source/scripts/gradescope/labrun-grader.conf"
  for f in "$@"; do cp "$f" "$root/submission/"; done
  AUTOGRADER_ROOT="$root" LABRUN="$labrun" "$root/source/scripts/gradescope/run_autograder" >/dev/null 2>&1 ||
    fail "$name: run_autograder exited $?"
  python3 - "$root/results/results.json" "$name" <<'PY' || fail "$name: results.json is not what Gradescope needs"
import json, sys
results = json.load(open(sys.argv[1]))
assert results["output_format"] == "md", results
assert isinstance(results["score"], (int, float)), results
assert results["tests"], results
PY
  cat "$root/results/results.json"
}

# No GPU, on any machine: CUDA sees none when CUDA_VISIBLE_DEVICES is empty.
out=$(CUDA_VISIBLE_DEVICES= run_case no-gpu "" "$corpus/correct/halfway.cu" "$corpus/correct/manifest.json")
echo "$out" | grep -q '"score": 0' || fail "no-gpu: expected a score of 0 without a GPU"
echo "$out" | grep -q "not a mistake" || fail "no-gpu: expected the message for staff"

# Two .cu files: nothing is graded, and the student is told what to submit.
root="$work/two-files"
mkdir -p "$root/submission" "$root/source/scripts/gradescope"
cp "$scripts/gradescope/run_autograder" "$root/source/scripts/gradescope/"
cp "$corpus/correct/halfway.cu" "$root/submission/a.cu"
cp "$corpus/correct/halfway.cu" "$root/submission/b.cu"
AUTOGRADER_ROOT="$root" LABRUN="$labrun" "$root/source/scripts/gradescope/run_autograder" >/dev/null 2>&1
grep -q "exactly one .cu file" "$root/results/results.json" || fail "two-files: expected 'exactly one .cu file'"

real_labrun=$labrun
labrun=/nonexistent/labrun
out=$(run_case missing-labrun "" "$corpus/correct/halfway.cu")
echo "$out" | grep -q '"score": 0' || fail "missing-labrun: expected a score of 0"
echo "$out" | grep -q "no labrun at /nonexistent/labrun" || fail "missing-labrun: expected the staff message"
labrun=$real_labrun

if command -v ssh >/dev/null 2>&1; then
  out=$(run_case unreachable-host 'LABRUN_GPU_HOST=nobody@127.0.0.1
LABRUN_SSH_OPTIONS="-o BatchMode=yes -o ConnectTimeout=3 -p 1"' "$corpus/correct/halfway.cu")
  echo "$out" | grep -q "cannot reach the GPU grader" || fail "unreachable-host: expected the staff message"
fi
# A GPU host reached over ssh, played by this machine: fake ssh and scp run the command and copy
# here. The submission's file name tries to run a command in the remote shell; it must be graded
# as a file of that name and run nothing.
fake="$work/fake-bin"
mkdir -p "$fake"
cat >"$fake/ssh" <<'SH'
#!/bin/sh
# ssh HOST COMMAND...: COMMAND run by a shell here, as the remote user's shell would, in $FAKE_HOME.
shift
cd "$FAKE_HOME" && exec sh -c "$*"
SH
cat >"$fake/scp" <<'SH'
#!/bin/sh
# scp [-q] [-r] FROM TO, where either may be HOST:PATH: copied here.
while [ "${1#-}" != "$1" ]; do shift; done
from=${1#*:}; to=${2#*:}
case $to in */) mkdir -p "$to" ;; esac
exec cp -r "$from" "$to"
SH
chmod +x "$fake/ssh" "$fake/scp"
mkdir -p "$work/fake-home"
hostile="$work/hostile-name"
mkdir -p "$hostile"
cp "$corpus/correct/halfway.cu" "$hostile/x;touch injected;'y'.cu"
# No GPU for the "remote" labrun either, on any machine (CUDA_VISIBLE_DEVICES empty).
out=$(CUDA_VISIBLE_DEVICES= FAKE_HOME="$work/fake-home" PATH="$fake:$PATH" run_case hostile-file-name "LABRUN_GPU_HOST=grader@gpu
LABRUN_REMOTE=$labrun" "$hostile/x;touch injected;'y'.cu")
[ ! -e "$work/fake-home/injected" ] || fail "hostile-file-name: the file's name ran a command on the GPU host"
echo "$out" | grep -q "not a mistake" || fail "hostile-file-name: expected labrun's own results.json (no GPU visible)"

echo "gradescope test: results.json written with output_format md in every case"
