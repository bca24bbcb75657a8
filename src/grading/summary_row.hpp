#pragma once
// One row of a batch's summary, read from a submission's report.json: what `grade --batch` keeps of a
// folder graded before and what `grade --merge` gathers from the folders a job array wrote. The file
// may come from anywhere a merge is pointed at, so it is read as untrusted JSON (base/json_parse.hpp:
// bounded in size and depth, every key once).

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! The largest report.json a summary reads: 16 MiB (what labrun writes is a few KiB).
inline constexpr std::size_t kReportMaxBytes = std::size_t{16} * 1024 * 1024;

//! What report.json says about one submission folder.
struct SummaryRow {
  std::string submission;
  std::string student_id;
  double score = 0.0;
  double max_score = 0.0;
  std::vector<std::string> mistakes;
  std::string grader_problem;  //!< empty when it was graded
  double seconds = 0.0;
  std::string device;
  std::string device_uuid;
  std::string host;
  std::string lab;  //!< the lab whose exercise graded it (report.json's "lab"); empty when none did
};

//! The row of a parsed report (report_json's shape, grading/report.hpp), named `submission`. Throws a
//! std::exception (nlohmann's) when a field the row needs is missing or of another type.
[[nodiscard]] SummaryRow summary_row_of(const std::string& submission, const nlohmann::ordered_json& report);

//! The row of report.json's `text`, named `submission`; throws std::runtime_error saying what is wrong
//! (not JSON, nested too deep, a key given twice, a field missing or mistyped), without the file's name.
[[nodiscard]] SummaryRow summary_row_from_text(const std::string& submission, const std::string& text);

//! What reading `folder`/report.json gave: a row, or why there is none.
struct SummaryRowRead {
  std::optional<SummaryRow> row;
  std::string problem;  //!< one line naming the file; empty when row is set
};

//! Reads `folder`/report.json (a regular file of at most kReportMaxBytes, never through a link) as the
//! row of the folder's submission (named by the folder). Never throws for what the file holds.
[[nodiscard]] SummaryRowRead read_summary_row(const std::filesystem::path& folder);

}  // namespace labrun
