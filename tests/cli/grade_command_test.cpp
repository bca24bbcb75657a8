// `labrun grade` where no GPU can run anything (CI): the usage is checked first, and the reports are
// still written, scoring 0 with a message for staff, so an autograder never shows an empty result.

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/atomic_file.hpp"
#include "cli/app.hpp"
#include "cli/exit_codes.hpp"
#include "cli/grade_command.hpp"
#include "device/device_info.hpp"
#include "runner/runner.hpp"
#include "support/cli_run.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

using Outcome = labrun::testing::CliOutcome;

Outcome labrun_cli(const std::vector<std::string>& args) {
  return labrun::testing::run_labrun(args);
}

fs::path temporary_folder() {
  std::string pattern = (fs::temp_directory_path() / "labrun-grade-cli-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("grade's usage errors come before any device is touched") {
  const std::string correct = (labrun::testing::grading_corpus() / "correct" / "halfway.cu").string();
  CHECK(labrun_cli({"grade", correct, "--seed", "5", "--secret-seed"}).status == labrun::exit_code::kUsage);
  CHECK_THAT(labrun_cli({"grade", correct, "--seed", "5", "--secret-seed"}).err,
             ContainsSubstring("exclude each other"));
  CHECK(labrun_cli({"grade", correct, "--manifest", "/nonexistent.json"}).status ==
        labrun::exit_code::kUsage);
  CHECK(labrun_cli({"grade", "/nonexistent.cu"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_cli({"grade", "--batch", labrun::testing::grading_corpus().string()}).status ==
        labrun::exit_code::kUsage);
  CHECK(labrun_cli({"grade"}).status == labrun::exit_code::kUsage);
}

TEST_CASE("without a GPU, grade still writes results.json, scoring 0 with a message for staff") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: this test is about grading where there is none");
  }
  const fs::path out = temporary_folder();
  const Outcome graded =
      labrun_cli({"grade", (labrun::testing::grading_corpus() / "correct" / "halfway.cu").string(), "--out",
                  out.string(), "--format", "json"});
  CHECK(graded.status == labrun::exit_code::kNoDevice);
  const auto results = nlohmann::json::parse(labrun::read_file(out / "results.json"));
  CHECK(results.at("score") == 0);
  CHECK(results.at("output_format") == "md");
  CHECK_THAT(results.at("tests").at(0).at("output").get<std::string>(), ContainsSubstring("not a mistake"));
  const auto report = nlohmann::json::parse(labrun::read_file(out / "report.json"));
  CHECK(report.at("grader_problem") == "no-device");
  // A submission refused before compiling needs no GPU: its verdict is given.
  const fs::path refused_out = temporary_folder();
  const Outcome refused = labrun_cli(
      {"grade", (labrun::testing::grading_corpus() / "include-outside-file" / "halfway.cu").string(), "--out",
       refused_out.string()});
  CHECK(refused.status == labrun::exit_code::kOk);
  CHECK_THAT(refused.out, ContainsSubstring("include-not-allowed"));
  fs::remove_all(out);
  fs::remove_all(refused_out);
}

TEST_CASE("grade --batch writes one summary row per folder, those it could not grade included") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: the GPU test grades the corpus");
  }
  const fs::path batch = temporary_folder();
  fs::create_directories(batch / "a-correct");
  fs::copy(labrun::testing::grading_corpus() / "correct", batch / "a-correct", fs::copy_options::recursive);
  fs::create_directories(batch / "b-empty");
  fs::create_directories(batch / "c-two-sources");
  labrun::write_file_atomically(batch / "c-two-sources" / "one.cu", "\n", false);
  labrun::write_file_atomically(batch / "c-two-sources" / "two.cu", "\n", false);
  const fs::path out = temporary_folder();
  const Outcome graded = labrun_cli({"grade", "--batch", batch.string(), "--out", out.string()});
  CHECK(graded.status == labrun::exit_code::kNoDevice);
  const auto summary = nlohmann::json::parse(labrun::read_file(out / "summary.json"));
  REQUIRE(summary.size() == 3);
  CHECK(summary.at(0).at("graded") == false);
  CHECK(summary.at(1).at("mistakes").at(0) == "no-source");
  CHECK(summary.at(2).at("mistakes").at(0) == "several-sources");
  for (const char* folder : {"a-correct", "b-empty", "c-two-sources"}) {
    CHECK(fs::exists(out / "submissions" / folder / "results.json"));
  }
  CHECK_THAT(labrun::read_file(out / "summary.md"), ContainsSubstring("could not be graded"));
  fs::remove_all(batch);
  fs::remove_all(out);
}

