#!/usr/bin/env bash
# The previous code's sources for a side-by-side timing check on the device, carried as a patch
# instead of a tree: the tree that travels (tracked files and what is carried) may not exceed 64 MiB,
# the tracked files alone were 57.7 MiB on 2026-12-05 (32.2 MiB once the committed transcripts were
# stored compressed), and the sources themselves are 3.2 MB.
#
#   scripts/lease/previous-code.sh pack COMMIT [PATCH]   on the carrying machine, at the commit
#       that will travel: writes PATCH (default build/labrun-pre-session.patch), the difference
#       from COMMIT to HEAD over what the previous labrun's build needs (under 100 KB), and checks
#       that HEAD's files with the patch reversed are COMMIT's, byte for byte. Carry PATCH (the run
#       tool's carry takes the file's path).
#   scripts/lease/previous-code.sh unpack DEST [PATCH]   on the device: DEST (absent or empty)
#       becomes the previous code's sources: this tree's files with the patch reversed.
#   scripts/lease/previous-code.sh commit [PATCH]        prints the commit PATCH reverses the tree to
#       (for the build of that code to name it; exit 1 where PATCH is not such a patch).
#
# The paths: src labs cmake CMakeLists.txt CMakePresets.json scripts/draw_plots.py evidence/schema.
# The patch's first lines name COMMIT and the HEAD it was made from, and hold a digest of COMMIT's
# files (their paths and SHA-256s). unpack refuses a tree the patch does not fit (git apply --check),
# and, after reversing it, a result whose digest is not COMMIT's: a patch made at another HEAD (a
# file changed since that the patch does not touch) cannot give a silently different previous code.
# Exit status: 0 done; 1 the patch does not fit or git failed; 2 usage.
set -euo pipefail
usage="usage: previous-code.sh pack COMMIT [PATCH] | unpack DEST [PATCH] | commit [PATCH]"
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0; fi
verb=${1:-}
cd "$(dirname "$0")/../.."
# git apply in the current folder as outside any repository: inside one (DEST under build/), it would
# take the patch's paths from the repository's root and skip, silently, those outside the folder.
outside_git() { GIT_CEILING_DIRECTORIES=$(dirname "$PWD") git "$@"; }
# One SHA-256 over every file under a folder: its path and its content's SHA-256, in byte order.
tree_digest() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64); }
paths=(src labs cmake CMakeLists.txt CMakePresets.json scripts/draw_plots.py evidence/schema)

case "$verb" in
  pack)
    [ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; }
    commit=$2
    patch=${3:-build/labrun-pre-session.patch}
    mkdir -p "$(dirname "$patch")"
    patch=$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")
    full=$(git rev-parse --verify "$commit^{commit}") || { echo "previous-code: no commit $commit" >&2; exit 2; }
    if [ -n "$(git status --porcelain --untracked-files=no -- "${paths[@]}")" ]; then
      echo "previous-code: ${paths[*]} differ from HEAD here; commit first (what travels is HEAD's files)" >&2
      exit 1
    fi
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    mkdir "$scratch/reversed" "$scratch/commit"
    git archive "$full" -- "${paths[@]}" | tar -x -C "$scratch/commit"
    {
      echo "labrun previous code: the reverse of this patch turns HEAD $(git rev-parse HEAD) into $full"
      echo "labrun previous code digest: $(tree_digest "$scratch/commit")"
      echo
      git diff --binary "$full" HEAD -- "${paths[@]}"
    } >"$patch.tmp"
    # The check the device will make, here: HEAD's files, reversed, are the commit's.
    git archive HEAD -- "${paths[@]}" | tar -x -C "$scratch/reversed"
    (cd "$scratch/reversed" && outside_git apply -R "$patch.tmp")
    diff -r -q "$scratch/reversed" "$scratch/commit" >&2 || {
      echo "previous-code: the reversed patch does not give $full's files" >&2
      rm -f "$patch.tmp"
      exit 1
    }
    mv "$patch.tmp" "$patch"
    echo "previous-code: wrote $patch ($(wc -c <"$patch") bytes): HEAD $(git rev-parse --short HEAD) back to ${full:0:7}"
    ;;
  unpack)
    [ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; }
    dest=$2
    patch=${3:-build/labrun-pre-session.patch}
    [ -f "$patch" ] || { echo "previous-code: no patch $patch (pack it on the carrying machine and carry it)" >&2; exit 2; }
    patch=$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")
    if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
      echo "previous-code: $dest exists and is not empty; it is left as it is" >&2
      exit 2
    fi
    mkdir -p "$dest"
    # This tree's files as they are (the copy need not hold .git), then the patch reversed.
    tar -cf - "${paths[@]}" | tar -x -C "$dest"
    (cd "$dest" && outside_git apply --check -R "$patch" && outside_git apply -R "$patch") || {
      echo "previous-code: $patch does not fit this tree's files ($(head -1 "$patch")); $dest removed" >&2
      rm -rf "$dest"
      exit 1
    }
    want=$(sed -n 's/^labrun previous code digest: //p' "$patch" | head -1)
    got=$(tree_digest "$dest")
    if [ -z "$want" ] || [ "$got" != "$want" ]; then
      echo "previous-code: $dest is not the previous code's files (digest ${got:0:12}, the patch's ${want:0:12}:" \
        "the tree has changed since $(head -1 "$patch" | sed 's/.*turns HEAD \([0-9a-f]\{7\}\).*/\1/'); pack again); $dest removed" >&2
      rm -rf "$dest"
      exit 1
    fi
    echo "previous-code: $dest holds the previous code ($(head -1 "$patch" | sed 's/.* into //'))"
    ;;
  commit)
    patch=${2:-build/labrun-pre-session.patch}
    commit=$(sed -n '1s/^labrun previous code: .* into \([0-9a-f]\{40\}\)$/\1/p' "$patch" 2>/dev/null)
    [ -n "$commit" ] || { echo "previous-code: $patch is not a previous-code patch" >&2; exit 1; }
    echo "$commit"
    ;;
  *)
    echo "previous-code: $usage" >&2
    exit 2
    ;;
esac
