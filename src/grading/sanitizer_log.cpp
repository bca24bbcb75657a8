#include "grading/sanitizer_log.hpp"

#include <cctype>

namespace labrun {

namespace {

// A log line without compute-sanitizer's "=========" prefix; `indented` says whether its text is a
// detail of the report above it ("=========     at ...") rather than a report's first line.
struct LogLine {
  std::string text;
  bool indented = false;
};

LogLine log_line(const std::string& line) {
  const std::size_t at = line.find_first_not_of('=');
  if (at == std::string::npos) {
    return {};
  }
  const std::size_t text = line.find_first_not_of(" \t\r", at);
  if (text == std::string::npos) {
    return {};
  }
  const std::size_t end = line.find_last_not_of(" \t\r");
  return {line.substr(text, end + 1 - text), text - at > 1};
}

// Where a report's useful part ends: its backtraces, which name labrun's frames, not the submission's.
bool is_backtrace(const std::string& text) {
  for (const char* opening : {"Saved host backtrace", "Host Frame", "Device Frame", "Device Backtrace"}) {
    if (text.rfind(opening, 0) == 0) {
      return true;
    }
  }
  return false;
}

// A summary line: its text capitals and spaces up to "SUMMARY:" ("ERROR SUMMARY: 0 errors",
// "RACECHECK SUMMARY: ..."), however far it is indented. A report's line that names a kernel in a
// namespace called SUMMARY ("at SUMMARY::k()+0x10", "Error: Race reported between Write access at
// SUMMARY::k...") has lower-case text before it, so it is not one.
bool is_summary(const LogLine& line) {
  const std::size_t at = line.text.find("SUMMARY:");
  if (at == std::string::npos) {
    return false;
  }
  for (std::size_t i = 0; i < at; ++i) {
    const char c = line.text[i];
    if (c != ' ' && (c < 'A' || c > 'Z')) {
      return false;
    }
  }
  return true;
}

// Calls `each` with every line of `log` in order until it returns false.
template <typename Each>
void for_each_log_line(const std::string& log, Each each) {
  std::size_t from = 0;
  while (from < log.size()) {
    std::size_t end = log.find('\n', from);
    if (end == std::string::npos) {
      end = log.size();
    }
    if (!each(log_line(log.substr(from, end - from)))) {
      return;
    }
    from = end + 1;
  }
}

}  // namespace

// The summary lines of a compute-sanitizer log ("ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY: ...").
std::string sanitizer_summary_lines(const std::string& log) {
  std::string lines;
  for_each_log_line(log, [&lines](const LogLine& line) {
    if (is_summary(line)) {
      lines += (lines.empty() ? "" : "; ") + line.text;
    }
    return true;
  });
  return lines;
}

std::string sanitizer_first_error(const std::string& log) {
  std::string joined;
  std::size_t lines = 0;
  bool in_report = false;
  for_each_log_line(log, [&](const LogLine& line) {
    if (!in_report) {
      if (line.text.empty() || line.indented || line.text == "COMPUTE-SANITIZER") {
        return true;
      }
      if (is_summary(line)) {
        return false;  // nothing was reported before the summary
      }
      in_report = true;
    } else if (line.text.empty() || !line.indented || is_backtrace(line.text)) {
      return false;
    }
    std::string text = line.text.substr(0, kSanitizerFirstErrorLineBytes);
    if (text.size() < line.text.size()) {
      text += "...";
    }
    joined += (joined.empty() ? "" : ", ") + text;
    return ++lines < kSanitizerFirstErrorLines;
  });
  return joined;
}

SanitizerLogReading read_sanitizer_log(const std::string& log, bool succeeded,
                                       const std::string& how_it_ended) {
  SanitizerLogReading reading;
  reading.summary = sanitizer_summary_lines(log);
  reading.reports_no_errors = sanitizer_reports_no_errors(reading.summary);
  if (reading.summary.empty()) {
    reading.said = "no summary (" + how_it_ended + ")";
    return reading;
  }
  reading.said = reading.summary + (succeeded ? "" : " (" + how_it_ended + ")");
  if (!(succeeded && reading.reports_no_errors)) {
    const std::string first = sanitizer_first_error(log);
    reading.said += first.empty() ? "" : " (first report: " + first + ")";
  }
  return reading;
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
