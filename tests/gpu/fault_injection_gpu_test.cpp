// Fault injection into the batch scheduler on a GPU: honest submissions of the public corpus,
// graded in a batch beside the hostile ones of tests/grading/hostile (a pair that hangs once it is
// timed, one that stalls on every launch, a static-memory hog, a local-memory hog, a compile
// bomb), get exactly the score and mistakes each gets when graded alone, and each hostile one the
// mistakes its expected.json names. Skips without a GPU.
// The same without a GPU, with a stand-in child, is tests/labs/day48-fusion/fault_injection_test.cpp.

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/atomic_file.hpp"
#include "cli/command_support.hpp"
#include "cli/grade_command.hpp"
#include "grading/report.hpp"
#include "support/grade_verdict.hpp"
#include "support/require_gpu.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {}  // namespace

TEST_CASE("on a GPU, a batch grades every honest submission exactly as alone, beside hostile ones") {
  labrun::testing::require_gpu();
  std::string pattern = (fs::temp_directory_path() / "labrun-fault-injection-gpu-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const fs::path work = pattern;
  const fs::path batch = work / "batch";
  fs::create_directories(batch);
  const fs::path corpus = labrun::testing::grading_corpus();
  const fs::path hostile = fs::path(LABRUN_TEST_DATA_DIR) / "grading" / "hostile";
  const std::vector<std::string> honest{
      "correct",          "correct-vectorised", "correct-grid-stride", "correct-shared-tile",
      "correct-but-slow", "gelu-twice",         "tail-missed",         "correct-cuda-std"};
  for (const std::string& name : honest) {
    fs::copy(corpus / name, batch / ("honest-" + name), fs::copy_options::recursive);
  }
  std::map<std::string, std::set<std::string>> hostile_expected;
  // Where expected.json has "explanations": text each named mistake's explanation must hold (the
  // number of calls a write outside was seen in).
  std::map<std::string, std::map<std::string, std::string>> hostile_explained;
  for (const auto& entry : fs::directory_iterator(hostile)) {
    if (entry.is_directory()) {
      const std::string name = entry.path().filename().string();
      fs::copy(entry.path(), batch / ("hostile-" + name), fs::copy_options::recursive);
      const nlohmann::json expected =
          nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
      for (const auto& id : expected.at("mistakes")) {
        hostile_expected[name].insert(id.get<std::string>());
      }
      // Held in a variable: a range-for over items() of the temporary value() returns would read it
      // after its end.
      const nlohmann::json explanations = expected.value("explanations", nlohmann::json::object());
      for (const auto& [id, text] : explanations.items()) {
        hostile_explained[name][id] = text.get<std::string>();
      }
    }
  }
  ::setenv("LABRUN_GRADE_CHILD", LABRUN_GRADE_CHILD_PATH, 1);
  labrun::GradeRequest request;
  request.compile_limit_seconds = 10.0;  // the bomb's limit; an honest compile takes about a second
  const std::string exercise_name = "day48-fusion/halfway-pair";
  const labrun::LabExercise& halfway = *labrun::registered_labs().find_exercise(exercise_name);

  std::map<std::string, labrun::testing::GradeVerdict> alone;
  for (const std::string& name : honest) {
    labrun::GradeRequest one = request;
    one.submission = batch / ("honest-" + name) / "halfway.cu";
    alone[name] = labrun::testing::verdict_of_report(
        labrun::report_json(halfway.grade(one, [](const std::string&) {})));
  }

  labrun::GradeCommand command;
  command.batch = batch.string();
  command.out = (work / "out").string();
  command.jobs = 16;
  command.request = request;
  std::ostringstream printed;
  const int status = labrun::run_grade_command(
      command, [](const std::string& line) { std::cerr << line << "\n"; }, printed);
  CHECK(status == 0);
  const auto report_of = [&](const std::string& folder) {
    return nlohmann::json::parse(labrun::read_file(work / "out" / "submissions" / folder / "report.json"));
  };
  for (const std::string& name : honest) {
    INFO(name);
    const labrun::testing::GradeVerdict in_batch =
        labrun::testing::verdict_of_report(report_of("honest-" + name));
    INFO("alone " + labrun::testing::describe_verdict(alone.at(name)) + ", in the batch " +
         labrun::testing::describe_verdict(in_batch));
    CHECK(in_batch == alone.at(name));
    // Timed in a worker, the real child gave its turn back once it had timed and cleared the GPU
    // (docs/grading-at-scale.md, "The timing turn"), and its parts fit inside the turn.
    const nlohmann::json phases = report_of("honest-" + name).at("phase_seconds");
    INFO(phases.dump());
    if (phases.contains("timing") &&
        !report_of("honest-" + name).at("figures").contains("graded again with the GPU to itself")) {
      REQUIRE(phases.contains("timing: sampling"));
      CHECK(phases.contains("finishing after timing"));
      CHECK(phases.at("timing: sampling").get<double>() +
                phases.at("timing: clearing the GPU's memory").get<double>() +
                phases.at("timing: freeing the GPU's memory").get<double>() <=
            phases.at("timing").get<double>());
      CHECK(phases.at("timing: sampling: preparing the calls").get<double>() +
                phases.at("timing: sampling: checking the calls").get<double>() <=
            phases.at("timing: sampling").get<double>());
    }
  }
  for (const auto& [name, mistakes] : hostile_expected) {
    INFO(name);
    const labrun::testing::GradeVerdict got =
        labrun::testing::verdict_of_report(report_of("hostile-" + name));
    for (const std::string& mistake : mistakes) {
      CHECK(got.mistakes.count(mistake) == 1);
    }
    for (const auto& [id, text] : hostile_explained[name]) {
      std::string explanation;
      for (const auto& m : report_of("hostile-" + name).at("mistakes")) {
        if (m.at("id") == id) {
          explanation = m.at("explanation").get<std::string>();
        }
      }
      INFO(id + ": " + explanation);
      CHECK(explanation.find(text) != std::string::npos);
    }
  }
  fs::remove_all(work);
}
