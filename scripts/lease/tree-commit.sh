#!/usr/bin/env bash
# The commit a tree copied to the device machine was sent from, for the transcripts its build writes.
# The device tool copies the working tree with a .git that may be an earlier session's: built there,
# labrun would record that stale HEAD (build.git_commit) as the run's source. This carries the true one.
#
#   scripts/lease/tree-commit.sh write [FILE]   on the machine that sends the tree: writes FILE
#       (default build/tree-commit.txt; carry it): HEAD, whether tracked files differ from it, and the
#       SHA-256 of every tracked file as it is in the working tree
#   scripts/lease/tree-commit.sh check [FILE]   on the machine that sends the tree: exit 0 where FILE
#       was written at this HEAD for the tracked files as they are now (its state printed), else 1
#   scripts/lease/tree-commit.sh env [FILE]     on the device, in the copied tree: prints
#       `export LABRUN_GIT_COMMIT=...` and `export LABRUN_GIT_DIRTY=...` for the build
#       (cmake/git_info.cmake reads them; eval the output). The commit is FILE's. Dirty is FILE's
#       where every listed file is here as it was sent; where one is not, dirty is true and stderr
#       says how many differ. Without FILE it prints nothing: the build falls back to git.
#
# Exit status: 0; 1 FILE unreadable or malformed, git failed (write), or FILE stale (check); 2 usage.
set -uo pipefail
usage="usage: tree-commit.sh write|check|env [FILE]"
case "${1:-}" in
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  write|check|env) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
verb=$1
cd "$(dirname "$0")/../.." || exit 2
file=${2:-build/tree-commit.txt}

# FILE's first line, checked: sets commit and dirty, or says why not and returns 1.
read_header() {
  local first
  first=$(head -n 1 "$file" 2>/dev/null)
  if [[ ! "$first" =~ ^labrun\ tree:\ commit\ ([0-9a-f]{40})\ dirty\ (true|false)$ ]]; then
    echo "tree-commit: $file is not a tree-commit file (first line: '$first')" >&2
    return 1
  fi
  commit=${BASH_REMATCH[1]}
  dirty=${BASH_REMATCH[2]}
}
# How many of the files FILE lists are not here as they were when it was written (missing included).
files_differing() {
  tail -n +2 "$file" | sha256sum --check --quiet 2>/dev/null | grep -c ': FAILED' || true
}

case "$verb" in
  write)
    head=$(git rev-parse --verify HEAD) || { echo "tree-commit: no HEAD here" >&2; exit 1; }
    dirty=false
    [ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=true
    mkdir -p "$(dirname "$file")"
    {
      echo "labrun tree: commit $head dirty $dirty"
      # Every tracked file present in the working tree (a deleted one is part of "dirty" already).
      git ls-files -z --cached | while IFS= read -r -d '' path; do
        [ -f "$path" ] && printf '%s\0' "$path"
      done | xargs -0 -r sha256sum --
    } >"$file.tmp" || { rm -f "$file.tmp"; echo "tree-commit: could not list the tracked files" >&2; exit 1; }
    mv "$file.tmp" "$file"
    echo "tree-commit: wrote $file: ${head:0:7}, dirty $dirty, $(($(wc -l <"$file") - 1)) files"
    ;;
  check)
    [ -e "$file" ] || { echo "tree-commit: no $file" >&2; exit 1; }
    read_header || exit 1
    head=$(git rev-parse --verify HEAD) || exit 1
    [ "$commit" = "$head" ] || { echo "tree-commit: $file names ${commit:0:7}, HEAD is ${head:0:7}" >&2; exit 1; }
    differ=$(files_differing)
    [ "$differ" -eq 0 ] || { echo "tree-commit: $differ files changed since $file was written" >&2; exit 1; }
    echo "${commit:0:7}, dirty $dirty"
    ;;
  env)
    [ -e "$file" ] || exit 0
    read_header || exit 1
    differ=$(files_differing)
    if [ "$differ" -gt 0 ]; then
      echo "tree-commit: $differ of the files sent from ${commit:0:7} differ here: recorded as dirty" >&2
      dirty=true
    fi
    echo "export LABRUN_GIT_COMMIT=$commit"
    echo "export LABRUN_GIT_DIRTY=$dirty"
    ;;
esac
