#pragma once
// compute-sanitizer's verdict, read from its own log file (--log-file), never from the program's
// output, which a kernel's printf could fill with anything. Host logic only.

#include <string>

namespace labrun {

//! The summary lines of a compute-sanitizer log ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY:
//! ..."), joined with "; "; empty when the log has none (the run did not finish).
[[nodiscard]] std::string sanitizer_summary_lines(const std::string& log);

//! Whether every error count in the summary lines is zero ("ERROR SUMMARY: 0 errors", "RACECHECK
//! SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"), with at least one count present.
[[nodiscard]] bool sanitizer_reports_no_errors(const std::string& summary);

}  // namespace labrun
