// GPU tests: each skips when no usable CUDA device exists, and runs on a machine with one.

#include <unistd.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "chain_constants.hpp"
#include "core/environment_contract.hpp"
#include "device/device_info.hpp"
#include "evidence/markdown.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "kernels.hpp"
#include "lab.hpp"
#include "plots/draw_plots.hpp"
#include "runner/runner.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;

namespace {

using labrun::testing::require_gpu;

std::vector<std::string> every_version() {
  std::vector<std::string> versions{"copy-floor",  "copy-vectorized", "copy-memcpy",       "staged-chain",
                                    "fused-chain", "halfway-pair",    "staged-chain-graph"};
  for (const int width : day48::kWidths) {
    versions.push_back("fused-wide-k" + std::to_string(width));
  }
  return versions;
}

}  // namespace

TEST_CASE("every day-48 kernel matches the float64 reference at the odd size") {
  require_gpu();
  const labrun::Lab lab = day48::make_lab();
  auto session = lab.open_session(labrun::SessionConfig{day48::kCorrectnessElements, 7});
  std::vector<labrun::CorrectnessCheck> checks;
  std::vector<labrun::BitwiseComparison> bitwise;
  session->check_correctness(every_version(), day48::kCorrectnessElements, 7, checks, bitwise);
  REQUIRE(checks.size() == every_version().size());
  for (const labrun::CorrectnessCheck& check : checks) {
    INFO(check.version << ": " << check.mismatches << " mismatches, max abs error " << check.max_abs_error);
    CHECK(check.passed);
    CHECK(check.elements == day48::kCorrectnessElements);
  }
  REQUIRE(bitwise.size() == 3);
  for (const labrun::BitwiseComparison& b : bitwise) {
    // Reported, not asserted equal: only bounded by the tolerance both passed.
    CHECK(b.max_abs_difference < 1e-4);
  }
}

TEST_CASE("an unsupported width is refused - not launched") {
  require_gpu();
  day48::ChainBuffers none;
  CHECK_THROWS_AS(day48::launch_fused_wide(3, none, 16, nullptr), std::invalid_argument);
}

TEST_CASE("every case of the lab runs in the smoke configuration and its transcript reads back") {
  require_gpu();
  std::string pattern = (fs::temp_directory_path() / "labrun-gpu-test-XXXXXX").string();
  const fs::path out = mkdtemp(pattern.data());
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options;
  options.lab_name = lab.name;
  options.out_dir = out;
  options.smoke = true;
  options.command_line = {"labrun_gpu_tests"};
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  const labrun::Transcript& t = report.transcript;
  CHECK(t.configuration == "smoke");
  CHECK(t.all_correct());
  std::set<std::string> names;
  for (const labrun::CaseResult& c : t.cases) {
    names.insert(c.name);
    CHECK(c.samples_ms.size() == static_cast<std::size_t>(t.repetitions));
    CHECK(c.summary.median > 0.0);
    CHECK(c.elements <= labrun::kSmokeMaxElements);
  }
  CHECK(names.size() == lab.cases.size());
  REQUIRE(t.stability.has_value());
  const labrun::Fact* name = t.group("device")->find("name");
  REQUIRE(name != nullptr);
  CHECK(name->is_known());
  // Schema 1.4.0: every metadata group and fact recorded; the GPU's UUID and the host name read.
  CHECK(labrun::missing_from_contract(t.environment).empty());
  CHECK(t.group("device")->find("uuid")->is_known());
  CHECK(t.group("host")->find("hostname")->is_known());

  CHECK(t.claims.size() == lab.claims.size());
  const std::string json_text = labrun::read_file(report.json_path);
  CHECK(labrun::validate_transcript_text(json_text).empty());
  const labrun::Transcript back = labrun::transcript_from_text(json_text);
  CHECK(labrun::transcript_to_text(back) == json_text);
  // The Markdown links the plots the run drew beside it (none when matplotlib is missing).
  for (const fs::path& file : report.plot_files) {
    CHECK(fs::file_size(file) > 0);
  }
  CHECK(labrun::existing_plots(lab.plots(back), report.json_path.parent_path(),
                               report.json_path.stem().string(), labrun::kPlotsBesideFormat)
            .size() == report.plot_files.size());
  CHECK(labrun::render_markdown_beside(back, &lab, report.json_path) ==
        labrun::read_file(report.markdown_path));
  // Every case recorded how it was sampled.
  REQUIRE(back.timing.has_value());
  for (const labrun::CaseResult& c : back.cases) {
    CHECK(c.timing_mode == "hot");
    CHECK(c.stop_reason == "fixed-count");
    CHECK(c.sample_sm_clock_mhz.size() == c.samples_ms.size());
  }

  // A second run into the same file names is refused rather than overwriting.
  CHECK_THROWS_AS(labrun::write_file_atomically(report.json_path, "x", false), labrun::FileExistsError);
  fs::remove_all(out);
}
