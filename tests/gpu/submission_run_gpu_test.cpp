// `labrun run day48-fusion --submission DIR` on a GPU, with submissions of the grading corpus
// (tests/grading/corpus): a correct pair, written three ways, is one more timed and checked row;
// a wrong output exits 5 with the row untimed; a missing kernel exits 7; a pair that never ends
// ends the run with exit 7 after the trial's time limit. Skips without a GPU.

#include <sys/wait.h>

#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "case_names.hpp"
#include "evidence/transcript_json.hpp"
#include "submission_case.hpp"
#include "support/cli_run.hpp"
#include "support/require_gpu.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

// The part-2 cases in the smoke configuration, with the submission in `corpus_entry`.
labrun::testing::CliOutcome run_submission(const std::string& corpus_entry, const fs::path& out) {
  return labrun::testing::run_labrun({"run", "day48-fusion", "--submission",
                                      (labrun::testing::grading_corpus() / corpus_entry).string(), "--case",
                                      "part2/*", "--smoke", "--quiet", "--out", out.string()});
}

labrun::Transcript only_transcript(const fs::path& folder) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".json") {
      found.push_back(entry.path());
    }
  }
  REQUIRE(found.size() == 1);
  return labrun::transcript_from_text(labrun::read_file(found.front()));
}

}  // namespace

TEST_CASE("a correct submission written three ways is one more checked and timed row of part 2") {
  labrun::testing::require_gpu();
  for (const char* entry : {"correct", "correct-vectorised", "correct-grid-stride"}) {
    DYNAMIC_SECTION(entry) {
      const labrun::testing::TemporaryDirectory out("labrun-submission-run");
      const labrun::testing::CliOutcome outcome = run_submission(entry, out.path);
      INFO(outcome.err);
      REQUIRE(outcome.status == 0);
      const labrun::Transcript t = only_transcript(out.path);
      CHECK(t.all_correct());
      const std::vector<const labrun::CaseResult*> rows = t.cases_named(day48::cases::kSubmission);
      REQUIRE_FALSE(rows.empty());
      for (const labrun::CaseResult* row : rows) {
        CHECK(row->has_samples());
        CHECK(row->model.launches == 2);
        CHECK(row->attributes.count("first_kernel_blocks") == 1);
      }
      bool checked = false;
      for (const labrun::CorrectnessCheck& check : t.correctness) {
        checked = checked || (check.version == day48::kSubmissionCheck && check.passed);
      }
      CHECK(checked);
      bool compared = false;
      for (const labrun::BitwiseComparison& pair : t.bitwise) {
        compared =
            compared || pair.first == day48::kSubmissionCheck || pair.second == day48::kSubmissionCheck;
      }
      CHECK(compared);
      bool predicted = false;
      for (const labrun::PredictionRecord& p : t.predictions) {
        predicted = predicted || p.faster_case == day48::cases::kSubmission;
      }
      CHECK(predicted);
      CHECK(outcome.out.find("Your submission: the worked answer against the run") != std::string::npos);
      CHECK(t.command_line.size() > 1);
    }
  }
}

TEST_CASE("a submission whose output is wrong exits 5 and its row is not timed") {
  labrun::testing::require_gpu();
  const labrun::testing::TemporaryDirectory out("labrun-submission-run");
  const labrun::testing::CliOutcome outcome = run_submission("nan-output", out.path);
  CHECK(outcome.status == 5);
  const labrun::Transcript t = only_transcript(out.path);
  for (const labrun::CaseResult* row : t.cases_named(day48::cases::kSubmission)) {
    CHECK_FALSE(row->has_samples());
  }
}

TEST_CASE("a submission missing a kernel exits 7 naming it") {
  labrun::testing::require_gpu();
  const labrun::testing::TemporaryDirectory out("labrun-submission-run");
  const labrun::testing::CliOutcome outcome = run_submission("kernel-missing", out.path);
  CHECK(outcome.status == 7);
  CHECK(outcome.err.find("kernel-missing") != std::string::npos);
}

TEST_CASE("a submission that never finishes ends the run with exit 7 after the trial's limit") {
  labrun::testing::require_gpu();
  const labrun::testing::TemporaryDirectory out("labrun-submission-run");
  // In a process of its own: the run ends itself, since a kernel that never ends cannot be unwound.
  const std::string command = std::string("timeout 300 '") + LABRUN_PROGRAM_PATH +
                              "' run day48-fusion --submission '" +
                              (labrun::testing::grading_corpus() / "infinite-loop").string() +
                              "' --case 'part2/*' --smoke --quiet --out '" + out.path.string() + "' 2> '" +
                              (out.path / "stderr.txt").string() + "' > /dev/null";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  CHECK(labrun::read_file(out.path / "stderr.txt").find("had not finished after 10 s") != std::string::npos);
}
