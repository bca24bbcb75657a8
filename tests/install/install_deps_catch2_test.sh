#!/usr/bin/env bash
# scripts/install-deps.sh --tests, on Debian 12, where a package is missing (strace) and Catch2 3 is
# installed already (libcatch2-dev 3.7.1, with its transitional catch2 3.7.1): it must say Catch2 3 is
# there, not that it replaces Catch2 2. And where Debian's Catch2 2 is installed, it must say it
# replaces it. --dry-run says what it would do and changes nothing; dpkg-query is a stand-in that
# answers from a table, so the test needs neither root nor the packages' states.
# Usage: install_deps_catch2_test.sh SOURCE_DIR. Exit 4 (skipped) on a system other than Debian 12.
set -euo pipefail
source_dir=$1
. /etc/os-release
if [ "${ID}:${VERSION_ID:-}" != "debian:12" ]; then
  echo "not Debian 12: skipped"
  exit 4
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A dpkg-query that answers -W -f='${Status}' and -W -f='${Version}' from $FAKE_PACKAGES
# ("name=version" words; a package not listed is not installed).
mkdir -p "$work/bin"
cat >"$work/bin/dpkg-query" <<'FAKE'
#!/usr/bin/env bash
format=$2; package=$3
for entry in $FAKE_PACKAGES; do
  if [ "${entry%%=*}" = "$package" ]; then
    case "$format" in
      *Status*) echo "install ok installed" ;;
      *Version*) echo "${entry#*=}" ;;
    esac
    exit 0
  fi
done
exit 1
FAKE
chmod +x "$work/bin/dpkg-query"

everything="cmake=1 ninja-build=1 g++=1 git=1 nlohmann-json3-dev=1 libspdlog-dev=1 libcli11-dev=1 \
python3-matplotlib=1 bubblewrap=1 clang-format=1 clang-tidy=1 slurm-wlm=1 munge=1 clang-14=1 libfuzzer-14-dev=1"
fail() { echo "FAIL: $*"; exit 1; }

# Catch2 3 installed, strace missing.
out=$(FAKE_PACKAGES="$everything catch2=3.7.1-0.4~bpo12+1 libcatch2-dev=3.7.1-0.4~bpo12+1" \
      PATH="$work/bin:$PATH" bash "$source_dir/scripts/install-deps.sh" --tests --dry-run 2>&1)
echo "$out"
echo "$out" | grep -q "would run: apt-get install" || fail "strace is missing: apt should be run"
echo "$out" | grep -q "Catch2 2" && fail "it says it replaces Catch2 2 where Catch2 3 is installed"
echo "$out" | grep -q "Catch2 3.7.1-0.4~bpo12+1 is installed already" || fail "it does not say Catch2 3 is installed"
echo "$out" | grep -q "would run: .*libcatch2-dev" && fail "it would install Catch2 3 again"

# Debian's Catch2 2 installed: it says it replaces it.
out=$(FAKE_PACKAGES="$everything strace=1 catch2=2.13.10-1" \
      PATH="$work/bin:$PATH" bash "$source_dir/scripts/install-deps.sh" --tests --dry-run 2>&1)
echo "$out"
echo "$out" | grep -q "replaces Debian's Catch2 2.13.10-1 (package catch2)" || fail "it does not say it replaces Catch2 2"
echo "$out" | grep -q "would run: apt-get install .*-t bookworm-backports libcatch2-dev" || fail "it would not install Catch2 3"
echo "PASS"
