// Fault injection into the batch scheduler, on a machine with no GPU: honest submissions graded in
// a batch beside hostile ones get exactly the score and mistakes each gets when graded alone.
//
// Everything is real but the GPU: the source checks, the sandboxed compiles (nvcc for sm_75), the
// turns, the budgets and the reports. The grading child is a stand-in (fake_grade_child.cpp) that
// speaks the child's protocol and behaves as a marker in each image says: it hangs once it holds
// the GPU alone to time (and ignores its own limits), stalls on every launch, takes most of the
// (simulated) GPU memory, or makes every child checking beside it fail as a context-switch time-out
// would. The compile bomb and the static-memory hog are real sources (tests/grading/hostile/).

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "base/atomic_file.hpp"
#include "cli/command_support.hpp"
#include "cli/grade_command.hpp"
#include "grading/report.hpp"
#include "process/sandbox.hpp"
#include "registry/registry.hpp"
#include "support/grade_verdict.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;

namespace {

fs::path fault_injection_folder() {
  std::string pattern = (fs::temp_directory_path() / "labrun-fault-injection-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

// A submission folder: a corpus or hostile folder's manifest and source, with `marker` (the
// stand-in child's behaviour) compiled into the image when given.
void add_submission(const fs::path& batch, const std::string& name, const fs::path& from,
                    const std::string& marker = "") {
  fs::create_directories(batch / name);
  fs::copy_file(from / "manifest.json", batch / name / "manifest.json");
  std::string source = labrun::read_file(from / "halfway.cu");
  if (!marker.empty()) {
    source += "\n__device__ const char labrun_fake_behaviour[] = \"LABRUN-FAKE:" + marker + ";\";\n";
  }
  labrun::write_file_atomically(batch / name / "halfway.cu", source, false);
}

}  // namespace

TEST_CASE(
    "a batch grades every honest submission exactly as alone, beside submissions that attack the scheduler") {
  if (!labrun::sandbox_availability().usable) {
    SKIP("no compiler sandbox here: " + labrun::sandbox_availability().problem);
  }
  const fs::path work = fault_injection_folder();
  const fs::path pool = work / "pool";
  const fs::path batch = work / "batch";
  fs::create_directories(pool);
  // The stand-in child, with the pool it shares with the others, as the program labrun starts.
  const fs::path child = work / "grade-child";
  labrun::write_file_atomically(child,
                                "#!/bin/sh\nexec '" + std::string(LABRUN_FAKE_GRADE_CHILD_PATH) +
                                    "' --pool '" + pool.string() + "' \"$@\"\n",
                                false);
  ::chmod(child.c_str(), 0755);

  const fs::path corpus = labrun::testing::grading_corpus();
  const fs::path hostile = fs::path(LABRUN_TEST_DATA_DIR) / "grading" / "hostile";
  const std::vector<std::string> honest{"a-correct", "b-correct-vectorised", "c-slow", "d-wrong-output",
                                        "e-correct-grid-stride"};
  add_submission(batch, "a-correct", corpus / "correct");
  add_submission(batch, "b-correct-vectorised", corpus / "correct-vectorised");
  add_submission(batch, "c-slow", corpus / "correct", "slow");
  add_submission(batch, "d-wrong-output", corpus / "correct", "wrong-output");
  add_submission(batch, "e-correct-grid-stride", corpus / "correct-grid-stride");
  add_submission(batch, "h1-hang-when-timed", corpus / "correct", "hang-when-timed");
  add_submission(batch, "h2-stall-every-launch", corpus / "correct", "stall-every-launch");
  add_submission(batch, "h3-hog-memory", corpus / "correct", "hog-memory");
  add_submission(batch, "h4-spoil-neighbours", corpus / "correct", "spoil-neighbours");
  add_submission(batch, "h5-compile-bomb", hostile / "compile-bomb");
  add_submission(batch, "h6-static-memory-hog", hostile / "static-memory-hog");

  labrun::GradeRequest request;
  request.child = child;
  request.simulated_gpu = labrun::GradingGpu{7, 5, std::uint64_t{4} << 20, std::uint64_t{16} << 30, 40, 1024};
  request.compile_limit_seconds = 3.0;
  request.run_limit_seconds = 10.0;
  request.kernel_time_limit_seconds = 0.4;
  request.timing_limit_seconds = 1.5;
  const std::string exercise_name = "day48-fusion/halfway-pair";
  const labrun::LabExercise& halfway = *labrun::registered_labs().find_exercise(exercise_name);

  // Alone: one at a time, nothing beside them, no turns.
  std::map<std::string, labrun::testing::GradeVerdict> alone;
  std::string alone_reports;
  for (const std::string& name : honest) {
    labrun::GradeRequest one = request;
    one.submission = batch / name / "halfway.cu";
    const nlohmann::json report = labrun::report_json(halfway.grade(one, [](const std::string&) {}));
    alone[name] = labrun::testing::verdict_of_report(report);
    alone_reports +=
        name + " alone: mistakes " + report.value("mistakes", nlohmann::json::array()).dump() + "\n";
  }
  INFO(alone_reports);
  CHECK(alone.at("a-correct").mistakes.empty());
  CHECK(alone.at("c-slow").mistakes.count("slow") == 1);
  CHECK_FALSE(alone.at("d-wrong-output").mistakes.empty());

  // In a batch, four at a time on one (simulated) GPU, beside the hostile ones.
  labrun::GradeCommand command;
  command.batch = batch.string();
  command.out = (work / "out").string();
  command.jobs = 4;
  command.request = request;
  std::ostringstream printed;
  std::string progress_lines;
  const int status = labrun::run_grade_command(
      command, [&](const std::string& line) { progress_lines += line + "\n"; }, printed);
  INFO(progress_lines);
  CHECK(status == 0);
  // The batch graded in workers that kept their (simulated) contexts: some graded more than one
  // submission, and those that met a hostile one were retired.
  std::smatch workers;
  REQUIRE(
      std::regex_search(progress_lines, workers, std::regex("GPU 0: ([0-9]+) gradings in ([0-9]+) workers")));
  CHECK(std::stoi(workers[1].str()) > std::stoi(workers[2].str()));
  const auto report_of = [&](const std::string& name) {
    return nlohmann::json::parse(labrun::read_file(work / "out" / "submissions" / name / "report.json"));
  };
  // Every report's score, mistakes and phases, shown with any check that fails below.
  std::string reports;
  for (const auto& entry : fs::directory_iterator(work / "out" / "submissions")) {
    const std::string name = entry.path().filename().string();
    const nlohmann::json report = report_of(name);
    reports += name + ": " + labrun::testing::describe_verdict(labrun::testing::verdict_of_report(report)) +
               "; mistakes " + report.value("mistakes", nlohmann::json::array()).dump() + "; phases " +
               report.value("phase_seconds", nlohmann::json::object()).dump() + "\n";
  }
  INFO(reports);
  // The submission that hangs when timed ends the worker that times it, which is then retired. A
  // worker timed it where its report has a timing phase and it was not graded again alone (beside
  // the spoiler, or on a loaded machine, it may end before its turn to time: no worker hangs then).
  const nlohmann::json hang = report_of("h1-hang-when-timed");
  if (hang.contains("phase_seconds") && hang.at("phase_seconds").contains("timing") &&
      !hang.at("figures").contains("graded again with the GPU to itself")) {
    CHECK_THAT(progress_lines, ContainsSubstring("retired"));
  }
  for (const std::string& name : honest) {
    INFO(name);
    const labrun::testing::GradeVerdict in_batch = labrun::testing::verdict_of_report(report_of(name));
    INFO("alone " + labrun::testing::describe_verdict(alone.at(name)) + ", in the batch " +
         labrun::testing::describe_verdict(in_batch));
    CHECK(in_batch == alone.at(name));
    // Timed in a worker, whose turn went back when the child said it had timed, before it wrote
    // its results (docs/grading-at-scale.md, "The timing turn").
    const nlohmann::json report = report_of(name);
    if (report.at("phase_seconds").contains("timing") &&
        !report.at("figures").contains("graded again with the GPU to itself")) {
      CHECK(report.at("phase_seconds").contains("timing: sampling"));
      CHECK(report.at("phase_seconds").contains("finishing after timing"));
    }
  }
  // The hostile ones got what they earned: ended at their limits, refused, or graded alone.
  CHECK(labrun::testing::verdict_of_report(report_of("h1-hang-when-timed")).mistakes.count("timeout") == 1);
  CHECK(labrun::testing::verdict_of_report(report_of("h2-stall-every-launch")).mistakes.count("timeout") ==
        1);
  CHECK(labrun::testing::verdict_of_report(report_of("h5-compile-bomb")).mistakes ==
        std::set<std::string>{"compile-error"});
  CHECK(labrun::testing::verdict_of_report(report_of("h6-static-memory-hog")).mistakes ==
        std::set<std::string>{"device-memory-too-large"});
  CHECK_THAT(report_of("h5-compile-bomb").dump(), ContainsSubstring("stopped at the compiler's limits"));
  if (status != 0) {
    for (const auto& entry : fs::directory_iterator(work / "out" / "submissions")) {
      const auto report = report_of(entry.path().filename().string());
      if (report.contains("grader_problem")) {
        FAIL_CHECK(entry.path().filename().string() + ": " + report.at("mistakes").dump());
      }
    }
  }
  fs::remove_all(work);
}
