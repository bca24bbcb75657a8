#pragma once
// compute-sanitizer's verdict, read from its own log file (--log-file), never from the program's
// output, which a kernel's printf could fill with anything, and the options every run of it is given.
// Host logic only.

#include <cstddef>
#include <string>
#include <vector>

namespace labrun {

//! The summary lines of a compute-sanitizer log ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY:
//! ..."), joined with "; "; empty when the log has none (the run did not finish). A summary line's
//! text is capitals and spaces up to "SUMMARY:", so a report's line that names a kernel in a
//! namespace called SUMMARY is none.
[[nodiscard]] std::string sanitizer_summary_lines(const std::string& log);

//! The log's first report, the lines that say what went wrong and where, without the backtraces
//! that follow ("Invalid __global__ read of size 4 bytes, at k(const float *)+0x90 in s.cu:12, by
//! thread (0,0,0) in block (512,0,0), Address 0x7f00 is out of bounds"), joined with ", ": at most
//! kSanitizerFirstErrorLines lines of at most kSanitizerFirstErrorLineBytes bytes each. Empty when
//! the log reports nothing before its summary. The text is compute-sanitizer's, but it names the
//! submission's own kernels, so a caller makes it inert before it shows it.
inline constexpr std::size_t kSanitizerFirstErrorLines = 6;
inline constexpr std::size_t kSanitizerFirstErrorLineBytes = 240;
[[nodiscard]] std::string sanitizer_first_error(const std::string& log);

//! One compute-sanitizer run read from its log and how its process ended (`succeeded`, and
//! `how_it_ended` in words, process/process.hpp's describe()), the log read once.
struct SanitizerLogReading {
  std::string summary;             //!< sanitizer_summary_lines: empty where the run did not finish
  bool reports_no_errors = false;  //!< sanitizer_reports_no_errors(summary)
  //! What a grading says of the run: the summary lines, how it ended where it did not succeed,
  //! and, where it was not clean, the log's first report ("ERROR SUMMARY: 1 error (exit status 99)
  //! (first report: Invalid __global__ read ...)"); "no summary (how it ended)" where the log has
  //! none. Not yet inert: the caller makes it valid UTF-8.
  std::string said;
};
[[nodiscard]] SanitizerLogReading read_sanitizer_log(const std::string& log, bool succeeded,
                                                     const std::string& how_it_ended);

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
