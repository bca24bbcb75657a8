#include "grading/report.hpp"

#include <sstream>

#include "base/format.hpp"
#include "grading/utf8.hpp"

namespace labrun {
namespace {

// Text from outside labrun as Markdown text: one inert line (utf8.hpp), then escaped so that it
// opens no tag, link, image, code span or table cell.
std::string markdown_text(const std::string& text) {
  return escape_markdown(inert_text(text));
}

// A document's every string and key made inert (utf8.hpp), its structure and numbers unchanged: the
// child's raw results hold names that come from the submission's image (the kernels it defines).
nlohmann::ordered_json inert_json(const nlohmann::ordered_json& value) {
  if (value.is_string()) {
    return inert_text(value.get_ref<const std::string&>());
  }
  if (value.is_array()) {
    nlohmann::ordered_json copy = nlohmann::ordered_json::array();
    for (const auto& element : value) {
      copy.push_back(inert_json(element));
    }
    return copy;
  }
  if (value.is_object()) {
    nlohmann::ordered_json copy = nlohmann::ordered_json::object();
    for (const auto& item : value.items()) {
      copy[inert_text(item.key())] = inert_json(item.value());
    }
    return copy;
  }
  return value;
}

}  // namespace

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
    // Gradescope renders output as Markdown (output_format "md"), so it is written as Markdown text.
    tests.push_back({{"name", inert_text(test.name)},
                     {"status", test.passed ? "passed" : "failed"},
                     {"score", test.score},
                     {"max_score", test.max_score},
                     {"output", markdown_text(test.output)},
                     {"visibility", inert_text(test.visibility)}});
  }
  return {{"score", report.score()},
          {"execution_time", report.execution_seconds},
          {"output_format", "md"},
          {"tests", tests}};
}

nlohmann::ordered_json report_json(const GradeReport& report) {
  nlohmann::ordered_json document = gradescope_results(report);
  // Every other string is plain text, made inert: JSON escapes what JSON must, and inert_text the
  // controls, bidirectional and invisible characters JSON would pass on.
  document["lab"] = inert_text(report.lab);
  document["student_id"] = inert_text(report.student_id);
  document["submission"] = inert_text(report.submission);
  if (!report.grader_problem_kind.empty()) {
    document["grader_problem"] = inert_text(report.grader_problem_kind);
  }
  document["environment"] = {{"device", inert_text(report.device)},
                             {"device_uuid", inert_text(report.device_uuid)},
                             {"host", inert_text(report.host)}};
  document["max_score"] = report.max_score();
  if (!report.phase_seconds.empty()) {
    nlohmann::ordered_json phases = nlohmann::ordered_json::object();
    for (const auto& [phase, seconds] : report.phase_seconds) {
      phases[inert_text(phase)] = seconds;
    }
    document["phase_seconds"] = phases;
  }
  nlohmann::ordered_json mistakes = nlohmann::ordered_json::array();
  for (const NamedMistake& mistake : report.mistakes) {
    mistakes.push_back({{"id", inert_text(mistake.id)}, {"explanation", inert_text(mistake.explanation)}});
  }
  document["mistakes"] = mistakes;
  nlohmann::ordered_json figures = nlohmann::ordered_json::object();
  for (const auto& [label, value] : report.figures) {
    figures[inert_text(label)] = inert_text(value);
  }
  document["figures"] = figures;
  document["raw"] = inert_json(report.raw);
  return document;
}

std::string report_markdown(const GradeReport& report) {
  std::ostringstream out;
  // Markdown is for the student, and Gradescope renders it as HTML: every string in it goes through
  // markdown_text, whoever wrote it, so that nothing a
  // submission, a compiler or the grading child said can open a tag, a link or an image, end a code
  // span, or reorder or hide the text around it.
  out << "# " << markdown_text(report.lab) << " exercise: " << markdown_text(report.student_id) << "\n\n";
  out << "Score **" << fixed(report.score(), 0) << " / " << fixed(report.max_score(), 0) << "** for "
      << markdown_text(report.submission) << ", graded in " << fixed(report.execution_seconds, 1) << " s";
  if (!report.device.empty() || !report.host.empty()) {
    out << " on " << (report.device.empty() ? std::string("no GPU") : markdown_text(report.device))
        << (report.device_uuid.empty() ? "" : " (" + markdown_text(report.device_uuid) + ")")
        << (report.host.empty() ? "" : " at " + markdown_text(report.host));
  }
  out << ".\n";
  if (!report.mistakes.empty()) {
    out << "\n## What went wrong\n\n";
    for (const NamedMistake& mistake : report.mistakes) {
      out << "- **" << markdown_text(mistake.id) << "**: " << markdown_text(mistake.explanation) << "\n";
    }
  }
  out << "\n## Checks\n\n";
  for (const GradeTest& test : report.tests) {
    out << "- " << (test.passed ? "passed" : "FAILED") << " (" << fixed(test.score, 0) << "/"
        << fixed(test.max_score, 0) << ") " << markdown_text(test.name) << ": " << markdown_text(test.output)
        << "\n";
  }
  if (!report.figures.empty()) {
    out << "\n## Measured\n\n";
    for (const auto& [label, value] : report.figures) {
      out << "- " << markdown_text(label) << ": " << markdown_text(value) << "\n";
    }
  }
  return out.str();
}

std::string dump_report(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace labrun
