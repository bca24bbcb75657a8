# Sourced by the scripts that grade on a lent GPU machine, from the repository root: the grader
# compiles submissions in bubblewrap, and where the machine has none (the lent H200s) the Debian
# package carried in .deps/ (`(cd .deps && apt-get download bubblewrap)` on the machine that sends
# the tree) is unpacked into /tmp/labrun-bubblewrap once and LABRUN_BWRAP names it. Says which it
# used, or that there is none (grades then report that the compiler sandbox cannot start).
if ! command -v bwrap >/dev/null 2>&1 && [ -z "${LABRUN_BWRAP:-}" ]; then
  labrun_bwrap_deb=$(ls .deps/bubblewrap_*.deb 2>/dev/null | head -n 1)
  if [ -x /tmp/labrun-bubblewrap/usr/bin/bwrap ] ||
     { [ -n "$labrun_bwrap_deb" ] && dpkg -x "$labrun_bwrap_deb" /tmp/labrun-bubblewrap; }; then
    export LABRUN_BWRAP=/tmp/labrun-bubblewrap/usr/bin/bwrap
    echo "bubblewrap from ${labrun_bwrap_deb:-/tmp/labrun-bubblewrap}: $("$LABRUN_BWRAP" --version)"
  else
    echo "no bubblewrap: grading tests will report that the compiler sandbox cannot start"
  fi
fi
