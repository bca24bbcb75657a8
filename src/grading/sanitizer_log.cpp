#include "grading/sanitizer_log.hpp"

#include <cctype>

namespace labrun {

// The summary lines of a compute-sanitizer log ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY: ...").
std::string sanitizer_summary_lines(const std::string& log) {
  std::string lines;
  std::size_t at = 0;
  while ((at = log.find("SUMMARY:", at)) != std::string::npos) {
    const std::size_t start = log.rfind('\n', at);
    const std::size_t end = log.find('\n', at);
    std::string line = log.substr(
        start == std::string::npos ? 0 : start + 1,
        (end == std::string::npos ? log.size() : end) - (start == std::string::npos ? 0 : start + 1));
    const std::size_t text = line.find_first_not_of("= ");
    lines += (lines.empty() ? "" : "; ") + (text == std::string::npos ? line : line.substr(text));
    at = end == std::string::npos ? log.size() : end;
  }
  return lines;
}

// Whether every error count in compute-sanitizer's summary lines is zero ("ERROR SUMMARY: 0 errors",
// "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"), with at least one count present.
bool sanitizer_reports_no_errors(const std::string& summary) {
  bool counted = false;
  for (std::size_t at = summary.find(" error"); at != std::string::npos;
       at = summary.find(" error", at + 1)) {
    std::size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(summary[digits - 1])) != 0) {
      --digits;
    }
    if (digits == at) {
      continue;  // "error" not preceded by a count
    }
    counted = true;
    if (summary.compare(digits, at - digits, "0") != 0) {
      return false;
    }
  }
  return counted;
}

std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool,
                                           const std::string& log_file) {
  return {sanitizer, "--tool", tool,  "--log-file",          log_file, "--error-exitcode",
          "99",      "--nvtx", "yes", "--report-api-errors", "no",     "--print-limit",
          "20"};
}

}  // namespace labrun
