#!/usr/bin/env bash
# Makes what a lease carries to the device machine, on the machine that sends the tree, and checks it
# before any device time is spent. Each development machine starts bare, and .deps/ and build/ are
# ignored by git, so nothing of an earlier session's carry is here; a lease that finds a part missing
# fails on the device (no zlib: the dev configure stops, LABRUN_REQUIRE_ZLIB; no bubblewrap: every
# test that compiles a submission fails), after the machine's start and the build have been paid for.
#
#   scripts/lease/prepare-carry.sh [--baseline COMMIT] [PREVIOUS_COMMIT]
#                                                        make what is missing, then check
#   scripts/lease/prepare-carry.sh --check [--baseline COMMIT] [PREVIOUS_COMMIT]
#                                                        check only: download and pack nothing
#   scripts/lease/prepare-carry.sh --help                this text
#
# What it makes (docs/installing.md says why each one):
#   - .deps/valijson: valijson 1.0's headers (scripts/install-deps.sh makes them);
#   - .deps/bubblewrap_*.deb: Debian 12's bubblewrap package, which scripts/lib/bubblewrap.sh
#     unpacks where the machine has no bwrap (the lent H200s have none);
#   - .deps/zlib: Debian 12's zlib1g-dev unpacked (zlib.h and the static libz.a), which CMake takes
#     where the machine has no zlib1g-dev;
#   - build/tree-commit.txt: the commit the tree travels from and its tracked files' SHA-256s
#     (scripts/lease/tree-commit.sh write), so that the device's build names that commit in its
#     transcripts rather than the copy's stale .git; written again every time;
#   - with PREVIOUS_COMMIT: build/labrun-pre-session.patch, the previous code for the side-by-side
#     timing check (scripts/lease/previous-code.sh pack; it must be packed at the commit that travels,
#     so it is packed again every time);
#   - with --baseline COMMIT: build/labrun-baseline.patch, the same for the code an issue measured its
#     figures with (intervals-benchmark.sh's baseline stage builds it as build/baseline-dev).
# Downloads use `apt-get download` (Debian 12's packages; the device machine has no network).
#
# It then checks the size of what travels: the files git tracks, the untracked files it does not
# ignore, and the carried paths, against the device tool's 64 MiB, and prints the run tool's carry
# argument last, as one line of JSON.
# Exit status: 0 ready; 1 a part is missing or could not be made, or what travels is too large;
# 2 usage.
set -uo pipefail
usage="usage: prepare-carry.sh [--check] [--baseline COMMIT] [PREVIOUS_COMMIT]"
check_only=0
previous=""
baseline=""
while [ "$#" -gt 0 ]; do
  arg=$1
  shift
  case "$arg" in
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --check) check_only=1 ;;
    --baseline)
      if [ "$#" -eq 0 ] || [ -z "$1" ]; then
        echo "prepare-carry: --baseline needs a COMMIT ($usage)" >&2
        exit 2
      fi
      baseline=$1
      shift
      ;;
    -*) echo "prepare-carry: unknown option '$arg' ($usage)" >&2; exit 2 ;;
    *)
      [ -z "$previous" ] || { echo "prepare-carry: one PREVIOUS_COMMIT at most ($usage)" >&2; exit 2; }
      previous=$arg
      ;;
  esac
done
cd "$(dirname "$0")/../.." || exit 2
# The device tool's limit on what travels (tracked files, untracked ones git does not ignore, carry).
limit_bytes=${CARRY_LIMIT_BYTES:-$((64 * 1024 * 1024))}
patch=build/labrun-pre-session.patch
baseline_patch=build/labrun-baseline.patch
tree_commit=build/tree-commit.txt
missing=0
say() { echo "prepare-carry: $*"; }

# Downloads Debian package $1 into a scratch folder and prints the .deb's path there.
download() {
  local scratch
  scratch=$(mktemp -d) || return 1
  (cd "$scratch" && apt-get download "$1" >/dev/null 2>"$scratch/apt.log") || {
    say "could not download $1: $(tail -n 1 "$scratch/apt.log")" >&2
    rm -rf "$scratch"
    return 1
  }
  ls "$scratch"/"$1"_*.deb
}