TEST_CASE("a shard is I of N, from the command line or from a Slurm job array") {
  CHECK(labrun::parse_shard("0/1").count == 1);
  CHECK(labrun::parse_shard("3/8").index == 3);
  for (const char* bad : {"8/8", "-1/4", "1", "a/b", "1/0", "1/4x"}) {
    INFO(bad);
    CHECK_THROWS_AS(labrun::parse_shard(bad), labrun::UsageError);
  }
  const auto environment = [](std::map<std::string, std::string> values) {
    return [values = std::move(values)](const char* name) -> const char* {
      const auto found = values.find(name);
      return found == values.end() ? nullptr : found->second.c_str();
    };
  };
  CHECK_FALSE(labrun::shard_from_slurm(environment({})).has_value());
  const auto first = labrun::shard_from_slurm(environment(
      {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "1"}}));
  REQUIRE(first.has_value());
  CHECK(first->index == 0);
  CHECK(first->count == 4);
  CHECK(labrun::shard_from_slurm(environment({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}))
            ->index == 2);
  CHECK_THROWS_AS(
      labrun::shard_from_slurm(environment({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "3"}})),
      labrun::UsageError);
}

TEST_CASE("shards grade disjoint slices, a rerun skips what has a report, and --merge rebuilds one summary") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: this test grades without one, quickly");
  }
  const fs::path out = temporary_folder();
  const std::string batch = labrun::testing::grading_corpus().string();
  std::size_t graded = 0;
  for (const char* shard : {"0/3", "1/3", "2/3"}) {
    const Outcome part =
        labrun_cli({"grade", "--batch", batch, "--out", out.string(), "--shard", shard, "--jobs", "2"});
    CHECK(part.status == labrun::exit_code::kNoDevice);
    const std::string stem = std::string("summary-shard-") + shard[0] + "-of-3";
    graded += nlohmann::json::parse(labrun::read_file(out / (stem + ".json"))).size();
  }
  std::size_t folders = 0;
  for (const auto& entry : fs::directory_iterator(labrun::testing::grading_corpus())) {
    folders += entry.is_directory() ? 1 : 0;
  }
  CHECK(graded == folders);
  // Every report exists now, but those that say no GPU could grade them are no grades: a rerun
  // grades them again (and, still without a GPU, says so again); only the one refused before
  // compiling, a verdict, is kept.
  const Outcome rerun = labrun_cli({"grade", "--batch", batch, "--out", out.string(), "--shard", "0/3"});
  CHECK(rerun.status == labrun::exit_code::kNoDevice);
  CHECK_THAT(rerun.err, ContainsSubstring("graded again (the grader could not grade them before)"));
  CHECK_THAT(rerun.err, ContainsSubstring("with no usable GPU"));
  CHECK_THAT(rerun.err, !ContainsSubstring("on GPU 0"));
  const Outcome merged = labrun_cli({"grade", "--merge", out.string()});
  CHECK(merged.status == labrun::exit_code::kOk);
  const auto summary = nlohmann::json::parse(labrun::read_file(out / "summary.json"));
  CHECK(summary.size() == folders);
  const std::string csv = labrun::read_file(out / "summary.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == static_cast<long>(folders) + 1);
  CHECK_THAT(csv,
             ContainsSubstring(
                 "submission,student_id,score,max_score,mistakes,graded,seconds,device,device_uuid,host"));
  // The same submission graded into two folders is refused by the merge, naming it.
  const fs::path other = temporary_folder();
  fs::create_directories(other / "submissions");
  fs::copy(out / "submissions" / "correct", other / "submissions" / "correct", fs::copy_options::recursive);
  const Outcome twice = labrun_cli({"grade", "--merge", out.string(), out.string(), other.string()});
  CHECK(twice.status == labrun::exit_code::kFailure);
  CHECK_THAT(twice.err, ContainsSubstring("correct was graded twice"));
  CHECK_THAT(twice.out, !ContainsSubstring("graded twice"));
  fs::remove_all(out);
  fs::remove_all(other);
}
