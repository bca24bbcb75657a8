// A declared lab's session on a GPU, built here rather than registered: versions that share a
// reference key compute their reference once per correctness pass, and each is still compared
// with it. Skips without a GPU.

#include <cuda_runtime_api.h>

#include <catch2/catch_test_macros.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cases/declared_lab.hpp"
#include "support/require_gpu.hpp"
#include "timing/cuda_check.hpp"

namespace {

// y = x, by a device-to-device copy on the session's stream.
labrun::RegionBuilder copy_region(labrun::BufferId from, labrun::BufferId to) {
  return [from, to](labrun::RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const float* source = ctx[from];
    float* destination = ctx[to];
    const cudaStream_t s = ctx.stream();
    return [source, destination, n, s] {
      LABRUN_CUDA_CHECK(cudaMemcpyAsync(destination, source, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
    };
  };
}

}  // namespace

TEST_CASE("versions that share a reference key compute it once per correctness pass") {
  labrun::testing::require_gpu();
  labrun::LabDeclaration lab("shared-reference");
  const labrun::BufferId x = lab.input("x", 1, -1.0f, 1.0f);
  const labrun::BufferId y = lab.output("y");
  auto calls = std::make_shared<int>(0);
  const auto identity = [x, calls](const labrun::HostInputs& in, std::uint64_t) {
    ++*calls;
    return std::vector<double>(in[x].begin(), in[x].end());
  };
  const labrun::Tolerance exact{0.0, 0.0};
  lab.check({"first", copy_region(x, y), y, identity, exact, "identity"});
  lab.check({"second", copy_region(x, y), y, identity, exact, "identity"});
  lab.check({"alone", copy_region(x, y), y, identity, exact});
  const std::unique_ptr<labrun::LabSession> session = lab.session_factory()({4099, 7});
  std::vector<labrun::CorrectnessCheck> checks;
  std::vector<labrun::BitwiseComparison> bitwise;
  session->check_correctness({"first", "second", "alone"}, 4099, 7, checks, bitwise);
  CHECK(*calls == 2);  // once for the shared key, once for the version without one
  REQUIRE(checks.size() == 3);
  for (const labrun::CorrectnessCheck& check : checks) {
    CHECK(check.passed);
    CHECK(check.elements == 4099);
  }
  // A second pass computes it again: nothing is kept between passes.
  checks.clear();
  session->check_correctness({"first", "second"}, 4099, 7, checks, bitwise);
  CHECK(*calls == 3);
}
