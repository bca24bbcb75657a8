#pragma once
// compute-sanitizer's verdict, read from its own log file (--log-file), never from the program's
// output, which a kernel's printf could fill with anything, and the options every run of it is given.
// Host logic only.

#include <string>
#include <vector>

namespace labrun {

//! The summary lines of a compute-sanitizer log ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY:
//! ..."), joined with "; "; empty when the log has none (the run did not finish).
[[nodiscard]] std::string sanitizer_summary_lines(const std::string& log);

//! Whether every error count in the summary lines is zero ("ERROR SUMMARY: 0 errors", "RACECHECK
//! SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"), with at least one count present.
[[nodiscard]] bool sanitizer_reports_no_errors(const std::string& summary);

//! compute-sanitizer's command line up to the program it runs, the same for a grading's own run and
//! a group's: `tool`, its log in `log_file`, exit status 99 where it found errors, NVTX's memory API
//! read (the replica's bounds, exercise/sanitizer_bounds.hpp), CUDA API errors left out of its
//! report, at most 20 errors printed. The caller appends the program and its arguments.
[[nodiscard]] std::vector<std::string> sanitizer_command(const std::string& sanitizer,
                                                         const std::string& tool,
                                                         const std::string& log_file);

}  // namespace labrun
