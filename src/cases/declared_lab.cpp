#include "cases/declared_lab.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "cases/fill.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace labrun {

const std::vector<float>& HostInputs::operator[](BufferId buffer) const {
  const auto found = inputs_.find(buffer.index());
  if (found == inputs_.end()) {
    throw std::invalid_argument("buffer " + std::to_string(buffer.index()) + " is not a declared input");
  }
  return found->second;
}

BufferId LabDeclaration::input(std::string name, std::uint64_t seed_stream, float low, float high) {
  buffers_.push_back(Buffer{std::move(name), true, seed_stream, low, high});
  return BufferId(buffers_.size() - 1);
}

BufferId LabDeclaration::output(std::string name) {
  buffers_.push_back(Buffer{std::move(name), false, 0, 0.0f, 0.0f});
  return BufferId(buffers_.size() - 1);
}

BufferId LabDeclaration::output(std::string name, std::function<std::size_t()> elements) {
  if (!elements) {
    throw std::invalid_argument(lab_name_ + " declares the output '" + name + "' with no element count");
  }
  buffers_.push_back(Buffer{std::move(name), false, 0, 0.0f, 0.0f, std::move(elements)});
  return BufferId(buffers_.size() - 1);
}

CheckId LabDeclaration::check(CheckDeclaration check) {
  if (std::any_of(checks_.begin(), checks_.end(),
                  [&](const CheckDeclaration& known) { return known.name == check.name; })) {
    throw std::invalid_argument(lab_name_ + " declares the correctness version '" + check.name + "' twice");
  }
  checks_.push_back(std::move(check));
  return CheckId(checks_.size() - 1);
}

void LabDeclaration::add_case(CaseDeclaration declared) {
  if (std::any_of(cases_.begin(), cases_.end(),
                  [&](const CaseDeclaration& known) { return known.spec.name == declared.spec.name; })) {
    throw std::invalid_argument(lab_name_ + " declares the case '" + declared.spec.name + "' twice");
  }
  declared.spec.verified_by = declared.verified_by ? checks_.at(declared.verified_by->index()).name : "";
  cases_.push_back(std::move(declared));
}

void LabDeclaration::compare_bitwise(CheckId first, CheckId second) {
  bitwise_.emplace_back(first, second);
}

void LabDeclaration::prime(RegionBuilder region) {
  prime_ = std::move(region);
}

void LabDeclaration::facts(std::function<std::vector<Fact>()> facts) {
  facts_ = std::move(facts);
}

std::vector<CaseSpec> LabDeclaration::case_specs() const {
  std::vector<CaseSpec> specs;
  specs.reserve(cases_.size());
  for (const CaseDeclaration& declared : cases_) {
    specs.push_back(declared.spec);
  }
  return specs;
}

namespace {

// A stream of its own for capturing (the legacy stream cannot be captured); destroyed on every path.
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

// The session every declared lab gets: buffers of the run's largest n, inputs filled from the
// seed on opening, and the declaration's versions and cases run against them.
class DeclaredSession final : public LabSession, private RegionContext {
 public:
  DeclaredSession(std::shared_ptr<const LabDeclaration> declaration, const SessionConfig& config)
      : declaration_(std::move(declaration)), capacity_(config.max_elements), seed_(config.seed) {
    allocate_buffers();
  }

  void renew_buffers(std::size_t placement_offset_bytes) override {
    LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
    graphs_.clear();  // they launch on the buffers about to be freed
    buffers_.clear();
    placement_offset_.reset();
    if (placement_offset_bytes > 0) {
      placement_offset_.emplace(placement_offset_bytes);
    }
    allocate_buffers();
  }

  void check_correctness(const std::vector<std::string>& versions, std::uint64_t elements,
                         std::uint64_t /*seed: the inputs were filled from it when the session opened*/,
                         std::vector<CorrectnessCheck>& checks,
                         std::vector<BitwiseComparison>& bitwise) override {
    require_capacity(elements);
    const std::size_t n = elements;
    std::map<std::size_t, std::vector<float>> inputs;
    for (std::size_t b = 0; b < buffers_.size(); ++b) {
      if (declaration_->buffers()[b].input) {
        inputs.emplace(b, download(buffers_[b].data(), n));
      }
    }
    const HostInputs host_inputs(std::move(inputs));
    std::map<std::size_t, std::vector<float>> outputs;  // by check index
    std::map<std::string, std::vector<double>> shared;  // references by CheckDeclaration::reference_key
    for (const std::string& version : versions) {
      const std::size_t index = check_index(version);
      const CheckDeclaration& check = declaration_->checks()[index];
      poison_outputs(n);
      check.region(*this, n)();
      LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
      std::vector<double> own;
      const std::vector<double>* expected = &own;
      if (check.reference_key.empty()) {
        own = check.reference(host_inputs, n);
      } else {
        auto found = shared.find(check.reference_key);
        if (found == shared.end()) {
          found = shared.emplace(check.reference_key, check.reference(host_inputs, n)).first;
        }
        expected = &found->second;
      }
      std::vector<float> got =
          download(buffers_.at(check.output.index()).data(), compared_elements(check, expected->size(), n));
      checks.push_back(compare_with_reference(version, got, *expected, check.tolerance));
      outputs[index] = std::move(got);
    }
    for (const auto& [first, second] : declaration_->bitwise_pairs()) {
      if (outputs.count(first.index()) != 0 && outputs.count(second.index()) != 0) {
        bitwise.push_back(compare_bitwise(declaration_->check_of(first).name, outputs[first.index()],
                                          declaration_->check_of(second).name, outputs[second.index()]));
      }
    }
    prime();
  }

