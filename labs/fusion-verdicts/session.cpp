#include "session.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis.hpp"
#include "constants.hpp"
#include "kernels.hpp"
#include "lab.hpp"
#include "reference.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"
#include "verify/compare.hpp"

namespace verdicts {
namespace {

using labrun::DeviceBuffer;
using labrun::Tolerance;

constexpr const char* kParts[] = {kFloorPart, kPairPart, kSumPart, kNormalisePart, kStencilPart, kReusePart};

// A case or a correctness version as its part and its name within the part.
struct Key {
  std::string part;
  std::string name;
};

[[noreturn]] void unknown(const std::string& what) {
  throw std::invalid_argument(std::string(kLabName) + " has no case or version named '" + what + "'");
}

// "fusion-verdicts/<part>/<name>".
Key key_of_case(const std::string& case_name) {
  const std::size_t first = case_name.find('/');
  const std::size_t last = case_name.rfind('/');
  if (first == std::string::npos || first == last) {
    unknown(case_name);
  }
  return Key{case_name.substr(first + 1, last - first - 1), case_name.substr(last + 1)};
}

// "<part>-<name>": the parts are fixed, so the longest matching part prefix decides.
Key key_of_version(const std::string& version) {
  std::optional<Key> found;
  for (const char* part : kParts) {
    const std::string prefix = std::string(part) + "-";
    if (version.rfind(prefix, 0) == 0 && (!found || found->part.size() < prefix.size() - 1)) {
      found = Key{part, version.substr(prefix.size())};
    }
  }
  if (!found) {
    unknown(version);
  }
  return *found;
}

int stencil_radius(const std::string& name) {
  const std::optional<unsigned> radius = trailing_factor(name);
  if (!radius || std::none_of(std::begin(kStencilRadii), std::end(kStencilRadii),
                              [&](int built) { return static_cast<unsigned>(built) == *radius; })) {
    unknown(std::string(kStencilPart) + "/" + name);
  }
  return static_cast<int>(*radius);
}

// R of a recompute case, which must be one of kReuseFactors (powers of two), as its log2.
unsigned reuse_shift(const std::string& name) {
  const std::optional<unsigned> reuse = trailing_factor(name);
  if (!reuse || std::none_of(std::begin(kReuseFactors), std::end(kReuseFactors),
                             [&](unsigned built) { return built == *reuse; })) {
    unknown(std::string(kReusePart) + "/" + name);
  }
  unsigned shift = 0;
  while ((1u << shift) < *reuse) {
    ++shift;
  }
  return shift;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// The pairs whose outputs are compared bit for bit: (fused version, unfused version).
std::vector<std::pair<std::string, std::string>> bitwise_pairs() {
  std::vector<std::pair<std::string, std::string>> pairs{
      {version_name(kPairPart, "fused"), version_name(kPairPart, "two-passes")},
      {version_name(kSumPart, "folded"), version_name(kSumPart, "two-kernels")},
      {version_name(kNormalisePart, "cooperative"), version_name(kNormalisePart, "two-kernels")},
  };
  for (const int radius : kStencilRadii) {
    pairs.emplace_back(version_name(kStencilPart, stencil_case(radius, true)),
                       version_name(kStencilPart, stencil_case(radius, false)));
  }
  for (const bool expensive : {false, true}) {
    for (const unsigned reuse : kReuseFactors) {
      pairs.emplace_back(version_name(kReusePart, reuse_case(expensive, true, reuse)),
                         version_name(kReusePart, reuse_case(expensive, false, reuse)));
    }
  }
  return pairs;
}

// Correctness tolerances, per part: |got - expected| <= absolute + relative * |expected|.
// - The copy moves bits: exact.
// - Scale then bias rounds twice (multiply, add): within 2^-24 of |x * s| + |y|, at most 2e-7
//   here; 1e-6 either way.
// - A float32 sum of 10^6 squares in this tree (a few terms per thread, then two 256-way trees)
//   has a worst-case relative error near 1e-6; 1e-5 leaves a factor of ten, while a dropped or
//   doubled block is off by 1e-3 or more.
// - RMS normalisation inherits half the sum's relative error through the square root.
// - A box average of up to 129 values in [-1, 1) summed in float has a worst-case absolute error
//   near 8e-6 (typical 1e-7); a shifted window or a wrong edge is off by 1e-3 or more.
// - The per-group values: a few ulp of exp(sin(k a)) and the rounding of k a, relative 1e-6.
Tolerance tolerance_for(const std::string& part) {
  if (part == kFloorPart) {
    return Tolerance{0.0, 0.0};
  }
  if (part == kPairPart) {
    return Tolerance{1e-6, 1e-6};
  }
  if (part == kSumPart) {
    return Tolerance{0.0, 1e-5};
  }
  if (part == kStencilPart) {
    return Tolerance{1e-5, 1e-5};
  }
  return Tolerance{1e-6, 1e-5};  // reduction-elementwise, recompute
}

class VerdictsSession final : public labrun::LabSession {
 public:
  explicit VerdictsSession(const labrun::SessionConfig& config)
      : capacity_(config.max_elements),
        grid_(reduction_grid()),
        x_(capacity_),
        a_(capacity_),
        mid_(capacity_),
        y_(capacity_),
        partials_(std::max(grid_.blocks, 1u)),
        sum_(1) {
    workspace_.x = x_.data();
    workspace_.a = a_.data();
    workspace_.mid = mid_.data();
    workspace_.y = y_.data();
    workspace_.partials = partials_.data();
    workspace_.sum = sum_.data();
    workspace_.reduction_blocks = grid_.blocks;
    workspace_.cooperative_launch = grid_.cooperative_launch;
    fill_inputs(workspace_, capacity_, config.seed, stream_);
    LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void check_correctness(const std::vector<std::string>& versions, std::uint64_t elements,
                         std::uint64_t /*seed: the inputs were filled from it when the session opened*/,
                         std::vector<labrun::CorrectnessCheck>& checks,
                         std::vector<labrun::BitwiseComparison>& bitwise) override {
    require_capacity(elements);
    const std::size_t n = elements;
    x_host_ = download(x_.data(), n);
    a_host_ = download(a_.data(), n);
    references_.clear();
    const std::vector<std::pair<std::string, std::string>> pairs = bitwise_pairs();
    std::map<std::string, std::vector<float>> waiting;  // outputs whose partner has not run yet
    for (const std::string& version : versions) {
      const Key key = key_of_version(version);
      poison_outputs(n);
      region_for(key, n)();
      LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
      std::vector<float> got = key.part == kSumPart ? download(sum_.data(), 1) : download(y_.data(), n);
      checks.push_back(
          labrun::compare_with_reference(version, got, reference_for(key), tolerance_for(key.part)));
      for (const auto& [fused, unfused] : pairs) {
        const std::string& partner = version == fused ? unfused : version == unfused ? fused : version;
        if (partner == version) {
          continue;
        }
        if (const auto found = waiting.find(partner); found != waiting.end()) {
          bitwise.push_back(version == fused ? labrun::compare_bitwise(fused, got, unfused, found->second)
                                             : labrun::compare_bitwise(fused, found->second, unfused, got));
          waiting.erase(found);
        } else {
          waiting[version] = got;
        }
      }
    }
    references_.clear();
    x_host_.clear();
    a_host_.clear();
  }

  std::vector<labrun::Fact> facts() override {
    const CompiledVersions versions = compiled_versions();
    const auto as_text = [](int version) {
      return std::to_string(version / 10) + "." + std::to_string(version % 10);
    };
    return {labrun::Fact::known("kernel_binary_version", as_text(versions.binary_version)),
            labrun::Fact::known("kernel_ptx_version", as_text(versions.ptx_version)),
            labrun::Fact::known("threads_per_block", std::int64_t{kThreadsPerBlock}),
            labrun::Fact::known("stencil_tile", std::int64_t{kStencilTile}),
            labrun::Fact::known("reduction_grid_blocks", static_cast<std::int64_t>(grid_.blocks)),
            labrun::Fact::known("reduction_blocks_per_sm", static_cast<std::int64_t>(grid_.blocks_per_sm)),
            labrun::Fact::known("cooperative_launch", grid_.cooperative_launch)};
  }

  labrun::CaseRegion prepare_case(const labrun::CaseSpec& spec, std::uint64_t elements) override {
    require_capacity(elements);
    const Key key = key_of_case(spec.name);
    labrun::CaseRegion region;
    region.run = region_for(key, elements);
    auto& attributes = region.attributes;
    attributes["threads_per_block"] = kThreadsPerBlock;
    if (key.part == kSumPart || key.part == kNormalisePart) {
      attributes["grid_blocks"] = grid_.blocks;
      attributes["blocks_per_sm"] = grid_.blocks_per_sm;
      if (key.name == "cooperative") {
        attributes["cooperative"] = 1;
      }
    } else if (key.part == kStencilPart) {
      const StencilShape shape = stencil_shape(stencil_radius(key.name), starts_with(key.name, "fused"));
      const std::uint64_t blocks = (elements + kStencilTile - 1) / kStencilTile;
      attributes["blocks"] = static_cast<double>(blocks);
      attributes["radius"] = shape.radius;
      attributes["points"] = 2 * shape.radius + 1;
      attributes["tile"] = shape.tile;
      attributes["halo"] = shape.halo;
      attributes["recomputed_fraction"] = shape.recomputed_fraction;
      attributes["shared_bytes_per_block"] = static_cast<double>(shape.shared_bytes);
    } else {
      attributes["blocks"] = blocks_for(elements);
    }
    if (key.part == kReusePart) {
      const unsigned shift = reuse_shift(key.name);
      attributes["reuse"] = static_cast<double>(1u << shift);
      attributes["groups"] = static_cast<double>(groups_for(elements, shift));
    }
    return region;
  }

 private:
  // One execution of a case (or version) at n, on the legacy default stream. The lambdas copy
  // the workspace's pointers, which stay valid until the session closes.
  std::function<void()> region_for(const Key& key, std::size_t n) const {
    const Workspace w = workspace_;
    cudaStream_t s = stream_;
    using Launcher = void (*)(const Workspace&, std::size_t, cudaStream_t);
    static const std::map<std::pair<std::string, std::string>, Launcher> fixed_regions = {
        {{kFloorPart, "copy"}, launch_copy_floor},
        {{kPairPart, "two-passes"}, launch_pair_two_passes},
        {{kPairPart, "fused"}, launch_pair_fused},
        {{kSumPart, "two-kernels"}, launch_sum_two_kernels},
        {{kSumPart, "folded"}, launch_sum_folded},
        {{kNormalisePart, "two-kernels"}, launch_normalise_two_kernels},
        {{kNormalisePart, "cooperative"}, launch_normalise_cooperative},
    };
    if (const auto found = fixed_regions.find({key.part, key.name}); found != fixed_regions.end()) {
      const Launcher launch = found->second;
      return [launch, w, n, s] { launch(w, n, s); };
    }
    if (key.part == kStencilPart) {
      const int radius = stencil_radius(key.name);
      if (starts_with(key.name, "fused-")) {
        return [radius, w, n, s] { launch_stencil_fused(radius, w, n, s); };
      }
      if (starts_with(key.name, "two-passes-")) {
        return [radius, w, n, s] { launch_stencil_two_passes(radius, w, n, s); };
      }
    }
    if (key.part == kReusePart) {
      const unsigned shift = reuse_shift(key.name);
      const bool expensive = starts_with(key.name, "expensive-");
      if (!expensive && !starts_with(key.name, "cheap-")) {
        unknown(key.part + "/" + key.name);
      }
      const std::string mode = key.name.substr(key.name.find('-') + 1);
      if (starts_with(mode, "recompute-")) {
        return [expensive, shift, w, n, s] { launch_recompute(expensive, shift, w, n, s); };
      }
      if (starts_with(mode, "materialise-")) {
        return [expensive, shift, w, n, s] { launch_materialise(expensive, shift, w, n, s); };
      }
    }
    unknown(key.part + "/" + key.name);
  }

  // The float64 reference of a version's output, computed once per correctness check.
  const std::vector<double>& reference_for(const Key& key) {
    std::string id = key.part;
    if (key.part == kStencilPart) {
      id += "-r" + std::to_string(stencil_radius(key.name));
    } else if (key.part == kReusePart) {
      id += key.name.substr(0, key.name.find('-')) + "-r" + std::to_string(1u << reuse_shift(key.name));
    }
    if (const auto found = references_.find(id); found != references_.end()) {
      return found->second;
    }
    std::vector<double> expected;
    if (key.part == kFloorPart) {
      expected.assign(x_host_.begin(), x_host_.end());
    } else if (key.part == kPairPart) {
      expected = scale_bias_reference(x_host_);
    } else if (key.part == kSumPart) {
      expected = {sum_of_squares_reference(x_host_)};
    } else if (key.part == kNormalisePart) {
      expected = rms_normalise_reference(x_host_);
    } else if (key.part == kStencilPart) {
      expected = stencil_pair_reference(x_host_, stencil_radius(key.name));
    } else {
      expected = reuse_reference(x_host_, group_values(starts_with(key.name, "expensive-")),
                                 1u << reuse_shift(key.name));
    }
    return references_.emplace(id, std::move(expected)).first->second;
  }

  // f(a[g]) in float64 for every g < n (the groups of any R are a prefix of these).
  const std::vector<double>& group_values(bool expensive) {
    const std::string id = expensive ? "values-expensive" : "values-cheap";
    if (const auto found = references_.find(id); found != references_.end()) {
      return found->second;
    }
    std::vector<double> values(a_host_.size());
    std::transform(a_host_.begin(), a_host_.end(), values.begin(),
                   expensive ? expensive_value_reference : cheap_value_reference);
    return references_.emplace(id, std::move(values)).first->second;
  }

  void require_capacity(std::uint64_t elements) const {
    if (elements > capacity_) {
      throw std::invalid_argument("n = " + std::to_string(elements) + " exceeds the session's buffers (" +
                                  std::to_string(capacity_) + " elements)");
    }
  }

  std::vector<float> download(const float* device, std::size_t n) const {
    std::vector<float> host(n);
    LABRUN_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
  }

  // Every output, intermediate and partial sum becomes NaN (all bits set), so an element no
  // kernel wrote, or a value another version left behind, cannot pass.
  void poison_outputs(std::size_t n) {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(mid_.data(), 0xFF, n * sizeof(float), stream_));
    LABRUN_CUDA_CHECK(cudaMemsetAsync(y_.data(), 0xFF, n * sizeof(float), stream_));
    LABRUN_CUDA_CHECK(cudaMemsetAsync(partials_.data(), 0xFF, partials_.bytes(), stream_));
    LABRUN_CUDA_CHECK(cudaMemsetAsync(sum_.data(), 0xFF, sum_.bytes(), stream_));
  }

  std::size_t capacity_;
  ReductionGrid grid_;
  DeviceBuffer<float> x_, a_, mid_, y_, partials_, sum_;
  Workspace workspace_;
  cudaStream_t stream_ = nullptr;  // the legacy default stream
  std::vector<float> x_host_, a_host_;
  std::map<std::string, std::vector<double>> references_;
};

}  // namespace

std::unique_ptr<labrun::LabSession> open_session(const labrun::SessionConfig& config) {
  return std::make_unique<VerdictsSession>(config);
}

}  // namespace verdicts
