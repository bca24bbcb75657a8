#!/usr/bin/env bash
# Installs what labrun needs to build, with apt, on Debian 12 (bookworm) or Ubuntu 24.04 (noble).
#
#   scripts/install-deps.sh            # build and run labs
#   scripts/install-deps.sh --tests    # the above plus what the tests need
#   scripts/install-deps.sh --dry-run  # say what it would do, change nothing (with or without --tests)
#   scripts/install-deps.sh --help     # this text
#
# What labrun needs, at least these versions (the packages this script installs have them):
#   - CMake >= 3.25 and Ninja; a C++20 compiler (g++ >= 12) that nvcc accepts as its host compiler
#   - the CUDA Toolkit 12.x or 13.x (nvcc), from NVIDIA's own packages: not installed here
#   - nlohmann/json >= 3.10, spdlog >= 1.10 (with its fmt), CLI11 >= 2.1
#   - zlib's headers, to read transcripts stored gzip-compressed (NAME.json.gz, as committed)
#   - valijson 1.0's headers, unpacked into .deps/valijson (its Debian package would pull in Qt and
#     Poco) or put on the include path by hand
#   - python3 with matplotlib, to draw plots (without it labrun skips them and says why)
#   - bubblewrap (bwrap), the sandbox `labrun grade` and `run --submission` compile submissions in
#     (it needs user namespaces, or root)
#   - with --tests: Catch2 >= 3, clang-format and clang-tidy (14 or newer), Slurm (slurm-wlm)
#     with munge, for the test that grades through a single-node cluster it starts and stops itself,
#     strace, for the test that every write is fsynced before it takes its name, and clang 14 with
#     libFuzzer (clang-14, libfuzzer-14-dev), for the fuzz run
#
# What it changes on the system: apt packages, installed with sudo unless run as root. With --tests
# on Debian 12, whose own Catch2 is version 2, it also adds the apt source bookworm-backports
# (/etc/apt/sources.list.d/labrun-bookworm-backports.sources, derived from this machine's bookworm
# source, left in place afterwards) and installs Catch2 3 (libcatch2-dev) from it, which replaces
# Debian's Catch2 2 (package catch2, before version 3) where that is installed. It says so before
# doing either. When every package is installed already, it runs no apt command at all.
#
# It then looks for nvcc: on PATH, or where NVIDIA's packages put it (/usr/local/cuda/bin), and says
# exactly what to do when it is not on PATH or not installed.
# Exit status: 0 installed, 1 apt failed, 2 usage or unsupported system.
set -euo pipefail

want_tests=0
dry_run=0
for arg in "$@"; do
  case "$arg" in
    --tests) want_tests=1 ;;
    --dry-run) dry_run=1 ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Every change to the system goes through as_root: with --dry-run it is said, not done.
