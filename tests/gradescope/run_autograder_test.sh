#!/usr/bin/env bash
# scripts/gradescope/run_autograder in a Gradescope-shaped folder (AUTOGRADER_ROOT): whatever
# happens, it leaves results/results.json with output_format md. Without a GPU labrun's own
# results.json scores 0 with a message for staff; a submission of two .cu files, a missing labrun,
# an unreachable GPU host and a symbolic link each get a results.json that says why; and labrun is
# given the configured exercise (day 48's by default), whatever the submission's manifest names.
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
out=$(CUDA_VISIBLE_DEVICES='' run_case no-gpu "" "$corpus/correct/halfway.cu" "$corpus/correct/manifest.json")
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
out=$(CUDA_VISIBLE_DEVICES='' FAKE_HOME="$work/fake-home" PATH="$fake:$PATH" run_case hostile-file-name "LABRUN_GPU_HOST=grader@gpu
LABRUN_REMOTE=$labrun" "$hostile/x;touch injected;'y'.cu")
[ ! -e "$work/fake-home/injected" ] || fail "hostile-file-name: the file's name ran a command on the GPU host"
echo "$out" | grep -q "not a mistake" || fail "hostile-file-name: expected labrun's own results.json (no GPU visible)"

# The course picks the exercise, never the submission: a stand-in labrun that records its arguments
# (and writes a results.json, as labrun does) must be given the configured exercise, here for a
# submission whose manifest names another one, on both branches.
recorder="$work/recording-labrun"
cat >"$recorder" <<'SH'
#!/bin/sh
# Stand-in labrun (synthetic): records its arguments in $RECORD and writes a results.json in --out.
printf '%s\n' "$@" >"$RECORD"
while [ $# -gt 0 ]; do
  if [ "$1" = "--out" ]; then mkdir -p "$2"; printf '{"score": 1, "output_format": "md", "tests": [{"name": "recorded"}]}\n' >"$2/results.json"; fi
  shift
done
SH
chmod +x "$recorder"
other="$work/other-exercise"
mkdir -p "$other"
cp "$corpus/correct/halfway.cu" "$other/halfway.cu"
printf '{"exercise": "sum-of-squares"}\n' >"$other/manifest.json"
# Whether the recorded arguments in $1 hold `--exercise $2`.
given_exercise() { [ "$(grep -A1 -x -- "--exercise" "$1" | tail -1)" = "$2" ]; }
labrun=$recorder
RECORD="$work/args-default" run_case pinned-default "" "$other/halfway.cu" "$other/manifest.json" >/dev/null
given_exercise "$work/args-default" day48-fusion/halfway-pair ||
  fail "pinned-default: labrun was not given --exercise day48-fusion/halfway-pair: $(tr '\n' ' ' <"$work/args-default")"
RECORD="$work/args-configured" run_case pinned-configured "LABRUN_EXERCISE=fusion-verdicts/sum-of-squares" \
  "$other/halfway.cu" "$other/manifest.json" >/dev/null
given_exercise "$work/args-configured" fusion-verdicts/sum-of-squares ||
  fail "pinned-configured: labrun was not given the configured exercise"
RECORD="$work/args-remote" FAKE_HOME="$work/fake-home" PATH="$fake:$PATH" run_case pinned-remote \
  "LABRUN_GPU_HOST=grader@gpu
LABRUN_REMOTE=$recorder" "$other/halfway.cu" "$other/manifest.json" >/dev/null
given_exercise "$work/args-remote" day48-fusion/halfway-pair ||
  fail "pinned-remote: the GPU host's labrun was not given --exercise day48-fusion/halfway-pair"
labrun=$real_labrun

# A symbolic link in the submission is not graded (scp would send the file it points to).
root="$work/symlink"
mkdir -p "$root/submission" "$root/source/scripts/gradescope"
cp "$scripts/gradescope/run_autograder" "$root/source/scripts/gradescope/"
cp "$corpus/correct/halfway.cu" "$root/submission/"
ln -s /etc/hostname "$root/submission/manifest.json"
AUTOGRADER_ROOT="$root" LABRUN="$labrun" "$root/source/scripts/gradescope/run_autograder" >/dev/null 2>&1
grep -q "symbolic link" "$root/results/results.json" || fail "symlink: expected the submission with a link not graded"

echo "gradescope test: results.json written with output_format md in every case"
