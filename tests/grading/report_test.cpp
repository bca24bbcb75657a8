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
