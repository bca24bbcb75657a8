#!/usr/bin/env bash
# Gradescope's setup step for labrun's day-48 exercise (docs/grading-at-scale.md): runs once when
# the autograder image is built, from /autograder/source (the zip holds the labrun repository and,
# optionally, labrun-grader.conf beside this script).
#
# Gradescope's runners have no GPU, so the usual set-up only needs ssh: run_autograder sends each
# submission to the course's GPU machine (LABRUN_GPU_HOST in labrun-grader.conf), where labrun is
# installed, and brings its results.json back. With LABRUN_BUILD=1 in the config (a runner that
# does have a GPU and the CUDA Toolkit), labrun is built here instead and grades locally.
set -euo pipefail
source_dir=${AUTOGRADER_ROOT:-/autograder}/source
config="${source_dir}/scripts/gradescope/labrun-grader.conf"
[ -f "$config" ] && . "$config"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends openssh-client python3 ca-certificates
if [ "${LABRUN_BUILD:-0}" = "1" ]; then
  cd "$source_dir"
  bash scripts/install-deps.sh
  export PATH="/usr/local/cuda/bin:${PATH}"
  cmake --preset day48-fusion -DLABRUN_REGISTER_LAB_RUNS=OFF
  cmake --build --preset day48-fusion
fi
echo "setup.sh: done"