  std::vector<Fact> facts() override {
    return declaration_->lab_facts() ? declaration_->lab_facts()() : std::vector<Fact>{};
  }

  CaseRegion prepare_case(const CaseSpec& spec, std::uint64_t elements) override {
    require_capacity(elements);
    const auto& cases = declaration_->cases();
    const auto found = std::find_if(cases.begin(), cases.end(), [&](const CaseDeclaration& declared) {
      return declared.spec.name == spec.name;
    });
    if (found == cases.end()) {
      throw std::invalid_argument(declaration_->lab_name() + " has no case named '" + spec.name + "'");
    }
    CaseRegion region;
    region.run = found->region(*this, elements);
    if (found->attributes) {
      region.attributes = found->attributes(elements);
    }
    return region;
  }

 private:
  float* operator[](BufferId buffer) const override { return buffers_.at(buffer.index()).data(); }
  cudaStream_t stream() const override { return stream_; }

  cudaGraphExec_t graph(const std::string& key, std::uint64_t n,
                        const std::function<void(cudaStream_t)>& enqueue) override {
    const auto id = std::make_pair(key, n);
    if (const auto found = graphs_.find(id); found != graphs_.end()) {
      return found->second.exec;
    }
    CapturedGraph captured;
    const CaptureStream capture;
    LABRUN_CUDA_CHECK(cudaStreamBeginCapture(capture.stream, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue(capture.stream);
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
    graphs_.emplace(id, std::move(captured));
    return exec;
  }

  std::size_t check_index(const std::string& version) const {
    const auto& checks = declaration_->checks();
    for (std::size_t i = 0; i < checks.size(); ++i) {
      if (checks[i].name == version) {
        return i;
      }
    }
    throw std::invalid_argument(declaration_->lab_name() + " has no correctness version named '" + version +
                                "'");
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

  // The first n floats of every max_elements buffer, and the whole of every sized one.
  void poison_outputs(std::size_t n) {
    for (std::size_t b = 0; b < buffers_.size(); ++b) {
      const LabDeclaration::Buffer& buffer = declaration_->buffers()[b];
      if (!buffer.input) {
        poison(buffers_[b].data(), buffer.elements ? buffers_[b].size() : n, stream_);
      }
    }
  }

  std::size_t sized_buffer_elements(const LabDeclaration::Buffer& buffer) const {
    const std::size_t elements = buffer.elements();
    if (elements == 0) {
      throw std::invalid_argument(declaration_->lab_name() + "'s output '" + buffer.name +
                                  "' has 0 elements");
    }
    return elements;
  }

  // n for an output of max_elements floats; the reference's length for a sized output, which must
  // not exceed it.
  std::size_t compared_elements(const CheckDeclaration& check, std::size_t reference_elements,
                                std::size_t n) const {
    const std::size_t output = check.output.index();
    if (!declaration_->buffers().at(output).elements) {
      return n;
    }
    if (reference_elements > buffers_.at(output).size()) {
      throw std::invalid_argument(check.name + "'s reference has " + std::to_string(reference_elements) +
                                  " elements, its output '" + declaration_->buffers()[output].name + "' " +
                                  std::to_string(buffers_[output].size()));
    }
    return reference_elements;
  }

  // Every declared buffer, inputs filled from the seed, then primed.
  void allocate_buffers() {
    buffers_.reserve(declaration_->buffers().size());
    for (const LabDeclaration::Buffer& buffer : declaration_->buffers()) {
      buffers_.emplace_back(buffer.elements ? sized_buffer_elements(buffer) : capacity_);
      if (buffer.input) {
        fill_seeded_uniform(buffers_.back().data(), capacity_, seed_, buffer.seed_stream, buffer.low,
                            buffer.high, stream_);
      }
    }
    prime();
  }

  void prime() {
    if (declaration_->priming()) {
      declaration_->priming()(*this, capacity_)();
    }
    LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  std::shared_ptr<const LabDeclaration> declaration_;
  std::size_t capacity_;
  std::uint64_t seed_;
  // Held while a renewed round's buffers are allocated, and until the next renewal (renew_buffers).
  std::optional<DeviceBuffer<unsigned char>> placement_offset_;
  std::vector<DeviceBuffer<float>> buffers_;
  cudaStream_t stream_ = nullptr;                                          // the legacy default stream
  std::map<std::pair<std::string, std::uint64_t>, CapturedGraph> graphs_;  // destroyed before the buffers
};

}  // namespace

std::function<std::unique_ptr<LabSession>(const SessionConfig&)> LabDeclaration::session_factory() const {
  auto shared = std::make_shared<const LabDeclaration>(*this);
  return [shared](const SessionConfig& config) -> std::unique_ptr<LabSession> {
    return std::make_unique<DeclaredSession>(shared, config);
  };
}

std::vector<Fact> compiled_kernel_facts(int binary_version, int ptx_version, int threads_per_block) {
  const auto as_text = [](int version) {
    return std::to_string(version / 10) + "." + std::to_string(version % 10);
  };
  return {Fact::known("kernel_binary_version", as_text(binary_version)),
          Fact::known("kernel_ptx_version", as_text(ptx_version)),
          Fact::known("threads_per_block", std::int64_t{threads_per_block})};
}

}  // namespace labrun
