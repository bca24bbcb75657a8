// Building a submission the grader's way, without a GPU: the checks before compiling (the text
// check, then nvcc -M in the sandbox against the allowed set) and the sandboxed compile with its
// image checks, on day 48's public corpus, on the hostile sources and on a stand-in "CUDA header"
// whose computed include a submission steers with its own macros.

#include "exercise/submission_build.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "grading/exercise.hpp"
#include "process/sandbox.hpp"
#include "support/require_sandbox.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

using labrun::testing::require_sandbox;

namespace {

labrun::CompilerSetup test_setup(const fs::path& cuda_include = LABRUN_CUDA_INCLUDE_DIR,
                                 const fs::path& lab_headers = LABRUN_DAY48_SOURCE_DIR_FOR_TESTS) {
  labrun::CompilerSetup setup;
  setup.nvcc = LABRUN_NVCC_PATH;
  setup.cuda_include = cuda_include;
  setup.lab_headers = lab_headers;
  setup.policy = labrun::include_policy(day48::grading::halfway_exercise().quoted_headers, cuda_include);
  return setup;
}

bool expects(const fs::path& folder, const std::string& mistake) {
  const auto expected = nlohmann::json::parse(labrun::read_file(folder / "expected.json"));
  const auto& m = expected.at("mistakes");
  return std::find(m.begin(), m.end(), mistake) != m.end();
}

}  // namespace

TEST_CASE("the checks before compiling refuse exactly the corpus submissions expected to be refused") {
  require_sandbox();
  const labrun::CompilerSetup setup = test_setup();
  for (const auto& entry : fs::directory_iterator(labrun::testing::grading_corpus())) {
    INFO(entry.path().filename().string());
    const labrun::ScratchFolder scratch;
    const labrun::SourceVerdict verdict =
        labrun::check_before_compiling(labrun::read_file(entry.path() / "halfway.cu"), scratch.path(), setup,
                                       labrun::kArchitectureWithoutGpu);
    CHECK(verdict.grader_problem.empty());
    CHECK(verdict.problems.empty() == !expects(entry.path(), "include-not-allowed"));
  }
}

TEST_CASE("an include computed inside an allowed header from the submission's macros is refused") {
  require_sandbox();
  // A stand-in for CUDA's include folder with one header that includes what a macro names, and a
  // stand-in for the lab's headers with one file a submission may not include.
  const labrun::ScratchFolder fixture;
  const fs::path cuda = fixture.path() / "cuda-include";
  const fs::path lab = fixture.path() / "lab";
  fs::create_directories(cuda);
  fs::create_directories(lab / "grading");
  labrun::write_file_atomically(cuda / "computed.h", "#pragma once\n#include LABRUN_WHAT\n", false);
  for (const char* header : {"grading/submission.cuh", "stages.cuh", "chain_constants.hpp"}) {
    fs::copy_file(fs::path(LABRUN_DAY48_SOURCE_DIR_FOR_TESTS) / header, lab / header);
  }
  labrun::write_file_atomically(lab / "grading" / "secret.hpp", "#define LABRUN_SECRET 42\n", false);
  const labrun::CompilerSetup setup = test_setup(cuda, lab);
  const auto check = [&](const std::string& source) {
    const labrun::ScratchFolder scratch;
    return labrun::check_before_compiling(source, scratch.path(), setup, "sm_75");
  };
  // The text check passes all three: their includes are literal and allowed.
  const std::string opened_file = "#define LABRUN_WHAT \"" + (lab / "grading" / "secret.hpp").string() +
                                  "\"\n#include <computed.h>\nint x = LABRUN_SECRET;\n";
  const auto opened = check(opened_file);
  REQUIRE(opened.problems.size() == 1);
  CHECK_THAT(opened.problems.front().message,
             ContainsSubstring("opens " + (lab / "grading" / "secret.hpp").string()));
  CHECK_THAT(opened.problems.front().message, !ContainsSubstring("42"));
  // A file of the machine outside the sandbox does not exist inside it: the attempt is named.
  const auto outside = check("#define LABRUN_WHAT \"/etc/passwd\"\n#include <computed.h>\n");
  REQUIRE(outside.problems.size() == 1);
  CHECK_THAT(outside.problems.front().message, ContainsSubstring("tries to open /etc/passwd"));
  CHECK(check("#define LABRUN_WHAT <cstdint>\n#include <computed.h>\n").problems.empty());
}

TEST_CASE(
    "the sandboxed compile makes an image, and refuses one whose variables would take the GPU's memory") {
  require_sandbox();
  const labrun::CompilerSetup setup = test_setup();
  const auto compile = [&](const fs::path& folder) {
    const labrun::ScratchFolder scratch;
    const std::string source = labrun::read_file(folder / "halfway.cu");
    REQUIRE(labrun::check_before_compiling(source, scratch.path(), setup, "sm_75").problems.empty());
    return labrun::compile_to_cubin(scratch.path(), setup, "sm_75");
  };
  const labrun::DeviceCompile correct = compile(labrun::testing::grading_corpus() / "correct");
  CHECK(correct.compiled);
  CHECK(correct.image_refusal.empty());
  const labrun::DeviceCompile cuda_std = compile(labrun::testing::grading_corpus() / "correct-cuda-std");
  CHECK(cuda_std.compiled);
  const fs::path hostile = fs::path(LABRUN_TEST_DATA_DIR) / "grading" / "hostile";
  const labrun::DeviceCompile hog = compile(hostile / "static-memory-hog");
  CHECK_FALSE(hog.compiled);
  CHECK(hog.image_refusal == "device-memory-too-large");
  CHECK_THAT(hog.image_refusal_message, ContainsSubstring("65536 MiB"));
}

TEST_CASE("a compile bomb is stopped at the compiler's limits before it is compiled") {
  require_sandbox();
  labrun::CompilerSetup setup = test_setup();
  setup.cpu_seconds = 2.0;
  setup.wall_seconds = 20.0;
  const fs::path bomb = fs::path(LABRUN_TEST_DATA_DIR) / "grading" / "hostile" / "compile-bomb";
  const labrun::ScratchFolder scratch;
  const labrun::SourceVerdict verdict =
      labrun::check_before_compiling(labrun::read_file(bomb / "halfway.cu"), scratch.path(), setup, "sm_75");
  CHECK(verdict.problems.empty());
  CHECK_THAT(verdict.compiler_stopped, ContainsSubstring("stopped at the compiler's limits"));
}
