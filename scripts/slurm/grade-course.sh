#!/usr/bin/env bash
# Submits the grading of a course to Slurm: a job array of TASKS tasks (one GPU each) over the
# submissions, then the merge job that waits for all of them. Prints both job IDs.
#
#   scripts/slurm/grade-course.sh SUBMISSIONS OUT [TASKS] [-- SBATCH_OPTIONS...]
#
# TASKS defaults to 4. Options after -- go to both sbatch calls (a partition, an account). The
# folders must be on a file system every node sees. Exit status: 0 submitted; 2 usage; else sbatch's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: scripts/slurm/grade-course.sh SUBMISSIONS OUT [TASKS] [-- SBATCH_OPTIONS...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
submissions=$(cd "$1" && pwd) || usage
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
tasks=4
if [ $# -gt 0 ] && [ "$1" != "--" ]; then tasks=$1; shift; fi
[ $# -gt 0 ] && { [ "$1" = "--" ] || usage; shift; }
case $tasks in '' | *[!0-9]* | 0) usage ;; esac
array=$(sbatch --parsable "$@" --chdir "$out" --array "0-$((tasks - 1))" "$here/grade-array.sbatch" "$submissions" "$out")
array=${array%%;*}
merge=$(sbatch --parsable "$@" --chdir "$out" --dependency "afterok:${array}" "$here/merge.sbatch" "$out")
merge=${merge%%;*}
echo "grading array: job ${array} (${tasks} tasks); merge: job ${merge}; summary: ${out}/summary.md"
