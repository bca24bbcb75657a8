#!/usr/bin/env bash
# Every file labrun writes reaches its name durably (docs/reliability.md): traced with strace, each
# output file of `labrun aggregate` is written to a temporary file that is fsynced before it is
# linked or renamed to its name, and the folder is fsynced after.
#   strace_fsync_test.sh LABRUN EVIDENCE_DIR
set -euo pipefail
labrun=${1:?usage: strace_fsync_test.sh LABRUN EVIDENCE_DIR}; evidence=${2:?}
# Exit 4 (CTest: skipped) where strace is missing, as on the lent GPU machines.
command -v strace >/dev/null || { echo "strace is not installed (scripts/install-deps.sh --tests): skipped"; exit 4; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
out="$work/out"
# LeakSanitizer cannot run under ptrace: in a sanitizer build (the asan preset) it is off here.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -y -qq -e trace=fsync,fdatasync,rename,renameat,renameat2,link,linkat -o "$work/trace" \
  "$labrun" aggregate "$evidence" --out "$out" >/dev/null
python3 - "$work/trace" "$out" <<'PY'
import os, re, sys
trace, out = sys.argv[1], os.path.realpath(sys.argv[2])
lines = open(trace).read().splitlines()
files = sorted(os.listdir(out))
assert files, "aggregate wrote nothing"
failures = []
for name in files:
    target = os.path.join(out, name)
    placed = [i for i, l in enumerate(lines)
              if re.search(r'\b(linkat|link|renameat2?|rename)\(', l) and re.search(r'"%s"' % re.escape(target), l)
              and ' = 0' in l]
    if not placed:
        failures.append(f"{name}: never linked or renamed into place")
        continue
    at = placed[-1]
    temporary = re.findall(r'"([^"]*\.tmp-[^"]*)"', lines[at])
    synced_before = temporary and any(re.search(r'fsync\(\d+<%s>\) = 0' % re.escape(temporary[0]), l) for l in lines[:at])
    synced_after = any(re.search(r'fsync\(\d+<%s>\) = 0' % re.escape(out), l) for l in lines[at:])
    if not synced_before:
        failures.append(f"{name}: its temporary file was not fsynced before it took the name")
    if not synced_after:
        failures.append(f"{name}: the folder was not fsynced after")
print("\n".join(failures) if failures else f"{len(files)} files, each fsynced, placed, and its folder fsynced")
sys.exit(1 if failures else 0)
PY
