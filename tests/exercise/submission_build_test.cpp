// Building a submission the grader's way, without a GPU: the checks before compiling (the text
// check, then nvcc -M in the sandbox with the compile's flags, and everything the preprocessor
// opened or reached for by its own account) and the sandboxed compile with its image checks, on
// both exercises' public corpora, on the hostile sources and on a stand-in "CUDA header" whose
// computed include a submission steers with its own macros.

#include "exercise/submission_build.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "process/sandbox.hpp"
#include "support/exercises.hpp"
#include "support/require_sandbox.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

using labrun::testing::require_sandbox;

namespace {

// The architecture the grader compiles for on the H200, beside the oldest this toolkit builds.
const std::vector<std::string> kTwoArchitectures{"sm_75", "sm_90"};

labrun::CompilerSetup test_setup(const std::vector<std::string>& quoted, const fs::path& cuda_include,
                                 const fs::path& lab_headers) {
  labrun::CompilerSetup setup;
  setup.nvcc = LABRUN_NVCC_PATH;
  setup.cuda_include = cuda_include;
  setup.lab_headers = lab_headers;
  setup.policy = labrun::include_policy(quoted, cuda_include);
  return setup;
}

labrun::CompilerSetup day48_setup() {
  return test_setup(labrun::testing::registered_exercise("day48-fusion/halfway-pair").quoted_headers,
                    LABRUN_CUDA_INCLUDE_DIR, LABRUN_DAY48_SOURCE_DIR_FOR_TESTS);
}

bool expects(const fs::path& folder, const std::string& mistake) {
  const auto expected = nlohmann::json::parse(labrun::read_file(folder / "expected.json"));
  const auto& m = expected.at("mistakes");
  return std::find(m.begin(), m.end(), mistake) != m.end();
}

// A stand-in for CUDA's include folder with one header that includes what a macro names, and a
// stand-in for the lab's headers with files a submission may not include: a header, a shell script,
// bytes that are not text, and a macro bomb.
struct Fixture {
  labrun::ScratchFolder folder;
  fs::path cuda = folder.path() / "cuda-include";
  fs::path lab = folder.path() / "lab";
  Fixture() {
    fs::create_directories(cuda);
    fs::create_directories(lab / "grading");
    labrun::write_file_atomically(cuda / "computed.h", "#pragma once\n#include LABRUN_WHAT\n", false);
    for (const char* header : {"grading/submission.cuh", "stages.cuh", "chain_constants.hpp"}) {
      fs::copy_file(fs::path(LABRUN_DAY48_SOURCE_DIR_FOR_TESTS) / header, lab / header);
    }
    labrun::write_file_atomically(lab / "grading" / "secret.hpp", "#define LABRUN_SECRET 42\n", false);
    labrun::write_file_atomically(lab / "grading" / "tool.sh", "#!/bin/sh\necho secret-42\n", false);
    labrun::write_file_atomically(lab / "grading" / "blob.bin",
                                  std::string("\x7f"
                                              "ELF\0\0\x01#!x\n",
                                              10),
                                  false);
    std::string bomb = "#define B0 secret-42\n";
    for (int level = 1; level <= 40; ++level) {
      bomb += "#define B" + std::to_string(level) + " B" + std::to_string(level - 1) + " B" +
              std::to_string(level - 1) + "\n";
    }
    labrun::write_file_atomically(lab / "grading" / "bomb.h", bomb + "B40\n", false);
  }
  [[nodiscard]] labrun::CompilerSetup setup() const {
    return test_setup(labrun::testing::registered_exercise("day48-fusion/halfway-pair").quoted_headers, cuda,
                      lab);
  }
  // The checks before compiling of a source that defines LABRUN_WHAT as `what` and includes the
  // stand-in header (`before` and `after` around the include).
  [[nodiscard]] labrun::SourceVerdict check(const std::string& source,
                                            const std::vector<std::string>& archs = {"sm_75"},
                                            double cpu_seconds = 60.0) const {
    labrun::CompilerSetup s = setup();
    s.cpu_seconds = cpu_seconds;
    s.wall_seconds = 20.0 * cpu_seconds;
    const labrun::ScratchFolder scratch;
    return labrun::check_before_compiling(source, scratch.path(), s, archs);
  }
};

std::string steered(const std::string& what) {
  return "#define LABRUN_WHAT " + what + "\n#include <computed.h>\n";
}

}  // namespace

