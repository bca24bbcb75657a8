#!/usr/bin/env bash
# The Slurm scripts against a real Slurm: starts a single-node cluster on this machine (munged,
# slurmctld and slurmd on localhost, in a temporary folder, with free ports and one GPU declared as a
# generic resource), submits the grading of CORPUS with scripts/slurm/grade-course.sh (a job array
# and a merge job that waits on it), waits for both, and checks that the merged summary holds
# exactly one row per submission folder. Without a GPU every task records "no GPU" reports scoring
# 0. Stops everything it started, by pid. Nothing is mocked: if Slurm cannot start, the test fails
# and says why.
#
#   tests/slurm/slurm_cluster_test.sh LABRUN CORPUS SCRIPTS_DIR
#
# Needs root (slurmd and munged are started as their users), and Debian's slurm-wlm and munge
# (scripts/install-deps.sh --tests installs them).
set -uo pipefail
labrun=${1:?usage: slurm_cluster_test.sh LABRUN CORPUS SCRIPTS_DIR}
corpus=${2:?usage: slurm_cluster_test.sh LABRUN CORPUS SCRIPTS_DIR}
scripts=${3:?usage: slurm_cluster_test.sh LABRUN CORPUS SCRIPTS_DIR}

fail() {
  echo "slurm test: FAIL: $*" >&2
  for log in "${work:-/nonexistent}"/slurmctld.log "${work:-/nonexistent}"/slurmd.log; do
    [ -f "$log" ] && { echo "--- ${log##*/}" >&2; tail -8 "$log" >&2; }
  done
  exit 1
}
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol runuser; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (scripts/install-deps.sh --tests installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || fail "a single-node Slurm needs root here (slurmctld runs as SlurmUser=root)"
id munge >/dev/null 2>&1 || fail "there is no munge user (the munge package creates it)"

work=$(mktemp -d /tmp/labrun-slurm-XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Three free TCP ports on localhost: slurmctld, slurmd, and one spare.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# munge: its own key, socket and files in the work folder, run as the munge user.
mkdir -p "$work/munge"
mungekey --create --keyfile "$work/munge/munge.key" >/dev/null 2>&1 || fail "mungekey could not create a key"
chown -R munge: "$work/munge"
chmod 755 "$work/munge"
chmod 600 "$work/munge/munge.key"
runuser -u munge -- munged --foreground --socket "$work/munge/munge.socket" --key-file "$work/munge/munge.key" \
  --pid-file "$work/munge/munged.pid" --log-file "$work/munge/munged.log" --seed-file "$work/munge/munged.seed" \
  >"$work/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.socket" ] || fail "munged did not start: $(tail -3 "$work/munge/munged.log" 2>/dev/null)"

mkdir -p "$work/state" "$work/spool" "$work/out"
cpus=$(nproc)
cat >"$work/slurm.conf" <<CONF
ClusterName=labrun-test
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmctldPort=${ctld_port}
SlurmdPort=${slurmd_port}
AuthType=auth/munge
AuthInfo=socket=${work}/munge/munge.socket
CredType=cred/munge
StateSaveLocation=${work}/state
SlurmdSpoolDir=${work}/spool
SlurmctldPidFile=${work}/slurmctld.pid
SlurmdPidFile=${work}/slurmd.pid
SlurmctldLogFile=${work}/slurmctld.log
SlurmdLogFile=${work}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
GresTypes=gpu
NodeName=labrun-node NodeAddr=127.0.0.1 CPUs=${cpus} Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=labrun-node Default=YES MaxTime=INFINITE State=UP
CONF
# No real GPU: a device file stands for it, so that --gres=gpu:1 can be scheduled.
echo "NodeName=labrun-node Name=gpu File=/dev/null" >"$work/gres.conf"
export SLURM_CONF="$work/slurm.conf"

slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N labrun-node -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 120); do
  state=$(sinfo -h -n labrun-node -o %t 2>/dev/null)
  [ "$state" = "idle" ] && break
  sleep 0.5
done
[ "$state" = "idle" ] || fail "the node did not become idle (state '${state}'): $(tail -3 "$work/slurmctld.log" "$work/slurmd.log" 2>/dev/null)"
echo "slurm test: single-node cluster up ($(sinfo -h -o '%P %D %t %G'))"

export LABRUN="$labrun"
# This node has few CPUs: the array tasks ask for one each instead of the script's eight.
submitted=$("$scripts/slurm/grade-course.sh" "$corpus" "$work/out" 3 -- --cpus-per-task=1) || fail "grade-course.sh failed: ${submitted}"
echo "slurm test: ${submitted}"
merge_job=$(echo "$submitted" | sed -n 's/.*merge: job \([0-9]*\).*/\1/p')
[ -n "$merge_job" ] || fail "no merge job in '${submitted}'"
for _ in $(seq 600); do
  [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -o %i)" ] || fail "jobs still queued after 300 s: $(squeue -h)"
[ -f "$work/out/summary.json" ] || fail "the merge job wrote no summary: $(cat "$work"/out/labrun-merge-*.out "$work"/out/labrun-grade-*.out 2>/dev/null | tail -20)"

folders=$(find "$corpus" -mindepth 1 -maxdepth 1 -type d | wc -l)
rows=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$work/out/summary.json")
[ "$rows" -eq "$folders" ] || fail "the merged summary holds ${rows} rows for ${folders} submissions"
python3 - "$work/out/summary.json" <<'PY' || fail "a row of the merged summary is not a 'no GPU' score of 0 where no GPU exists"
import json, subprocess, sys
rows = json.load(open(sys.argv[1]))
names = [r["submission"] for r in rows]
assert len(names) == len(set(names)), "a submission appears twice"
for r in rows:
    # Refused before compiling (no GPU needed) or not graded for want of a GPU: never a made-up score.
    assert r["score"] <= 10 and (not r["graded"] or "include-not-allowed" in r["mistakes"]), r
PY
echo "slurm test: the array of 3 tasks and the merge job graded ${folders} submissions into one summary of ${rows} rows"
