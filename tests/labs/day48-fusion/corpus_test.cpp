// The grading corpus (tests/grading/corpus) without a GPU: every folder holds one submission, its
// manifest and its expected verdict; the source check refuses exactly the submissions expected to be
// refused; and the compile step, run as the grader runs it, agrees with "compiles" for the
// submissions whose verdict is decided there. The GPU test grades the whole corpus.

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "exercise/submission_build.hpp"
#include "grading/compiler_messages.hpp"
#include "grading/source_check.hpp"
#include "grading/utf8.hpp"
#include "process/process.hpp"
#include "support/exercises.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

bool expects(const nlohmann::json& expected, const std::string& mistake) {
  const auto& m = expected.at("mistakes");
  return std::find(m.begin(), m.end(), mistake) != m.end();
}

}  // namespace

TEST_CASE("every corpus submission states its expected verdict") {
  int folders = 0;
  for (const auto& entry : fs::directory_iterator(labrun::testing::grading_corpus())) {
    INFO(entry.path().filename().string());
    REQUIRE(fs::exists(entry.path() / "halfway.cu"));
    const auto expected = nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
    CHECK(expected.at("description").is_string());
    CHECK(expected.at("builds").is_boolean());
    CHECK(expected.at("passes_correctness").is_boolean());
    CHECK(expected.at("mistakes").is_array());
    CHECK(expected.at("score").is_number());
    ++folders;
  }
  CHECK(folders >= 50);
}

// The text check is the first of the checks before compiling; the sandboxed preprocessor's list is
// the second (submission_build_test.cpp). Neither refuses what the corpus expects to pass, and the
// text check alone refuses every literal escape of the corpus.
TEST_CASE("the text check refuses no corpus submission expected to pass") {
  const labrun::IncludePolicy policy =
      labrun::exercise_include_policy(labrun::testing::registered_exercise("day48-fusion/halfway-pair"));
  for (const auto& entry : fs::directory_iterator(labrun::testing::grading_corpus())) {
    INFO(entry.path().filename().string());
    const auto expected = nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
    const auto problems =
        labrun::check_submission_source(labrun::read_file(entry.path() / "halfway.cu"), policy);
    if (!expects(expected, "include-not-allowed")) {
      CHECK(problems.empty());
    }
  }
  const fs::path skeleton = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "labs" / "day48-fusion" /
                            "grading" / "skeleton" / "halfway.cu";
  CHECK(labrun::check_submission_source(labrun::read_file(skeleton), policy).empty());
}

TEST_CASE("the submissions whose verdict the compiler decides compile, or not, as expected") {
  for (const std::string name :
       {"correct", "compile-error", "device-side-launch", "compiler-output-bad-bytes"}) {
    INFO(name);
    const auto expected =
        nlohmann::json::parse(labrun::read_file(labrun::testing::grading_corpus() / name / "expected.json"));
    labrun::SpawnOptions options;
    const fs::path out = fs::temp_directory_path() / ("labrun-corpus-" + name + ".cubin");
    options.argv = {LABRUN_NVCC_PATH,
                    "-cubin",
                    "-std=c++17",
                    "-arch=sm_90",
                    "-I",
                    LABRUN_DAY48_SOURCE_DIR_FOR_TESTS,
                    "-o",
                    out.string(),
                    "halfway.cu"};
    options.working_directory = labrun::testing::grading_corpus() / name;
    options.limit_seconds = 120.0;
    const labrun::ProcessResult compiled = labrun::run_contained(options);
    CHECK(compiled.succeeded() == expected.at("builds").get<bool>());
    const std::string shown = labrun::messages_about(compiled.output, "halfway.cu");
    CHECK(labrun::valid_utf8(shown) == shown);
    std::error_code ignored;
    fs::remove(out, ignored);
  }
}