TEST_CASE("the checks before compiling refuse exactly the corpus submissions expected to be refused") {
  require_sandbox();
  const labrun::IncludePolicy sum_policy =
      labrun::exercise_include_policy(labrun::testing::registered_exercise("fusion-verdicts/sum-of-squares"));
  labrun::CompilerSetup sum_setup = test_setup({}, LABRUN_CUDA_INCLUDE_DIR, "");
  sum_setup.policy = sum_policy;
  for (const auto& [corpus, source, setup] :
       {std::tuple{labrun::testing::grading_corpus(), "halfway.cu", day48_setup()},
        std::tuple{labrun::testing::exercise_corpus("fusion-verdicts"), "sum_of_squares.cu", sum_setup}}) {
    for (const auto& entry : fs::directory_iterator(corpus)) {
      INFO(entry.path().filename().string());
      const labrun::ScratchFolder scratch;
      const labrun::SourceVerdict verdict = labrun::check_before_compiling(
          labrun::read_file(entry.path() / source), scratch.path(), setup, {"sm_90"});
      CHECK(verdict.grader_problem.empty());
      CHECK(verdict.problems.empty() == !expects(entry.path(), "include-not-allowed"));
    }
  }
}

TEST_CASE("an include computed inside an allowed header from the submission's macros is refused") {
  require_sandbox();
  const Fixture fixture;
  // The text check passes all of these: their includes are literal and allowed.
  const auto opened = fixture.check(steered("\"" + (fixture.lab / "grading" / "secret.hpp").string() + "\"") +
                                    "int x = LABRUN_SECRET;\n");
  REQUIRE(opened.problems.size() == 1);
  CHECK_THAT(opened.problems.front().message,
             ContainsSubstring("opens " + (fixture.lab / "grading" / "secret.hpp").string()));
  CHECK_THAT(opened.problems.front().message, !ContainsSubstring("42"));
  // A file of the machine outside the sandbox does not exist inside it: the attempt is named.
  const auto outside = fixture.check(steered("\"/etc/passwd\""));
  REQUIRE(outside.problems.size() == 1);
  CHECK_THAT(outside.problems.front().message, ContainsSubstring("tries to open /etc/passwd"));
  CHECK(fixture.check(steered("<cstdint>")).problems.empty());
}

TEST_CASE("an outside file that breaks the preprocessor is refused as reached, never a compile error") {
  require_sandbox();
  const Fixture fixture;
  // A script and bytes that are not text: the preprocessor stops in them, and its trace names them.
  for (const char* name : {"tool.sh", "blob.bin"}) {
    INFO(name);
    const auto verdict = fixture.check(steered("\"" + (fixture.lab / "grading" / name).string() + "\""));
    REQUIRE_FALSE(verdict.problems.empty());
    CHECK(verdict.problems.front().kind == labrun::kIncludeNotAllowed);
    CHECK_THAT(verdict.problems.front().message, ContainsSubstring(name));
    CHECK_THAT(verdict.problems.front().message, !ContainsSubstring("secret-42"));
    CHECK(verdict.compiler_stopped.empty());
  }
  // A file that keeps the preprocessor busy until it is stopped at its limits: still named.
  const auto bomb =
      fixture.check(steered("\"" + (fixture.lab / "grading" / "bomb.h").string() + "\""), {"sm_75"}, 2.0);
  REQUIRE_FALSE(bomb.problems.empty());
  CHECK_THAT(bomb.problems.front().message, ContainsSubstring("bomb.h"));
  CHECK(bomb.compiler_stopped.empty());
  // Devices and /proc: none but /dev/null and /dev/tty exists in the sandbox, and neither can be read
  // through (nor block it): each is refused.
  for (const char* device :
       {"/dev/zero", "/dev/urandom", "/dev/stdin", "/dev/tty", "/dev/null", "/proc/self/environ"}) {
    INFO(device);
    const auto verdict = fixture.check(steered(std::string("\"") + device + "\""));
    REQUIRE_FALSE(verdict.problems.empty());
    CHECK_THAT(verdict.problems.front().message, ContainsSubstring(device));
  }
  // __has_include made by token pasting, which no check of the text sees, of a file that cannot be
  // opened: the preprocessor stops, and says what it reached for.
  const auto pasted =
      fixture.check("#define LABRUN_CAT(a, b) a##b\n#if LABRUN_CAT(__has_, include)(\"/dev/tty\")\n#endif\n");
  REQUIRE_FALSE(pasted.problems.empty());
  CHECK_THAT(pasted.problems.front().message, ContainsSubstring("/dev/tty"));
}

TEST_CASE("without a GPU, the checks preprocess as every compile could: -O3 and every architecture") {
  require_sandbox();
  const Fixture fixture;
  const std::string escape = steered("\"/etc/passwd\"");
  // An escape only the compile's own flags reach.
  const auto optimised = fixture.check("#ifdef __OPTIMIZE__\n" + escape + "#endif\n");
  CHECK_FALSE(optimised.problems.empty());
  // An escape only a newer architecture than the oldest reaches.
  const std::string newer = "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n" + escape + "#endif\n";
  CHECK(fixture.check(newer, {"sm_75"}).problems.empty());
  CHECK_FALSE(fixture.check(newer, kTwoArchitectures).problems.empty());
  const std::vector<std::string> every = labrun::toolkit_architectures(fixture.setup());
  CHECK(std::find(every.begin(), every.end(), "sm_90") != every.end());
  CHECK(std::find(every.begin(), every.end(), "sm_75") != every.end());
  CHECK_FALSE(fixture.check(newer, every).problems.empty());
}

