// The grader on every registered exercise's corpus of submissions (labs/<lab>/grading/corpus, found
// from the registry: a new exercise's corpus needs no line here), each with its expected verdict,
// graded the way course staff do it: `labrun grade --batch`; and every exercise's skeleton. Skips
// without a GPU. Reports go to $LABRUN_GRADE_OUT/<exercise>-corpus when set, else to a temporary
// folder; LABRUN_GRADE_ONLY=NAME[,NAME...] grades those exercises' corpora alone.

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <cstdint>
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
#include "support/exercises.hpp"
#include "support/require_gpu.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

fs::path output_folder(const std::string& leaf) {
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
// folder's expected.json; every folder of it must have one. The exercise's own seed, named: a batch
// otherwise draws a secret one per submission, and a submission whose verdict depends on its inputs
// (recognises-probes-by-x's test misfires on a few elements) would get another verdict each run.
void grade_corpus(const fs::path& corpus, const std::string& leaf, std::uint64_t seed) {
  const fs::path out = output_folder(leaf);
  ::setenv("LABRUN_GRADE_CHILD", LABRUN_GRADE_CHILD_PATH, 1);
  std::string printed;
  REQUIRE(labrun_cli({"grade", "--batch", corpus.string(), "--out", out.string(), "--time-limit", "60",
                      "--seed", std::to_string(seed), "--force"},
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
    // "explains" (optional): for a mistake, words its explanation must hold, where it is named.
    if (expected.contains("explains")) {
      for (const auto& m : report.at("mistakes")) {
        const std::string id = m.at("id").get<std::string>();
        if (expected.at("explains").contains(id)) {
          const std::string explanation = m.at("explanation").get<std::string>();
          for (const auto& words : expected.at("explains").at(id)) {
            INFO(explanation);
            CHECK(explanation.find(words.get<std::string>()) != std::string::npos);
          }
        }
      }
    }
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
  CHECK(graded > 0);
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

// Whether LABRUN_GRADE_ONLY (a comma-separated list of exercise names) leaves `name` in.
bool selected(const std::string& name) {
  const char* only = std::getenv("LABRUN_GRADE_ONLY");
  if (only == nullptr || *only == '\0') {
    return true;
  }
  std::stringstream names(only);
  std::string one;
  while (std::getline(names, one, ',')) {
    if (one == name) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("labrun grade --batch gives every submission of every exercise's corpus its expected verdict") {
  labrun::testing::require_gpu();
  int corpora = 0;
  for (const labrun::Exercise* exercise : labrun::testing::registered_exercises()) {
    if (!selected(exercise->name)) {
      continue;
    }
    const fs::path corpus = labrun::testing::exercise_corpus(exercise->lab);
    INFO(exercise->full_name() << ": " << corpus);
    REQUIRE(fs::is_directory(corpus));
    grade_corpus(corpus, exercise->name + "-corpus", exercise->default_seed);
    ++corpora;
  }
  CHECK(corpora > 0);
}

TEST_CASE("the skeleton a student starts from compiles and scores 0, for every exercise") {
  labrun::testing::require_gpu();
  for (const labrun::Exercise* exercise : labrun::testing::registered_exercises()) {
    INFO(exercise->full_name());
    grade_skeleton(labrun::testing::repository_root() / exercise->skeleton);
  }
}
