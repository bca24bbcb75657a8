#pragma once
// A shell script that speaks the grading worker's protocol (exercise/worker_protocol.hpp) as
// `labrun-grade-child --serve CONTROL` does, for tests of the worker pool and the sanitizer screen
// on a machine with no GPU. Each job's folder says how its grading behaves, in a file "behaviour":
// hang (never ends), time (asks for its turn to time and waits for it), time-then-finish (times
// for 0.1 s, says "timed", then takes 0.5 s more to finish), timed-then-done (says "timed" once it
// may time and finishes at once, so labrun may see both together), timed-early (says "timed" before it
// asks for its turn, then times for 0.3 s), timed-then-hang (says "timed" once it may time, then
// never ends), slow (takes 0.3 s), fail
// (status 3, and the worker ends), check (150 steps of 10 ms, each appending a line to "steps", and
// between steps gives its turn up where labrun asks, as the child does between checked calls:
// exercise/worker_protocol.hpp); none: a grading that finishes at once. The worker writes its
// process id to "worker-pid" in each job's folder when it takes the job.

#include <filesystem>
#include <string>

#include "base/atomic_file.hpp"

namespace labrun::testing {

inline constexpr const char* kScriptWorker = R"script(#!/bin/sh
control="$2"
say_timed() {
  echo '{"sampling_seconds":0.1,"preparing_seconds":0.03,"checking_seconds":0.05,"clearing_seconds":0.01,"freeing_seconds":0.02}' > "$1/timed.tmp"
  mv "$1/timed.tmp" "$1/timed"
}
: > "$control/ready"
while [ ! -e "$control/stop" ]; do
  if [ -e "$control/job.json" ]; then
    job=$(cat "$control/job.json")
    rm -f "$control/job.json"
    number=$(echo "$job" | sed 's/.*"number":\([0-9]*\).*/\1/')
    folder=$(echo "$job" | sed 's/.*"folder":"\([^"]*\)".*/\1/')
    echo $$ > "$folder/worker-pid"
    behaviour=$(cat "$folder/behaviour" 2>/dev/null)
    status=0
    case "$behaviour" in
      hang) while :; do sleep 1; done ;;
      time) : > "$folder/ready-to-time"; while [ ! -e "$folder/may-time" ]; do sleep 0.01; done ;;
      time-then-finish)
        : > "$folder/ready-to-time"; while [ ! -e "$folder/may-time" ]; do sleep 0.01; done
        sleep 0.1; say_timed "$folder"; sleep 0.5 ;;
      timed-then-done)
        : > "$folder/ready-to-time"; while [ ! -e "$folder/may-time" ]; do sleep 0.01; done
        say_timed "$folder" ;;
      timed-early)
        say_timed "$folder"
        : > "$folder/ready-to-time"; while [ ! -e "$folder/may-time" ]; do sleep 0.01; done
        sleep 0.3 ;;
      timed-then-hang)
        : > "$folder/ready-to-time"; while [ ! -e "$folder/may-time" ]; do sleep 0.01; done
        say_timed "$folder"; while :; do sleep 1; done ;;
      slow) sleep 0.3 ;;
      fail) status=3 ;;
      check)
        i=0
        while [ $i -lt 150 ]; do
          if [ -e "$folder/yield" ]; then
            rm -f "$folder/yield"
            : > "$folder/yielded"
            while [ ! -e "$folder/resume" ]; do sleep 0.005; done
            rm -f "$folder/resume"
          fi
          echo step >> "$folder/steps"
          sleep 0.01
          i=$((i + 1))
        done ;;
    esac
    echo "{\"number\":$number,\"status\":$status,\"problem\":\"\"}" > "$control/done.tmp"
    mv "$control/done.tmp" "$control/done.json"
    [ "$status" = 0 ] || exit "$status"
  fi
  sleep 0.005
done
)script";

//! Writes the script worker as an executable file at `path`.
inline void write_script_worker(const std::filesystem::path& path) {
  write_file_atomically(path, kScriptWorker, false);
  std::filesystem::permissions(path, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                         std::filesystem::perms::group_exec |
                                         std::filesystem::perms::others_read |
                                         std::filesystem::perms::others_exec);
}

}  // namespace labrun::testing