valijson_ready() { [ -f .deps/valijson/usr/include/valijson/validator.hpp ]; }
bubblewrap_deb() { find .deps -maxdepth 1 -name 'bubblewrap_*.deb' 2>/dev/null | sort | head -n 1; }
bubblewrap_ready() { [ -n "$(bubblewrap_deb)" ]; }
zlib_ready() { [ -f .deps/zlib/usr/include/zlib.h ] && ls .deps/zlib/usr/lib/*/libz.a >/dev/null 2>&1; }

if [ "$check_only" -eq 0 ]; then
  mkdir -p .deps
  if ! valijson_ready; then
    say "no valijson headers in .deps/valijson: running scripts/install-deps.sh"
    scripts/install-deps.sh >/dev/null || say "scripts/install-deps.sh failed" >&2
  fi
  if [ -z "$(bubblewrap_deb)" ]; then
    if deb=$(download bubblewrap); then
      mv "$deb" .deps/ && rm -rf "$(dirname "$deb")"
    fi
  fi
  if ! zlib_ready; then
    if deb=$(download zlib1g-dev); then
      rm -rf .deps/zlib
      dpkg -x "$deb" .deps/zlib || say "could not unpack $deb" >&2
      rm -rf "$(dirname "$deb")"
    fi
  fi
  if [ -n "$previous" ]; then
    scripts/lease/previous-code.sh pack "$previous" "$patch" || missing=1
  fi
  if [ -n "$baseline" ]; then
    scripts/lease/previous-code.sh pack "$baseline" "$baseline_patch" || missing=1
  fi
  scripts/lease/tree-commit.sh write "$tree_commit" >/dev/null || missing=1
fi

report() { # report READY_FUNCTION WHAT HOW_TO_MAKE_IT
  if "$1"; then say "$2"; else say "MISSING: $3"; missing=1; fi
}
report valijson_ready "valijson headers: .deps/valijson" ".deps/valijson (scripts/install-deps.sh)"
report bubblewrap_ready "bubblewrap package: $(bubblewrap_deb)" \
  ".deps/bubblewrap_*.deb ((cd .deps && apt-get download bubblewrap))"
report zlib_ready "zlib: .deps/zlib" ".deps/zlib (apt-get download zlib1g-dev && dpkg -x zlib1g-dev_*.deb .deps/zlib)"
carried=(.deps)
# The tree's commit, written at HEAD for the working tree as it is now (a later edit or commit makes it
# stale: run this again).
if state=$(scripts/lease/tree-commit.sh check "$tree_commit" 2>/dev/null); then
  say "tree commit: $tree_commit, $state"
  carried+=("$tree_commit")
else
  say "MISSING: $tree_commit written at HEAD for the files as they are (scripts/lease/tree-commit.sh write)"
  missing=1
fi
# packed_at_head WHAT PATCH COMMIT: PATCH (previous-code.sh's) turns this HEAD into COMMIT, or it is missing.
packed_at_head() {
  local full
  full=$(git rev-parse --verify --quiet "$3^{commit}")
  if [ -f "$2" ] && [ -n "$full" ] && head -n 1 "$2" | grep -q "turns HEAD $(git rev-parse HEAD) into $full"; then
    say "$1: $2, HEAD $(git rev-parse --short HEAD) back to ${full:0:7}"
    carried+=("$2")
  else
    say "MISSING: $2 packed at HEAD for $3 (scripts/lease/previous-code.sh pack $3 $2)"
    missing=1
  fi
}
[ -z "$previous" ] || packed_at_head "previous code" "$patch" "$previous"
[ -z "$baseline" ] || packed_at_head "baseline" "$baseline_patch" "$baseline"

# What travels: the tracked files as they are in the working tree, the untracked ones git does not
# ignore, and the carried paths.
tree_bytes=$(git ls-files -z --cached --others --exclude-standard | xargs -0 -r stat -c %s -- 2>/dev/null |
  awk '{ s += $1 } END { print s + 0 }')
carry_bytes=$(find "${carried[@]}" -type f -print0 2>/dev/null | xargs -0 -r stat -c %s -- | awk '{ s += $1 } END { print s + 0 }')
total=$((tree_bytes + carry_bytes))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
say "what travels: $(mib "$total") (tree $(mib "$tree_bytes"), carried $(mib "$carry_bytes")), limit $(mib "$limit_bytes")"
if [ "$total" -gt "$limit_bytes" ]; then
  say "TOO LARGE: what travels exceeds the limit"
  missing=1
fi
if [ "$missing" -ne 0 ]; then
  say "not ready"
  exit 1
fi
say "ready; carry:"
printf '['
for i in "${!carried[@]}"; do
  [ "$i" -eq 0 ] || printf ', '
  printf '"%s"' "${carried[$i]}"
done
printf ']\n'
