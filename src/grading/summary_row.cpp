#include "grading/summary_row.hpp"

#include <stdexcept>

#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "base/json_parse.hpp"

namespace labrun {

SummaryRow summary_row_of(const std::string& submission, const nlohmann::ordered_json& report) {
  SummaryRow row;
  row.submission = submission;
  row.student_id = report.value("student_id", "unknown");
  row.score = report.at("score").get<double>();
  row.max_score = report.at("max_score").get<double>();
  for (const auto& m : report.at("mistakes")) {
    row.mistakes.push_back(m.at("id").get<std::string>());
  }
  row.grader_problem = report.value("grader_problem", "");
  row.seconds = report.value("execution_time", 0.0);
  row.lab = report.value("lab", "");
  if (report.contains("environment")) {
    const nlohmann::ordered_json& environment = report.at("environment");
    row.device = environment.value("device", "");
    row.device_uuid = environment.value("device_uuid", "");
    row.host = environment.value("host", "");
  }
  return row;
}

SummaryRow summary_row_from_text(const std::string& submission, const std::string& text) {
  ParsedJson parsed;
  try {
    parsed = parse_json_finding_duplicates(text);
  } catch (const JsonTooDeep& error) {
    throw std::runtime_error((error.pointer().empty() ? "/" : error.pointer()) + ": " + error.what());
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("not JSON: ") + error.what());
  }
  if (!parsed.duplicate_keys.empty()) {
    const DuplicateKey& first = parsed.duplicate_keys.front();
    throw std::runtime_error(first.pointer + ": the key \"" + first.key + "\" is given twice in one object");
  }
  try {
    return summary_row_of(submission, parsed.document);
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("not a grade report: ") + error.what());
  }
}

SummaryRowRead read_summary_row(const std::filesystem::path& folder) {
  const std::filesystem::path file = folder / "report.json";
  SummaryRowRead read;
  try {
    read.row = summary_row_from_text(folder.filename().string(), read_regular_file(file, kReportMaxBytes));
  } catch (const std::exception& error) {
    const std::string what = error.what();
    // read_regular_file names the file itself; the parse does not.
    read.problem =
        one_line(what.find(file.string()) == std::string::npos ? file.string() + ": " + what : what);
  }
  return read;
}

}  // namespace labrun