as_root() {
  if [ "$dry_run" -eq 1 ]; then
    echo "install-deps: would run: $*"
    [ "$1" = tee ] && cat >/dev/null
    return 0
  fi
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# shellcheck disable=SC1091
. /etc/os-release 2>/dev/null || { echo "install-deps: cannot read /etc/os-release" >&2; exit 2; }

manual_help() {
  {
    echo "install-deps: ${PRETTY_NAME:-this system} is not one this script knows (Debian 12, Ubuntu 24.04)."
    echo "Install these by hand, then configure with CMake as README.md shows:"
    sed -n '9,20p' "$0" | sed 's/^# \{0,1\}//'
  } >&2
  exit 2
}

base_packages=(cmake ninja-build g++ git nlohmann-json3-dev libspdlog-dev libcli11-dev zlib1g-dev python3-matplotlib bubblewrap)
repo_root=$(cd "$(dirname "$0")/.." && pwd)

# valijson (the JSON Schema validator) is header-only, but its package depends on Qt, Poco and
# five other JSON libraries. Only its headers are needed: download the package and unpack it into
# .deps/valijson (ignored by git), where CMake looks for it.
install_valijson_headers() {
  local target="${repo_root}/.deps/valijson"
  if [ -f "${target}/usr/include/valijson/validator.hpp" ]; then
    return 0
  fi
  if [ "$dry_run" -eq 1 ]; then
    echo "install-deps: would download libvalijson-dev and unpack its headers into ${target}"
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
  echo "install-deps: --tests needs Catch2 3, which Debian 12 has only in bookworm-backports: adding the apt" \
       "source $target (from this machine's bookworm source; it stays after this script)"
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

# Whether every package (and Catch2 3 for the tests) is installed already: then apt is not run.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
installed_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }
# Debian's own Catch2 2 is the package catch2 before version 3; bookworm-backports' catch2 3.x is a
# transitional package beside libcatch2-dev 3, and nothing to replace.
catch2_2_installed() { installed catch2 && dpkg --compare-versions "$(installed_version catch2)" lt 3; }
catch2_3_installed() { installed libcatch2-dev && dpkg --compare-versions "$(installed_version libcatch2-dev)" ge 3; }
everything_installed() {
  local package
  for package in "${base_packages[@]}"; do installed "$package" || return 1; done
  if [ "$want_tests" -eq 1 ]; then
    for package in clang-format clang-tidy slurm-wlm munge strace clang-14 libfuzzer-14-dev; do
      installed "$package" || return 1
    done
    catch2_3_installed || return 1
  fi
  [ -f "${repo_root}/.deps/valijson/usr/include/valijson/validator.hpp" ]
}

# Where nvcc is, and what to do when it is not on PATH or not installed.
report_nvcc() {
  if command -v nvcc >/dev/null 2>&1; then
    echo "install-deps: nvcc: $(command -v nvcc)"
    return 0
  fi
  local found=""
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    found=/usr/local/cuda/bin/nvcc
  else
    found=$(ls -d /usr/local/cuda-*/bin/nvcc 2>/dev/null | sort -V | tail -n 1 || true)
  fi
  if [ -n "$found" ]; then
    echo "install-deps: note: nvcc is at $found but not on PATH. CMake finds it there by itself; to use it" >&2
    echo "  yourself, add its folder to PATH (in ~/.profile too): export PATH=$(dirname "$found"):\$PATH" >&2
  else
    echo "install-deps: WARNING: nvcc (the CUDA compiler) was not found on PATH or in /usr/local/cuda*/bin." >&2
    echo "  Install the CUDA Toolkit 12.x or 13.x from NVIDIA (https://developer.nvidia.com/cuda-downloads)," >&2
    echo "  then: export PATH=/usr/local/cuda/bin:\$PATH" >&2
  fi
}

export DEBIAN_FRONTEND=noninteractive
if everything_installed; then
  echo "install-deps: every package is installed already; apt not run"
  report_nvcc
  echo "install-deps: done"
  exit 0
fi
case "${ID}:${VERSION_ID:-}" in
  debian:12)
    if [ "$want_tests" -eq 1 ]; then enable_bookworm_backports; fi
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends "${base_packages[@]}"
    install_valijson_headers
    if [ "$want_tests" -eq 1 ]; then
      if catch2_3_installed; then
        echo "install-deps: Catch2 $(installed_version libcatch2-dev) is installed already (libcatch2-dev)"
      else
        if catch2_2_installed; then
          echo "install-deps: installing Catch2 3 (libcatch2-dev from bookworm-backports), which replaces" \
               "Debian's Catch2 $(installed_version catch2) (package catch2) on this system"
        fi
        as_root apt-get install -y -qq --no-install-recommends -t bookworm-backports libcatch2-dev
      fi
      as_root apt-get install -y -qq --no-install-recommends clang-format clang-tidy slurm-wlm munge strace \
        clang-14 libfuzzer-14-dev
    fi
    ;;
  ubuntu:24.04)
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends "${base_packages[@]}"
    install_valijson_headers
    if [ "$want_tests" -eq 1 ]; then
      as_root apt-get install -y -qq --no-install-recommends libcatch2-dev clang-format clang-tidy slurm-wlm munge \
        strace clang-14 libfuzzer-14-dev
    fi
    ;;
  *) manual_help ;;
esac

report_nvcc
echo "install-deps: done"