TEST_CASE("an include the text check leaves to the preprocessor is refused exactly where it acts on it") {
  require_sandbox();
  const Fixture fixture;
  // Inside a group the preprocessor skips: not an escape, and nothing is opened.
  CHECK(fixture.check("#ifdef LABRUN_NEVER_DEFINED\n#include <cstdio>\n#include \"/etc/passwd\"\n#endif\n")
            .problems.empty());
  CHECK(fixture.check("#if 0\n#include \"grading/secret.hpp\"\n#endif\n").problems.empty());
  // Inside a group it takes: a standard header the policy does not name, and an outside file.
  const auto cstdio = fixture.check("#ifndef LABRUN_NEVER_DEFINED\n#include <cstdio>\n#endif\n");
  REQUIRE(cstdio.problems.size() == 1);
  CHECK(cstdio.problems.front().line == 2);
  CHECK_THAT(cstdio.problems.front().message, ContainsSubstring("includes "));
  CHECK_THAT(cstdio.problems.front().message, ContainsSubstring("cstdio"));
  const auto secret = fixture.check("#if 1\n#include \"grading/secret.hpp\"\n#endif\n");
  REQUIRE_FALSE(secret.problems.empty());
  CHECK_THAT(secret.problems.front().message, ContainsSubstring("secret.hpp"));
  // What the policy names, inside a group or not, passes.
  CHECK(fixture.check("#if 1\n#include <cstdint>\n#include \"stages.cuh\"\n#endif\n#include <cmath>\n")
            .problems.empty());
}

TEST_CASE("the compile checks what it opened itself, whether or not it finished") {
  require_sandbox();
  const Fixture fixture;
  const labrun::CompilerSetup setup = fixture.setup();
  const auto compiled = [&](const std::string& source) {
    const labrun::ScratchFolder scratch;
    REQUIRE(labrun::check_before_compiling(source, scratch.path(), setup, {}).problems.empty());
    return labrun::compile_to_cubin(scratch.path(), setup, "sm_75");
  };
  const labrun::DeviceCompile script =
      compiled(steered("\"" + (fixture.lab / "grading" / "tool.sh").string() + "\""));
  CHECK_FALSE(script.compiled);
  REQUIRE_FALSE(script.include_problems.empty());
  CHECK_THAT(script.include_problems.front().message, ContainsSubstring("tool.sh"));
  const labrun::DeviceCompile secret =
      compiled(steered("\"" + (fixture.lab / "grading" / "secret.hpp").string() + "\"") +
               "extern \"C\" __global__ void k(int* x) { *x = LABRUN_SECRET; }\n");
  REQUIRE_FALSE(secret.include_problems.empty());
  CHECK(secret.messages.empty());
}

TEST_CASE(
    "the sandboxed compile makes an image, says what its kernels give compute-sanitizer to check, and "
    "refuses "
    "one whose variables would take the GPU's memory") {
  require_sandbox();
  const labrun::CompilerSetup setup = day48_setup();
  std::string image;  // the last image compiled
  const auto compile = [&](const fs::path& folder) {
    const labrun::ScratchFolder scratch;
    const std::string source = labrun::read_file(folder / "halfway.cu");
    REQUIRE(labrun::check_before_compiling(source, scratch.path(), setup, {}).problems.empty());
    labrun::DeviceCompile compiled = labrun::compile_to_cubin(scratch.path(), setup, "sm_75");
    image = compiled.compiled ? labrun::read_file(scratch.path() / labrun::kImageName) : "";
    return compiled;
  };
  const labrun::DeviceCompile correct = compile(labrun::testing::grading_corpus() / "correct");
  CHECK(correct.compiled);
  // The image carries its line table (-lineinfo), naming the source, for compute-sanitizer's reports.
  CHECK(image.find(".nv_debug_line_sass") != std::string::npos);
  CHECK(image.find(labrun::kSourceName) != std::string::npos);
  CHECK(correct.image_refusal.empty());
  CHECK_FALSE(correct.shared_memory);
  CHECK_FALSE(correct.synchronisation);
  const labrun::DeviceCompile tiled = compile(labrun::testing::grading_corpus() / "correct-shared-tile");
  CHECK(tiled.shared_memory);
  CHECK(tiled.synchronisation);
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
  labrun::CompilerSetup setup = day48_setup();
  setup.cpu_seconds = 2.0;
  setup.wall_seconds = 20.0;
  const fs::path bomb = fs::path(LABRUN_TEST_DATA_DIR) / "grading" / "hostile" / "compile-bomb";
  const labrun::ScratchFolder scratch;
  const labrun::SourceVerdict verdict = labrun::check_before_compiling(labrun::read_file(bomb / "halfway.cu"),
                                                                       scratch.path(), setup, {"sm_75"});
  CHECK(verdict.problems.empty());
  CHECK_THAT(verdict.compiler_stopped, ContainsSubstring("stopped at the compiler's limits"));
}
