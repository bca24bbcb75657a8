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

ByteBufferId LabDeclaration::byte_output(std::string name) {
  Buffer buffer{std::move(name), false, 0, 0.0f, 0.0f};
  buffer.bytes = true;
  buffers_.push_back(std::move(buffer));
  return ByteBufferId(buffers_.size() - 1);
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
  if (declared.spec.sizes.empty()) {
    declared.spec.sizes = sizes_;
  }
  for (CaseFigure& figure : declared.figures) {
    declared.spec.figures.push_back(std::move(figure));
  }
  declared.figures.clear();
  cases_.push_back(std::move(declared));
}

CheckId LabDeclaration::add_checked_case(CaseSpec spec, CheckDeclaration check, AttributesBuilder attributes,
                                         std::vector<CaseFigure> figures) {
  RegionBuilder region = check.region;
  const CheckId id = this->check(std::move(check));
  add_case({std::move(spec), id, std::move(region), std::move(attributes), std::move(figures)});
  return id;
}

void LabDeclaration::correctness_elements(std::uint64_t elements) {
  correctness_elements_ = elements;
  correctness_shape_.reset();
}

void LabDeclaration::correctness_image(Shape shape) {
  correctness_elements_ = shape.elements();
  correctness_shape_ = shape;
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
// One declared buffer on the device: floats, or bytes (LabDeclaration::byte_output).
struct SessionBuffer {
  DeviceBuffer<float> floats;
  DeviceBuffer<std::uint8_t> bytes;
};

class DeclaredSession final : public LabSession, private RegionContext {
 public:
  DeclaredSession(std::shared_ptr<const LabDeclaration> declaration, const SessionConfig& config)
      : declaration_(std::move(declaration)),
        capacity_(config.max_elements),
        seed_(config.seed),
        correctness_shape_(config.correctness_shape) {
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
    const ShapeScope scope(*this, correctness_shape_ && correctness_shape_->elements() == elements
                                      ? correctness_shape_
                                      : std::nullopt);
    std::map<std::size_t, std::vector<float>> inputs;
    for (std::size_t b = 0; b < buffers_.size(); ++b) {
      if (declaration_->buffers()[b].input) {
        inputs.emplace(b, download(buffers_[b].floats.data(), n));
      }
    }
    const HostInputs host_inputs(std::move(inputs), shape_);
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
          download_output(check.output.index(), compared_elements(check, expected->size(), n));
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
    const ShapeScope scope(*this, shape_at(spec, elements));
    CaseRegion region;
    region.run = found->region(*this, elements);
    if (found->attributes) {
      region.attributes = found->attributes(elements);
    }
    return region;
  }

 private:
  float* operator[](BufferId buffer) const override { return buffers_.at(buffer.index()).floats.data(); }
  std::uint8_t* operator[](ByteBufferId buffer) const override {
    return buffers_.at(buffer.index()).bytes.data();
  }
  std::optional<Shape> shape() const override { return shape_; }
  cudaStream_t stream() const override { return stream_; }

  // The image regions are built for while it lives (RegionContext::shape), restored after.
  class ShapeScope {
   public:
    ShapeScope(DeclaredSession& session, std::optional<Shape> shape)
        : session_(session), previous_(std::exchange(session.shape_, shape)) {}
    ~ShapeScope() { session_.shape_ = previous_; }
    ShapeScope(const ShapeScope&) = delete;
    ShapeScope& operator=(const ShapeScope&) = delete;
    ShapeScope(ShapeScope&&) = delete;
    ShapeScope& operator=(ShapeScope&&) = delete;

   private:
    DeclaredSession& session_;
    std::optional<Shape> previous_;
  };

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

  // A check's output as floats: a byte output's bytes become the numbers 0 to 255, exactly.
  std::vector<float> download_output(std::size_t buffer, std::size_t n) const {
    if (!declaration_->buffers().at(buffer).bytes) {
      return download(buffers_.at(buffer).floats.data(), n);
    }
    std::vector<std::uint8_t> bytes(n);
    LABRUN_CUDA_CHECK(cudaMemcpy(bytes.data(), buffers_.at(buffer).bytes.data(), n, cudaMemcpyDeviceToHost));
    return std::vector<float>(bytes.begin(), bytes.end());
  }

  // The first n elements of every max_elements buffer, and the whole of every sized one.
  void poison_outputs(std::size_t n) {
    for (std::size_t b = 0; b < buffers_.size(); ++b) {
      const LabDeclaration::Buffer& buffer = declaration_->buffers()[b];
      if (buffer.bytes) {
        poison(buffers_[b].bytes.data(), n, stream_);
      } else if (!buffer.input) {
        poison(buffers_[b].floats.data(), buffer.elements ? buffers_[b].floats.size() : n, stream_);
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
    if (reference_elements > buffers_.at(output).floats.size()) {
      throw std::invalid_argument(check.name + "'s reference has " + std::to_string(reference_elements) +
                                  " elements, its output '" + declaration_->buffers()[output].name + "' " +
                                  std::to_string(buffers_[output].floats.size()));
    }
    return reference_elements;
  }

  // Every declared buffer, inputs filled from the seed, then primed.
  void allocate_buffers() {
    buffers_.reserve(declaration_->buffers().size());
    for (const LabDeclaration::Buffer& buffer : declaration_->buffers()) {
      SessionBuffer& allocated = buffers_.emplace_back();
      if (buffer.bytes) {
        allocated.bytes = DeviceBuffer<std::uint8_t>(capacity_);
      } else {
        allocated.floats = DeviceBuffer<float>(buffer.elements ? sized_buffer_elements(buffer) : capacity_);
      }
      if (buffer.input) {
        fill_seeded_uniform(allocated.floats.data(), capacity_, seed_, buffer.seed_stream, buffer.low,
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
  std::vector<SessionBuffer> buffers_;
  std::optional<Shape> correctness_shape_;
  std::optional<Shape> shape_;     // while a region is built (ShapeScope)
  cudaStream_t stream_ = nullptr;  // the legacy default stream
  std::map<std::pair<std::string, std::uint64_t>, CapturedGraph> graphs_;  // destroyed before the buffers
};

}  // namespace

std::function<std::unique_ptr<LabSession>(const SessionConfig&)> LabDeclaration::session_factory() const {
  auto shared = std::make_shared<const LabDeclaration>(*this);
  return [shared](const SessionConfig& config) -> std::unique_ptr<LabSession> {
    return std::make_unique<DeclaredSession>(shared, config);
  };
}

Lab declared(Lab lab, const LabDeclaration& declaration) {
  if (lab.name.empty()) {
    lab.name = declaration.lab_name();
  }
  if (lab.correctness_elements == 0) {
    lab.correctness_elements = declaration.correctness_size();
    lab.correctness_shape = declaration.correctness_shape();
  }
  if (lab.roofline.empty()) {
    lab.roofline = declaration.roofline();
  }
  CardFigures& figures = lab.card_figures;
  const CardFigures& declared_figures = declaration.card_figures();
  if (figures.copy_floor_case.empty()) {
    figures.copy_floor_case = declared_figures.copy_floor_case;
  }
  if (figures.ceiling_cases.empty()) {
    figures.ceiling_cases = declared_figures.ceiling_cases;
  }
  if (figures.launch_case.empty()) {
    figures.launch_case = declared_figures.launch_case;
  }
  lab.cases = declaration.case_specs();
  lab.open_session = declaration.session_factory();
  lab.buffers_at_max_size =
      static_cast<int>(std::count_if(declaration.buffers().begin(), declaration.buffers().end(),
                                     [](const LabDeclaration::Buffer& buffer) { return !buffer.elements; }));
  return lab;
}

Lab declared(const LabDeclaration& declaration) {
  return declared(Lab{}, declaration);
}

AttributesBuilder kernel_attributes(const void* kernel, int threads_per_block) {
  return [kernel, threads_per_block](std::uint64_t /*n: the same at every size*/) {
    const KernelResources resources = kernel_resources(kernel, threads_per_block);
    return std::map<std::string, double>{{"threads_per_block", threads_per_block},
                                         {"registers", resources.registers},
                                         {"blocks_per_sm", resources.blocks_per_sm},
                                         {"theoretical_occupancy", resources.theoretical_occupancy}};
  };
}

std::vector<Fact> compiled_kernel_facts(const void* kernel, int threads_per_block) {
  cudaFuncAttributes attributes{};
  LABRUN_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return compiled_kernel_facts(attributes.binaryVersion, attributes.ptxVersion, threads_per_block);
}

KernelResources kernel_resources(const void* kernel, int threads_per_block) {
  cudaFuncAttributes attributes{};
  LABRUN_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  KernelResources resources;
  resources.registers = attributes.numRegs;
  resources.local_bytes = attributes.localSizeBytes;
  resources.binary_version = attributes.binaryVersion;
  LABRUN_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resources.blocks_per_sm, kernel, threads_per_block, 0));
  int device = 0;
  int max_threads_per_sm = 0;
  LABRUN_CUDA_CHECK(cudaGetDevice(&device));
  LABRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  resources.theoretical_occupancy =
      max_threads_per_sm > 0
          ? static_cast<double>(resources.blocks_per_sm * threads_per_block) / max_threads_per_sm
          : 0.0;
  return resources;
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
