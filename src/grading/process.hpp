#pragma once
// Running a program as a child process with a wall-clock limit. The child gets its own process
// group, so a time-out kills everything it started.

#include <filesystem>
#include <string>
#include <vector>

namespace labrun {

struct ProcessResult {
  bool started = false;    //!< false when the program could not be executed
  bool timed_out = false;  //!< killed at the limit
  int exit_code = -1;      //!< when it exited normally
  int signal = 0;          //!< when a signal ended it (SIGKILL after a time-out)
  double wall_seconds = 0.0;
  std::string output;  //!< standard output and error together, capped (see run_with_limit)
  [[nodiscard]] bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  //! "exit status 3", "killed by signal 11", "timed out after 30 s", "could not start: ..."
  [[nodiscard]] std::string describe() const;
};

//! Runs argv[0] (searched on PATH) with its arguments in `working_directory`, standard input from
//! /dev/null, standard output and error captured together; keeps at most `output_cap` bytes of it
//! (the first ones, with a note when cut). Kills the child's process group after `limit_seconds`.
[[nodiscard]] ProcessResult run_with_limit(const std::vector<std::string>& argv, double limit_seconds,
                                           const std::filesystem::path& working_directory = {},
                                           std::size_t output_cap = 16384);

//! The path of the running executable (/proc/self/exe).
[[nodiscard]] std::filesystem::path current_executable();

//! Finds a program on PATH; empty when absent.
[[nodiscard]] std::filesystem::path find_on_path(const std::string& program);

}  // namespace labrun
