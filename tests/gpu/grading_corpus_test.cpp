// The grader on its corpora of submissions (tests/grading/corpus for day 48, and
// tests/labs/fusion-verdicts/corpus for sum-of-squares), each with its expected verdict,
// graded the way course staff do it: `labrun grade --batch`. Skips without a GPU. Reports go to
// $LABRUN_GRADE_OUT when set, else to a temporary folder.

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/atomic_file.hpp"
#include "cli/app.hpp"
#include "grading/utf8.hpp"
#include "support/cli_run.hpp"
#include "support/require_gpu.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

fs::path output_folder(const char* leaf) {
  if (const char* folder = std::getenv("LABRUN_GRADE_OUT")) {
    return fs::path(folder) / leaf;
  }
  std::string pattern = (fs::temp_directory_path() / "labrun-corpus-XXXXXX").string();
  return fs::path(mkdtemp(pattern.data())) / leaf;
}

int labrun_cli(const std::vector<std::string>& args, std::string& printed) {
  const labrun::testing::CliOutcome outcome = labrun::testing::run_labrun(args);
  printed = outcome.out;
  return outcome.status;
}

// Grades `corpus` with `labrun grade --batch` into `leaf` and checks every report against the
// folder's expected.json; at least `at_least` folders.
void grade_corpus(const fs::path& corpus, const char* leaf, int at_least) {
  const fs::path out = output_folder(leaf);
  ::setenv("LABRUN_GRADE_CHILD", LABRUN_GRADE_CHILD_PATH, 1);
  std::string printed;
  REQUIRE(labrun_cli(
              {"grade", "--batch", corpus.string(), "--out", out.string(), "--time-limit", "60", "--force"},
              printed) == 0);
  std::cout << printed;
  CHECK(fs::exists(out / "summary.md"));
  CHECK(fs::exists(out / "summary.json"));

  int graded = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    const auto expected = nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
    const std::string report_text = labrun::read_file(out / "submissions" / name / "report.json");
    CHECK(labrun::valid_utf8(report_text) == report_text);
    const auto report = nlohmann::json::parse(report_text);
    CHECK(fs::exists(out / "submissions" / name / "results.json"));
    CHECK(fs::exists(out / "submissions" / name / "report.md"));
    std::set<std::string> named;
    for (const auto& m : report.at("mistakes")) {
      named.insert(m.at("id").get<std::string>());
    }
    std::set<std::string> wanted;
    for (const auto& id : expected.at("mistakes")) {
      wanted.insert(id.get<std::string>());
    }
    CHECK(named == wanted);
    const auto status_of = [&](std::size_t test) {
      return report.at("tests").at(test).at("status") == "passed";
    };
    CHECK(status_of(0) == expected.at("builds").get<bool>());
    CHECK((status_of(1) && status_of(2)) == expected.at("passes_correctness").get<bool>());
    if (report.at("max_score") == 100) {  // compute-sanitizer present, as on the course's GPU machines
      CHECK(report.at("score").get<double>() == expected.at("score").get<double>());
    }
    ++graded;
  }
  CHECK(graded >= at_least);
  // The summaries name every folder (summary.json exactly), and guard a student id that a
  // spreadsheet would run as a formula though strtod reads it as a number.
  std::set<std::string> folders;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    folders.insert(entry.path().filename().string());
  }
  std::set<std::string> named;
  for (const auto& row : nlohmann::json::parse(labrun::read_file(out / "summary.json"))) {
    named.insert(row.at("submission").get<std::string>());
  }
  CHECK(named == folders);
  if (folders.count("student-id-nan") > 0) {
    const std::string csv = labrun::read_file(out / "summary.csv");
    CHECK(csv.find(",'-nan(1),") != std::string::npos);
    CHECK(csv.find(",-nan(1),") == std::string::npos);
  }
}

// `labrun grade SKELETON --format json`: it compiles and scores 0.
void grade_skeleton(const fs::path& skeleton) {
  ::setenv("LABRUN_GRADE_CHILD", LABRUN_GRADE_CHILD_PATH, 1);
  std::string printed;
  REQUIRE(labrun_cli({"grade", skeleton.string(), "--format", "json"}, printed) == 0);
  const auto report = nlohmann::json::parse(printed);
  CHECK(report.at("tests").at(0).at("status") == "passed");
  CHECK(report.at("score") == 0);
}

}  // namespace

TEST_CASE("labrun grade --batch gives every submission of the corpus its expected verdict") {
  labrun::testing::require_gpu();
  grade_corpus(labrun::testing::grading_corpus(), "corpus", 50);
}

TEST_CASE("labrun grade --batch gives every submission of the sum-of-squares corpus its expected verdict") {
  labrun::testing::require_gpu();
  grade_corpus(fs::path(LABRUN_TEST_DATA_DIR) / "labs" / "fusion-verdicts" / "corpus",
               "sum-of-squares-corpus", 41);
}

TEST_CASE("the skeleton a student starts from compiles and scores 0") {
  labrun::testing::require_gpu();
  const fs::path labs = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "labs";
  grade_skeleton(labs / "day48-fusion" / "grading" / "skeleton" / "halfway.cu");
  grade_skeleton(labs / "fusion-verdicts" / "grading" / "skeleton" / "sum_of_squares.cu");
}
