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
