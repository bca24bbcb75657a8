#!/usr/bin/env bash
# Installs what labrun needs to build, with apt, on Debian 12 (bookworm) or Ubuntu 24.04 (noble).
#
#   scripts/install-deps.sh            # build and run labs: CMake, Ninja, nlohmann/json, spdlog, CLI11,
#                                      # valijson's headers (unpacked into .deps/, see below), and
#                                      # matplotlib for python3 (scripts/draw_plots.py draws the plots)
#   scripts/install-deps.sh --tests    # the above plus Catch2 v3, clang-format and clang-tidy, and
#                                      # slurm-wlm and munge for the Slurm test (tests only; the test
#                                      # starts its own single-node cluster and stops it again)
#
# The CUDA Toolkit (nvcc, 12.x or 13.x) is not installed here: it comes from NVIDIA's own packages.
# Needs root (or sudo). Exit status: 0 installed, 1 apt failed, 2 usage or unsupported system.
set -euo pipefail

want_tests=0
for arg in "$@"; do
  case "$arg" in
    --tests) want_tests=1 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# shellcheck disable=SC1091
. /etc/os-release 2>/dev/null || { echo "install-deps: cannot read /etc/os-release" >&2; exit 2; }

manual_help() {
  cat >&2 <<TXT
install-deps: ${PRETTY_NAME:-this system} is not one this script knows (Debian 12, Ubuntu 24.04).
Install these by hand, then configure with CMake as README.md shows:
  - CMake >= 3.25 and Ninja
  - a C++17 host compiler supported by your nvcc, and the CUDA Toolkit (12.x or 13.x)
  - nlohmann/json >= 3.10, spdlog >= 1.10 (with its fmt), CLI11 >= 2.1
  - valijson 1.0 headers (header-only), in .deps/valijson/usr/include or on the include path
  - python3 with matplotlib (to draw plots; without it labrun skips them and says why)
  - Catch2 v3, clang-format and clang-tidy (only to build and run the tests)
TXT
  exit 2
}

base_packages=(cmake ninja-build g++ git nlohmann-json3-dev libspdlog-dev libcli11-dev python3-matplotlib)
repo_root=$(cd "$(dirname "$0")/.." && pwd)

# valijson (the JSON Schema validator) is header-only, but its package depends on Qt, Poco and
# five other JSON libraries. Only its headers are needed: download the package and unpack it into
# .deps/valijson (ignored by git), where CMake looks for it.
install_valijson_headers() {
  local target="${repo_root}/.deps/valijson"
  if [ -f "${target}/usr/include/valijson/validator.hpp" ]; then
    return 0
  fi
  local scratch
  scratch=$(mktemp -d)
  chmod 755 "$scratch"
  if ! (cd "$scratch" && apt-get download libvalijson-dev >/dev/null); then
    echo "install-deps: could not download libvalijson-dev; put valijson's include/ under ${target}/usr/include by hand" >&2
    rm -rf "$scratch"
    exit 1
  fi
  mkdir -p "$target"
  dpkg -x "$scratch"/libvalijson-dev_*.deb "$target"
  rm -rf "$scratch"
  echo "install-deps: valijson headers in ${target}/usr/include"
}

# Debian 12 ships Catch2 v2 only; v3 is libcatch2-dev in bookworm-backports. The backports entry
# is derived from this machine's own bookworm entry (same URIs and keyring) so that no mirror
# address is written into the repository.
enable_bookworm_backports() {
  local target=/etc/apt/sources.list.d/labrun-bookworm-backports.sources
  if apt-cache policy 2>/dev/null | grep -q 'bookworm-backports'; then
    return 0
  fi
  local uris="" signed_by=""
  local deb822
  for deb822 in /etc/apt/sources.list.d/*.sources; do
    [ -f "$deb822" ] || continue
    # Take the first stanza whose Suites name plain "bookworm".
    read -r uris signed_by < <(awk '
      BEGIN { RS = ""; FS = "\n" }
      {
        u = ""; s = ""; suites = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)      { u = $i; sub(/^URIs:[ \t]*/, "", u) }
          if ($i ~ /^Signed-By:/) { s = $i; sub(/^Signed-By:[ \t]*/, "", s) }
          if ($i ~ /^Suites:/)    { suites = " " $i " " }
        }
        if (suites ~ /[ \t]bookworm[ \t]/ && u != "") { print u "\t" s; exit }
      }' "$deb822" | tr '\t' ' ' || true)
    [ -n "$uris" ] && break
  done
  if [ -z "$uris" ] && [ -f /etc/apt/sources.list ]; then
    uris=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
  fi
  if [ -z "$uris" ]; then
    echo "install-deps: found no bookworm entry in /etc/apt to derive bookworm-backports from;" >&2
    echo "  add bookworm-backports by hand, then: apt-get install -t bookworm-backports libcatch2-dev" >&2
    exit 1
  fi
  {
    echo "# Written by labrun's scripts/install-deps.sh from this machine's bookworm entry."
    echo "Types: deb"
    echo "URIs: ${uris}"
    echo "Suites: bookworm-backports"
    echo "Components: main"
    [ -n "$signed_by" ] && echo "Signed-By: ${signed_by}"
  } | as_root tee "$target" >/dev/null
  echo "install-deps: enabled bookworm-backports in $target (URIs: $uris)"
}

export DEBIAN_FRONTEND=noninteractive
case "${ID}:${VERSION_ID:-}" in
  debian:12)
    if [ "$want_tests" -eq 1 ]; then enable_bookworm_backports; fi
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends "${base_packages[@]}"
    install_valijson_headers
    if [ "$want_tests" -eq 1 ]; then
      as_root apt-get install -y -qq --no-install-recommends -t bookworm-backports libcatch2-dev
      as_root apt-get install -y -qq --no-install-recommends clang-format clang-tidy slurm-wlm munge
    fi
    ;;
  ubuntu:24.04)
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends "${base_packages[@]}"
    install_valijson_headers
    if [ "$want_tests" -eq 1 ]; then
      as_root apt-get install -y -qq --no-install-recommends libcatch2-dev clang-format clang-tidy slurm-wlm munge
    fi
    ;;
  *) manual_help ;;
esac

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: note: nvcc was not found; install the CUDA Toolkit (12.x or 13.x) from NVIDIA." >&2
fi
echo "install-deps: done"
