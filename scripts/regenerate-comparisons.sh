#!/usr/bin/env bash
# Rewrites every committed comparison under evidence/*/comparisons/ with `labrun compare`, as its
# folder's MANIFEST.tsv says (output, format, baseline, candidate). Comparisons are harness output
# computed from committed transcripts, not measurements: regenerate them when compare's output
# changes, and review the diff.
#
#   scripts/regenerate-comparisons.sh [LABRUN]     # LABRUN defaults to build/ci/labrun
#
# Exit status: 0 written; 1 labrun failed; 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
labrun=${1:-build/ci/labrun}
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
[ -x "$labrun" ] || { echo "regenerate-comparisons: $labrun is not an executable labrun (build it first)" >&2; exit 2; }
for manifest in evidence/*/comparisons/MANIFEST.tsv; do
  folder=$(dirname "$manifest")
  while IFS=$'\t' read -r output format baseline candidate; do
    case "$output" in ''|'#'*) continue ;; esac
    "$labrun" compare "$baseline" "$candidate" --format "$format" >"$folder/$output.tmp"
    mv "$folder/$output.tmp" "$folder/$output"
    echo "regenerate-comparisons: wrote $folder/$output"
  done <"$manifest"
done
