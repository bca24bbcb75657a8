#include "grading/report.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;

namespace {

labrun::GradeReport two_tests() {
  labrun::GradeReport report;
  report.lab = "day48-fusion";
  report.student_id = "s1";
  report.submission = "halfway.cu";
  report.execution_seconds = 12.5;
  report.tests = {{"Compiles", true, 10.0, 10.0, "built", "visible"},
                  {"Correct", false, 0.0, 25.0, "3 elements wrong", "visible"}};
  report.mistakes = {{"tail-missed", "the last 3 elements were never written"}};
  report.figures = {{"your pair (ms, median)", "0.1234"}};
  return report;
}

}  // namespace

TEST_CASE("Gradescope's results.json has the fields Gradescope reads") {
  const auto results = labrun::gradescope_results(two_tests());
  CHECK(results["score"] == 10.0);
  CHECK(results["execution_time"] == 12.5);
  REQUIRE(results["tests"].size() == 2);
  const auto& failed = results["tests"][1];
  CHECK(failed["name"] == "Correct");
  CHECK(failed["status"] == "failed");
  CHECK(failed["score"] == 0.0);
  CHECK(failed["max_score"] == 25.0);
  CHECK(failed["output"] == "3 elements wrong");
  CHECK(failed["visibility"] == "visible");
  CHECK(results["tests"][0]["status"] == "passed");
}

TEST_CASE("the JSON report adds mistakes and figures, the Markdown speaks to the student") {
  const labrun::GradeReport report = two_tests();
  CHECK(report.score() == 10.0);
  CHECK(report.max_score() == 35.0);
  const auto json = labrun::report_json(report);
  CHECK(json["mistakes"][0]["id"] == "tail-missed");
  CHECK(json["figures"]["your pair (ms, median)"] == "0.1234");
  CHECK(json["max_score"] == 35.0);
  const std::string md = labrun::report_markdown(report);
  CHECK_THAT(md, ContainsSubstring("Score **10 / 35**"));
  CHECK_THAT(md, ContainsSubstring("- **tail-missed**: the last 3 elements were never written"));
  CHECK_THAT(md, ContainsSubstring("- FAILED (0/25) Correct: 3 elements wrong"));
}

TEST_CASE("each format gets text from outside as what it is: Markdown escaped, JSON plain, both inert") {
  labrun::GradeReport report = two_tests();
  report.student_id =
      "s\xE2\x80\xAE"
      "1";
  report.tests[1].output = "got <img src=x> [a](b)\nline\x1b[2J";
  report.mistakes = {{"manifest-invalid", "/<b>: unknown field\r\n| x |"}};
  report.raw = {{"kernels_found",
                 {"k\xC2\x9B"
                  "1"}}};
  const std::string r = "\xEF\xBF\xBD";
  const auto results = labrun::gradescope_results(report);
  CHECK(results["tests"][1]["output"] == "got &lt;img src=x> \\[a\\](b) line" + r + "\\[2J");
  const auto json = labrun::report_json(report);
  CHECK(json["tests"][1]["output"] == results["tests"][1]["output"]);  // Markdown, as output_format says
  CHECK(json["student_id"] == "s" + r + "1");
  CHECK(json["mistakes"][0]["explanation"] == "/<b>: unknown field  | x |");  // plain text, one line
  CHECK(json["raw"]["kernels_found"][0] == "k" + r + "1");
  const std::string md = labrun::report_markdown(report);
  CHECK_THAT(md, ContainsSubstring("exercise: s" + r + "1"));
  CHECK_THAT(md, ContainsSubstring("- **manifest-invalid**: /&lt;b>: unknown field  \\| x \\|"));
  CHECK(md.find("<img") == std::string::npos);
}
