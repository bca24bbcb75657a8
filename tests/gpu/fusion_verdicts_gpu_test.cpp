// GPU tests of the fusion-verdicts lab: each skips when no usable CUDA device exists, and runs on a
// machine with one.

#include <unistd.h>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "claims/claims.hpp"
#include "device/device_info.hpp"
#include "evidence/markdown.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "fusion-verdicts/kernels.hpp"
#include "fusion-verdicts/lab.hpp"
#include "fusion-verdicts/plots.hpp"
#include "runner/runner.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;

namespace {

using labrun::testing::require_gpu;

// Every correctness version the lab's cases name, in declared order.
std::vector<std::string> every_version(const labrun::Lab& lab) {
  std::vector<std::string> versions;
  for (const labrun::CaseSpec& c : lab.cases) {
    if (std::find(versions.begin(), versions.end(), c.verified_by) == versions.end()) {
      versions.push_back(c.verified_by);
    }
  }
  return versions;
}

}  // namespace

TEST_CASE("every fusion-verdicts version matches the float64 reference at the odd size") {
  require_gpu();
  const labrun::Lab lab = verdicts::make_lab();
  auto session = lab.open_session(labrun::SessionConfig{verdicts::kCorrectnessElements, 7});
  const std::vector<std::string> versions = every_version(lab);
  std::vector<labrun::CorrectnessCheck> checks;
  std::vector<labrun::BitwiseComparison> bitwise;
  session->check_correctness(versions, verdicts::kCorrectnessElements, 7, checks, bitwise);
  REQUIRE(checks.size() == versions.size());
  for (const labrun::CorrectnessCheck& check : checks) {
    INFO(check.version << ": " << check.mismatches << " mismatches, max abs error " << check.max_abs_error
                       << ", max rel error " << check.max_rel_error);
    CHECK(check.passed);
    CHECK(check.mismatches == 0);
  }
  // Unfused and fused versions run the same float operations in the same order (stages.cuh).
  REQUIRE(bitwise.size() == 3 + 4 + 2 * 9);
  for (const labrun::BitwiseComparison& b : bitwise) {
    INFO(b.first << " against " << b.second << ": " << b.differing << " differ by at most "
                 << b.max_abs_difference);
    CHECK(b.max_abs_difference < 1e-5);
    if (b.first.rfind(verdicts::kReusePart, 0) != 0) {
      CHECK(b.differing == 0);  // plain arithmetic with explicit rounding: identical by construction
    }
  }
}

TEST_CASE("the reduction grid is co-resident and cooperative launch is available") {
  require_gpu();
  const verdicts::ReductionGrid grid = verdicts::reduction_grid();
  CHECK(grid.sm_count > 0);
  CHECK(grid.blocks_per_sm > 0);
  CHECK(grid.blocks == static_cast<unsigned>(grid.sm_count * grid.blocks_per_sm));
  CHECK(grid.cooperative_launch);
}

TEST_CASE("an unbuilt stencil radius is refused - not launched") {
  require_gpu();
  const verdicts::Workspace none;
  CHECK_THROWS_AS(verdicts::launch_stencil_fused(3, none, 16, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(verdicts::stencil_shape(2, false), std::invalid_argument);
}
