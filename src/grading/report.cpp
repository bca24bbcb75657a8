#include "grading/report.hpp"

#include <sstream>

#include "base/format.hpp"
#include "grading/utf8.hpp"

namespace labrun {

double GradeReport::score() const {
  double total = 0.0;
  for (const GradeTest& test : tests) {
    total += test.score;
  }
  return total;
}

double GradeReport::max_score() const {
  double total = 0.0;
  for (const GradeTest& test : tests) {
    total += test.max_score;
  }
  return total;
}

bool GradeReport::has_mistake(const std::string& id) const {
  for (const NamedMistake& mistake : mistakes) {
    if (mistake.id == id) {
      return true;
    }
  }
  return false;
}

nlohmann::ordered_json gradescope_results(const GradeReport& report) {
  nlohmann::ordered_json tests = nlohmann::ordered_json::array();
  for (const GradeTest& test : report.tests) {
    tests.push_back({{"name", valid_utf8(test.name)},
                     {"status", test.passed ? "passed" : "failed"},
                     {"score", test.score},
                     {"max_score", test.max_score},
                     {"output", valid_utf8(test.output)},
                     {"visibility", test.visibility}});
  }
  return {{"score", report.score()},
          {"execution_time", report.execution_seconds},
          {"output_format", "md"},
          {"tests", tests}};
}

nlohmann::ordered_json report_json(const GradeReport& report) {
  nlohmann::ordered_json document = gradescope_results(report);
  document["lab"] = report.lab;
  document["student_id"] = valid_utf8(report.student_id);
  document["submission"] = valid_utf8(report.submission);
  if (!report.grader_problem_kind.empty()) {
    document["grader_problem"] = report.grader_problem_kind;
  }
  document["environment"] = {{"device", valid_utf8(report.device)},
                             {"device_uuid", valid_utf8(report.device_uuid)},
                             {"host", valid_utf8(report.host)}};
  document["max_score"] = report.max_score();
  if (!report.phase_seconds.empty()) {
    nlohmann::ordered_json phases = nlohmann::ordered_json::object();
    for (const auto& [phase, seconds] : report.phase_seconds) {
      phases[phase] = seconds;
    }
    document["phase_seconds"] = phases;
  }
  nlohmann::ordered_json mistakes = nlohmann::ordered_json::array();
  for (const NamedMistake& mistake : report.mistakes) {
    mistakes.push_back({{"id", mistake.id}, {"explanation", valid_utf8(mistake.explanation)}});
  }
  document["mistakes"] = mistakes;
  nlohmann::ordered_json figures = nlohmann::ordered_json::object();
  for (const auto& [label, value] : report.figures) {
    figures[label] = valid_utf8(value);
  }
  document["figures"] = figures;
  document["raw"] = report.raw;
  return document;
}

std::string report_markdown(const GradeReport& report) {
  std::ostringstream out;
  // Markdown is for the student; every string in it passes through valid_utf8 at the end, and
  // every string labrun did not write (the student id, the file name, a compiler's or the
  // submission's output in a check) through escape_markdown or markdown_code_span.
  out << "# " << escape_markdown(report.lab) << " exercise: " << escape_markdown(report.student_id) << "\n\n";
  out << "Score **" << fixed(report.score(), 0) << " / " << fixed(report.max_score(), 0) << "** for "
      << markdown_code_span(report.submission) << ", graded in " << fixed(report.execution_seconds, 1)
      << " s";
  if (!report.device.empty() || !report.host.empty()) {
    out << " on " << (report.device.empty() ? std::string("no GPU") : escape_markdown(report.device))
        << (report.device_uuid.empty() ? "" : " (" + escape_markdown(report.device_uuid) + ")")
        << (report.host.empty() ? "" : " at " + escape_markdown(report.host));
  }
  out << ".\n";
  if (!report.mistakes.empty()) {
    out << "\n## What went wrong\n\n";
    for (const NamedMistake& mistake : report.mistakes) {
      out << "- **" << mistake.id << "**: " << mistake.explanation << "\n";
    }
  }
  out << "\n## Checks\n\n";
  for (const GradeTest& test : report.tests) {
    out << "- " << (test.passed ? "passed" : "FAILED") << " (" << fixed(test.score, 0) << "/"
        << fixed(test.max_score, 0) << ") " << test.name << ": " << escape_markdown(test.output) << "\n";
  }
  if (!report.figures.empty()) {
    out << "\n## Measured\n\n";
    for (const auto& [label, value] : report.figures) {
      out << "- " << label << ": " << value << "\n";
    }
  }
  return valid_utf8(out.str());
}

std::string dump_report(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace labrun
