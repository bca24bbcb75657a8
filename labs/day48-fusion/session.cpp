#include "session.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <utility>

#include "chain_constants.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"
#include "verify/compare.hpp"

namespace day48 {
namespace {

using labrun::DeviceBuffer;

// The part of a case name after its last '/': "staged-chain", "fused-wide-k8", ...
std::string short_name(const std::string& case_name) {
  return case_name.substr(case_name.rfind('/') + 1);
}

int width_of(const std::string& name) {
  const std::string prefix = "fused-wide-k";
  if (name.rfind(prefix, 0) != 0) {
    return 0;
  }
  return std::stoi(name.substr(prefix.size()));
}

class Day48Session final : public labrun::LabSession {
 public:
  explicit Day48Session(const labrun::SessionConfig& config)
      : capacity_(config.max_elements),
        x_(capacity_),
        residual_(capacity_),
        t1_(capacity_),
        t2_(capacity_),
        t3_(capacity_),
        y_(capacity_),
        halfway_(capacity_),
        copy_out_(capacity_) {
    buffers_ = ChainBuffers{x_.data(),  residual_.data(), t1_.data(),      t2_.data(),
                            t3_.data(), y_.data(),        halfway_.data(), copy_out_.data()};
    int device = 0;
    LABRUN_CUDA_CHECK(cudaGetDevice(&device));
    LABRUN_CUDA_CHECK(
        cudaDeviceGetAttribute(&max_threads_per_sm_, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    fill_inputs(buffers_, capacity_, config.seed, stream_);
    prime_intermediates();
  }

  void check_correctness(const std::vector<std::string>& versions, std::uint64_t elements,
                         std::uint64_t /*seed: the inputs were filled from it when the session opened*/,
                         std::vector<labrun::CorrectnessCheck>& checks,
                         std::vector<labrun::BitwiseComparison>& bitwise) override {
    require_capacity(elements);
    const std::size_t n = elements;
    const std::vector<float> x = download(x_.data(), n);
    const std::vector<float> residual = download(residual_.data(), n);
    const std::vector<double> chain_expected = chain_reference(x, residual);
    const std::vector<double> copy_expected(x.begin(), x.end());
    const labrun::Tolerance chain_tolerance{1e-5, 1e-5};
    const labrun::Tolerance exact{0.0, 0.0};

    std::map<std::string, std::vector<float>> outputs;
    for (const std::string& version : versions) {
      poison_outputs(n);
      const bool is_copy = version.rfind("copy-", 0) == 0;
      region_for(version, n)();
      LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
      std::vector<float> got = download(is_copy ? copy_out_.data() : y_.data(), n);
      checks.push_back(labrun::compare_with_reference(version, got, is_copy ? copy_expected : chain_expected,
                                                      is_copy ? exact : chain_tolerance));
      outputs[version] = std::move(got);
    }
    // The lesson's bitwise questions: fused against staged, the exercise against staged, and
    // the width-1 template against the plain fused kernel.
    const std::pair<const char*, const char*> pairs[] = {
        {"fused-chain", "staged-chain"}, {"halfway-pair", "staged-chain"}, {"fused-wide-k1", "fused-chain"}};
    for (const auto& [first, second] : pairs) {
      if (outputs.count(first) != 0 && outputs.count(second) != 0) {
        bitwise.push_back(labrun::compare_bitwise(first, outputs[first], second, outputs[second]));
      }
    }
    prime_intermediates();
  }

  std::vector<labrun::Fact> facts() override {
    const CompiledVersions versions = compiled_versions();
    const auto as_text = [](int version) {
      return std::to_string(version / 10) + "." + std::to_string(version % 10);
    };
    return {labrun::Fact::known("kernel_binary_version", as_text(versions.binary_version)),
            labrun::Fact::known("kernel_ptx_version", as_text(versions.ptx_version)),
            labrun::Fact::known("threads_per_block", std::int64_t{kThreadsPerBlock})};
  }

  labrun::CaseRegion prepare_case(const labrun::CaseSpec& spec, std::uint64_t elements) override {
    require_capacity(elements);
    labrun::CaseRegion region;
    const std::string name = short_name(spec.name);
    region.run = region_for(name, elements);
    auto& attributes = region.attributes;
    if (name == "empty-single-thread" || name == "empty-single-launch") {
      attributes["blocks"] = 1;
      attributes["threads_per_block"] = 1;
    } else {
      const int width = width_of(name);
      attributes["blocks"] = blocks_for(elements, width > 0 ? width : 1);
      attributes["threads_per_block"] = kThreadsPerBlock;
      if (width > 0) {
        const KernelResources resources = fused_wide_resources(width);
        attributes["registers"] = resources.registers;
        attributes["local_bytes_per_thread"] = static_cast<double>(resources.local_bytes);
        attributes["blocks_per_sm"] = resources.blocks_per_sm;
        attributes["theoretical_occupancy"] =
            static_cast<double>(resources.blocks_per_sm * kThreadsPerBlock) / max_threads_per_sm_;
        attributes["binary_version"] = resources.binary_version;
      }
    }
    return region;
  }

 private:
  std::function<void()> region_for(const std::string& name, std::size_t n) {
    using Launcher = void (*)(const ChainBuffers&, std::size_t, cudaStream_t);
    // Regions over the chain's buffers, by the last part of the case (or version) name.
    static const std::map<std::string, Launcher> chain_regions = {
        {"stage-scale-bias", launch_stage_scale_bias},
        {"stage-gelu", launch_stage_gelu},
        {"stage-add-residual", launch_stage_add_residual},
        {"stage-clamp-range", launch_stage_clamp_range},
        {"staged-chain", launch_staged_chain},
        {"fused-chain", launch_fused_chain},
        {"halfway-pair", launch_halfway_pair},
    };
    const ChainBuffers& b = buffers_;
    cudaStream_t s = stream_;
    if (const auto found = chain_regions.find(name); found != chain_regions.end()) {
      const Launcher launch = found->second;
      return [launch, &b, n, s] { launch(b, n, s); };
    }
    if (name == "empty-single-thread" || name == "empty-single-launch") {
      return [s] { launch_do_nothing(1, 1, s); };
    }
    if (name == "staged-chain-graph") {
      const cudaGraphExec_t graph = staged_chain_graph(n);
      return [graph, s] { LABRUN_CUDA_CHECK(cudaGraphLaunch(graph, s)); };
    }
    if (name == "copy-vectorized") {
      return [&b, n, s] { launch_copy_vectorized(b.x, b.copy_out, n, s); };
    }
    if (name == "copy-memcpy") {
      return [&b, n, s] { launch_copy_memcpy(b.x, b.copy_out, n, s); };
    }
    if (name == "empty-chain-grid") {
      const unsigned blocks = blocks_for(n, 1);
      return [blocks, s] { launch_do_nothing(blocks, kThreadsPerBlock, s); };
    }
    if (name == "copy-floor") {
      return [&b, n, s] { launch_copy_floor(b.x, b.copy_out, n, s); };
    }
    if (const int width = width_of(name); width > 0) {
      return [width, &b, n, s] { launch_fused_wide(width, b, n, s); };
    }
    throw std::invalid_argument("day48-fusion has no region named '" + name + "'");
  }

  // The staged chain at n captured once as a CUDA graph (four kernel nodes) and instantiated; kept
  // for the session's life. Captured on a stream of its own: the legacy stream cannot be captured.
  cudaGraphExec_t staged_chain_graph(std::size_t n) {
    if (const auto found = graphs_.find(n); found != graphs_.end()) {
      return found->second.exec;
    }
    CapturedGraph captured;
    const CaptureStream capture;
    LABRUN_CUDA_CHECK(cudaStreamBeginCapture(capture.stream, cudaStreamCaptureModeThreadLocal));
    try {
      launch_staged_chain(buffers_, n, capture.stream);
    } catch (...) {
      // End the capture so the stream can be destroyed; the partial graph is dropped.
      cudaGraph_t partial = nullptr;
      LABRUN_CUDA_NOTHROW(cudaStreamEndCapture(capture.stream, &partial));
      if (partial != nullptr) {
        LABRUN_CUDA_NOTHROW(cudaGraphDestroy(partial));
      }
      throw;
    }
    LABRUN_CUDA_CHECK(cudaStreamEndCapture(capture.stream, &captured.graph));
    LABRUN_CUDA_CHECK(cudaGraphInstantiate(&captured.exec, captured.graph, 0));
    const cudaGraphExec_t exec = captured.exec;
    graphs_.emplace(n, std::move(captured));
    return exec;
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

  // Every output and intermediate becomes NaN (all bits set), so an element no kernel wrote, or
  // a read of a buffer another version left behind, cannot pass.
  void poison_outputs(std::size_t n) {
    for (float* buffer :
         {buffers_.t1, buffers_.t2, buffers_.t3, buffers_.y, buffers_.halfway, buffers_.copy_out}) {
      LABRUN_CUDA_CHECK(cudaMemsetAsync(buffer, 0xFF, n * sizeof(float), stream_));
    }
  }

  // The per-stage cases read the staged chain's intermediates: keep them real numbers.
  void prime_intermediates() {
    launch_staged_chain(buffers_, capacity_, stream_);
    launch_halfway_pair(buffers_, capacity_, stream_);
    LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // A stream of its own for capturing; destroyed on every path out.
  struct CaptureStream {
    cudaStream_t stream = nullptr;
    CaptureStream() { LABRUN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
    ~CaptureStream() { LABRUN_CUDA_NOTHROW(cudaStreamDestroy(stream)); }
    CaptureStream(const CaptureStream&) = delete;
    CaptureStream& operator=(const CaptureStream&) = delete;
    CaptureStream(CaptureStream&&) = delete;
    CaptureStream& operator=(CaptureStream&&) = delete;
  };

  // Owns a captured graph and its executable form.
  struct CapturedGraph {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    CapturedGraph() = default;
    CapturedGraph(const CapturedGraph&) = delete;
    CapturedGraph& operator=(const CapturedGraph&) = delete;
    CapturedGraph(CapturedGraph&& other) noexcept
        : graph(std::exchange(other.graph, nullptr)), exec(std::exchange(other.exec, nullptr)) {}
    CapturedGraph& operator=(CapturedGraph&&) = delete;
    ~CapturedGraph() {
      if (exec != nullptr) {
        LABRUN_CUDA_NOTHROW(cudaGraphExecDestroy(exec));
      }
      if (graph != nullptr) {
        LABRUN_CUDA_NOTHROW(cudaGraphDestroy(graph));
      }
    }
  };

  std::size_t capacity_;
  DeviceBuffer<float> x_, residual_, t1_, t2_, t3_, y_, halfway_, copy_out_;
  ChainBuffers buffers_;
  cudaStream_t stream_ = nullptr;  // the legacy default stream
  int max_threads_per_sm_ = 0;
  std::map<std::size_t, CapturedGraph> graphs_;  // by n; destroyed before the buffers they use
};

}  // namespace

std::unique_ptr<labrun::LabSession> open_session(const labrun::SessionConfig& config) {
  return std::make_unique<Day48Session>(config);
}

}  // namespace day48
