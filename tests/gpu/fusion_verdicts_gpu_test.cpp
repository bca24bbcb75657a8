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

TEST_CASE("the whole fusion-verdicts lab runs in the smoke configuration and its transcript reads back") {
  require_gpu();
  std::string pattern = (fs::temp_directory_path() / "labrun-verdicts-gpu-test-XXXXXX").string();
  const fs::path out = mkdtemp(pattern.data());
  const labrun::Lab lab = verdicts::make_lab();
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
    CHECK_FALSE(c.samples_ms.empty());
    CHECK(c.summary.median > 0.0);
    CHECK(c.elements <= labrun::kSmokeMaxElements);
  }
  CHECK(names.size() == lab.cases.size());
  REQUIRE(t.stability.has_value());
  const labrun::FactGroup* lab_facts = t.group("lab");
  REQUIRE(lab_facts != nullptr);
  REQUIRE(lab_facts->find("reduction_grid_blocks") != nullptr);
  CHECK(lab_facts->find("reduction_grid_blocks")->is_known());

  // Every claim is recorded; without the card-scaled size (smoke) the verdict rows are not
  // measured, and a claim that is must say why.
  REQUIRE(t.claims.size() == lab.claims.size());
  for (const labrun::ClaimResult& c : t.claims) {
    INFO(c.id << ": " << labrun::verdict_name(c.verdict) << ", " << c.detail);
    CHECK_FALSE(c.detail.empty());
  }

  const std::string json_text = labrun::read_file(report.json_path);
  CHECK(labrun::validate_transcript_text(json_text).empty());
  const labrun::Transcript back = labrun::transcript_from_text(json_text);
  CHECK(labrun::transcript_to_text(back) == json_text);
  CHECK(labrun::render_markdown_beside(back, &lab, report.json_path) ==
        labrun::read_file(report.markdown_path));
  CHECK_FALSE(verdicts::plots(back).empty());
  fs::remove_all(out);
}
