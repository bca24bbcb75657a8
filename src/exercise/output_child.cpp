// An output exercise's device side in the grading child (output_exercise.hpp): the declared buffers,
// guarded at their element's width and poisoned; each probe a checked call on inputs the lab's own
// generator made, compared element for element with the lab's own kernel on the same inputs; the
// timed calls and the lab's cases; the sanitizer run in buffers of exactly n elements.
//
// Host code that calls the CUDA runtime; nvcc is not needed to compile it.

#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exercise/child_session.hpp"
#include "exercise/device_checks.hpp"
#include "exercise/output_exercise.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace labrun {
namespace {

// A region rounded up to whole 4-byte words, for the digests: a guarded buffer's elements are
// followed by its padding and guard, so the bytes added are the buffer's own.
OwnedRegion whole_words(OwnedRegion region) {
  return {region.data, (region.bytes + 3) / 4 * 4};
}

class OutputChild final : public ExerciseChild {
 public:
  OutputChild(ChildSession& session, std::shared_ptr<const OutputDeclaration> declaration)
      : session_(session), declared_(std::move(declaration)), stream_(session.stream()) {
    for (std::size_t i = 0; i < declared_->buffers.size(); ++i) {
      if (declared_->buffers[i].output) {
        output_ = i;
      }
    }
  }

  void allocate(std::size_t capacity, bool with_lab_buffers) override {
    buffers_.reserve(declared_->buffers.size());
    for (const DeclaredBuffer& b : declared_->buffers) {
      buffers_.push_back(&session_.guarded(capacity, b.output ? kSlots : 1, b.element_bytes));
    }
    const std::size_t width = declared_->buffers[output_].element_bytes;
    reference_ = session_.answer(capacity * width);
    classes_ = session_.owned_array<unsigned char>(capacity);
    counts_ = session_.owned_array<unsigned long long>(kCompareCounts);
    lab_bytes_.reserve(declared_->lab_buffers.size());
    for (const DeclaredBuffer& b :
         with_lab_buffers ? declared_->lab_buffers : std::vector<DeclaredBuffer>{}) {
      lab_[b.name] = session_.owned(capacity * b.element_bytes);
      lab_bytes_.push_back(b.element_bytes);
    }
  }

  nlohmann::ordered_json probe(const std::string& size_label, std::size_t n,
                               const std::string& probe) override {
    const std::uint64_t seed = session_.next_seed();
    if (probe == "alone") {
      alone_seed_ = seed;
    }
    const CallExtent extent = extent_at(n);
    slot_ = ChildSession::slot_of(seed);
    for (const GuardedBuffer* b : buffers_) {
      b->poison(stream_);
    }
    session_.phase("preparing the inputs at n = " + std::to_string(n) + " (" + probe + ")");
    const std::uint64_t inputs = probe == "again" ? alone_seed_ : seed;
    OutputRecord r = record_of(size_label, probe, extent);
    const std::vector<OwnedRegion> lab_regions = lab_regions_at(n);
    unsigned long long lab_before = 0;
    if (probe == "after-lab") {
      // The lab's case on other inputs, so that its buffers do not hold this call's output.
      const Scalars lab_case =
          declared_->graded_inputs(pointers(), extent, ChildSession::lab_case_seed_of(seed));
      declared_->launch_lab_case(reference_index(), with_lab(pointers()), lab_case, extent);
      lab_before = session_.digest_of(lab_regions);
    }
    scalars_ = declared_->graded_inputs(pointers(), extent, inputs);
    const unsigned long long inputs_before = session_.digest_of(input_regions(n));
    session_.reset_outside_writes();
    std::vector<void*> arguments = argument_pointers(extent);
    std::vector<OwnedRegion> given;
    given.reserve(buffers_.size());
    for (const GuardedBuffer* b : buffers_) {
      given.push_back(b->region());
    }
    session_.launch(0, arguments.data(), n, probe, given);
    r.own_words_written = session_.exercise().watch_own_memory ? session_.own_words_changed() : 0;
    r.launches_writing_outside = session_.outside_writes();
    r.input_changed = session_.digest_of(input_regions(n)) != inputs_before || input_guard_changes(n) > 0;
    r.guard_elements_changed = output_guard_changes(n);
    r.lab_buffers_written = probe == "after-lab" && session_.digest_of(lab_regions) != lab_before;
    reference_of(inputs, extent);
    compare(r, n, true);  // last: the classes are computed in the lab's buffers
    return to_json(r);
  }

  // Nothing is untouched between timed calls here: each call's check computes its reference, and a
  // wrong call's its classes in the lab's buffers, so every allocation outside the call's is
  // digested before each call.
  [[nodiscard]] CallBuffers call_buffers(std::size_t /*n*/) const override {
    CallBuffers call;
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      (declared_->buffers[i].output ? call.outputs : call.inputs).push_back(buffers_[i]->region());
    }
    return call;
  }

  void fresh_call(std::size_t n, std::uint64_t seed) override {
    const CallExtent extent = extent_at(n);
    buffers_[output_]->poison(stream_);
    slot_ = ChildSession::slot_of(seed);
    scalars_ = declared_->graded_inputs(pointers(), extent, seed);
    timed_arguments_ = argument_pointers(extent);
  }

  // Every declared buffer, n elements of its width (the output's at the call's slot), as pointers()
  // gives them and the exact-size sanitizer runs allocate them.
  [[nodiscard]] std::vector<OwnedRegion> call_ranges(std::size_t n) const override {
    std::vector<OwnedRegion> ranges;
    ranges.reserve(buffers_.size());
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      ranges.push_back(buffers_[i]->elements(n, i == output_ ? slot_ : 0));
    }
    return ranges;
  }

  void launch_call(std::size_t n) override { session_.launch_timed(0, timed_arguments_.data(), n); }

  CallCheck check_call(std::size_t n, std::uint64_t seed) override {
    OutputRecord r = record_of("card-scaled", "timed", extent_at(n));
    reference_of(seed, extent_at(n));
    compare(r, n, false);
    CallCheck checked{r.right(), true, std::nullopt};
    if (!r.right()) {
      compare(r, n, true);  // the classes, for the inspection that names it
      checked.record = to_json(r);
    }
    return checked;
  }

  std::uint64_t output_guard_changes(std::size_t n) override {
    session_.reset_tallies();
    buffers_[output_]->count_guard_changes(n, session_.tally(0), stream_, slot_);
    return session_.download_tallies()[0];
  }

  void fresh_lab_inputs(std::size_t n, std::uint64_t seed) override {
    lab_scalars_ = declared_->lab_inputs(pointers(), extent_at(n), seed);
  }

  void launch_lab_case(std::size_t index, std::size_t n) override {
    declared_->launch_lab_case(index, with_lab(pointers()), lab_scalars_, extent_at(n));
  }

  // Kept: a wrong timed call's check computes its classes in the lab's buffers (compare).
  void release_lab_buffers() override {}

  void sanitize(std::size_t n, std::uint64_t seed) override {
    const CallExtent extent = extent_at(n);
    std::vector<DeviceBuffer<unsigned char>> exact;
    BufferPointers at;
    for (const DeclaredBuffer& b : declared_->buffers) {
      exact.emplace_back(n * b.element_bytes);
      LABRUN_CUDA_CHECK(cudaMemsetAsync(exact.back().data(), 0xFF, n * b.element_bytes, stream_));
      at[b.name] = exact.back().data();
    }
    scalars_ = declared_->graded_inputs(at, extent, seed);
    std::vector<void*> arguments = argument_pointers(extent, &at);
    session_.launch(0, arguments.data(), n, "sanitizer run");
  }

 private:
  // The lab's reference of the inputs drawn from `seed`, drawn again now that the submission has run
  // (a call that changed them is counted apart, as changing its inputs), in the session's answer
  // memory.
  void reference_of(std::uint64_t seed, const CallExtent& extent) {
    scalars_ = declared_->graded_inputs(pointers(), extent, seed);
    declared_->reference(pointers(), reference_, scalars_, extent);
  }

  [[nodiscard]] CallExtent extent_at(std::size_t n) const {
    return {session_.exercise().image_at(n).value_or(Shape{n, 1}), stream_};
  }

  [[nodiscard]] OutputRecord record_of(const std::string& size_label, const std::string& probe,
                                       const CallExtent& extent) const {
    OutputRecord r;
    r.size_label = size_label;
    r.probe = probe;
    r.elements = extent.image.elements();
    r.width = extent.image.width;
    r.height = extent.image.height;
    r.call = session_.calls();
    return r;
  }

  // The declared buffers of this call (the output at its slot).
  [[nodiscard]] BufferPointers pointers() const {
    BufferPointers at;
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      at[declared_->buffers[i].name] = buffers_[i]->bytes(i == output_ ? slot_ : 0);
    }
    return at;
  }

  [[nodiscard]] BufferPointers with_lab(BufferPointers at) const {
    for (const auto& [name, data] : lab_) {
      at[name] = data;
    }
    return at;
  }

  [[nodiscard]] std::vector<OwnedRegion> input_regions(std::size_t n) const {
    std::vector<OwnedRegion> regions;
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      if (i != output_) {
        regions.push_back(whole_words(buffers_[i]->elements(n)));
      }
    }
    return regions;
  }

  [[nodiscard]] std::vector<OwnedRegion> lab_regions_at(std::size_t n) const {
    std::vector<OwnedRegion> regions;
    regions.reserve(declared_->lab_buffers.size());
    std::size_t i = 0;
    for (const DeclaredBuffer& b : declared_->lab_buffers) {
      regions.push_back(whole_words({lab_.at(b.name), n * lab_bytes_[i++]}));
    }
    return regions;
  }

  std::uint64_t input_guard_changes(std::size_t n) {
    session_.reset_tallies();
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      if (i != output_) {
        buffers_[i]->count_guard_changes(n, session_.tally(0), stream_);
      }
    }
    return session_.download_tallies()[0];
  }

  [[nodiscard]] std::size_t reference_index() const {
    const Exercise& ex = session_.exercise();
    for (std::size_t i = 0; i < ex.lab_cases.size(); ++i) {
      if (ex.lab_cases[i].key == ex.reference_case_key) {
        return i;
      }
    }
    return 0;
  }

  // The output against the reference, the classes computed first when asked for.
  void compare(OutputRecord& r, std::size_t n, bool with_classes) {
    const std::size_t width = declared_->buffers[output_].element_bytes;
    const unsigned char* classes = nullptr;
    if (with_classes && declared_->classify) {
      LABRUN_CUDA_CHECK(cudaMemsetAsync(classes_, 0, n, stream_));
      declared_->classify(with_lab(pointers()), classes_, scalars_, extent_at(n));
      classes = classes_;
    }
    LABRUN_CUDA_CHECK(cudaMemsetAsync(counts_, 0, kCompareCounts * sizeof(unsigned long long), stream_));
    LABRUN_CUDA_CHECK(cudaMemsetAsync(counts_ + kFirstWrong, 0xFF, sizeof(unsigned long long), stream_));
    const unsigned char* got = buffers_[output_]->bytes(slot_);
    compare_elements(got, reference_, classes, n, width, counts_, stream_);
    std::vector<unsigned long long> counts(kCompareCounts);
    session_.download(counts.data(), counts_, kCompareCounts * sizeof(unsigned long long));
    r.mismatches = counts[kWrongElements];
    r.unwritten = counts[kUnwrittenElements];
    for (std::size_t c = 0; c < 8; ++c) {
      r.class_mismatches[c] = counts[kWrongInClass + c];
      r.class_set[c] = counts[kWrongSetInClass + c];
    }
    if (r.mismatches > 0 && counts[kFirstWrong] < n) {
      r.first_bad = counts[kFirstWrong];
      r.first_bad_got = element_value(got + r.first_bad * width, width);
      r.first_bad_expected =
          element_value(static_cast<const unsigned char*>(reference_) + r.first_bad * width, width);
    }
  }

  std::int64_t element_value(const unsigned char* device, std::size_t width) {
    std::uint64_t value = 0;
    session_.download(&value, device, width);  // little-endian: the element's low bytes
    return static_cast<std::int64_t>(value);
  }

  // The kernel's arguments in its contract's order: a declared buffer's pointer, the image's width
  // or height or n, or a scalar of the call, each at its parameter's width.
  std::vector<void*> argument_pointers(const CallExtent& extent, const BufferPointers* given = nullptr) {
    const BufferPointers at = given != nullptr ? *given : pointers();
    const std::vector<ContractParameter>& parameters = session_.exercise().kernels.front().parameters;
    argument_values_.assign(parameters.size(), 0);
    std::vector<void*> arguments;
    arguments.reserve(parameters.size());
    for (std::size_t p = 0; p < parameters.size(); ++p) {
      const ContractParameter& parameter = parameters[p];
      std::uint64_t& value = argument_values_[p];
      if (parameter.type.find('*') != std::string::npos) {
        void* pointer = at.at(parameter.name);
        std::memcpy(&value, &pointer, sizeof pointer);
      } else {
        const double number = parameter.name == "width"    ? static_cast<double>(extent.image.width)
                              : parameter.name == "height" ? static_cast<double>(extent.image.height)
                              : parameter.name == "n"      ? static_cast<double>(extent.elements())
                                                           : scalars_.at(parameter.name);
        encode(parameter, number, value);
      }
      arguments.push_back(&value);
    }
    return arguments;
  }

  static void encode(const ContractParameter& parameter, double number, std::uint64_t& value) {
    if (parameter.type == "float") {
      const auto f = static_cast<float>(number);
      std::memcpy(&value, &f, sizeof f);
    } else if (parameter.type == "double") {
      std::memcpy(&value, &number, sizeof number);
    } else {
      value = static_cast<std::uint64_t>(static_cast<std::int64_t>(number));
    }
  }

  ChildSession& session_;
  std::shared_ptr<const OutputDeclaration> declared_;
  cudaStream_t stream_;
  std::size_t output_ = 0;
  std::vector<GuardedBuffer*> buffers_;  // in the declaration's order
  void* reference_ = nullptr;
  unsigned char* classes_ = nullptr;
  unsigned long long* counts_ = nullptr;
  std::map<std::string, void*> lab_;
  std::vector<std::size_t> lab_bytes_;
  Scalars scalars_;
  Scalars lab_scalars_;
  std::uint64_t alone_seed_ = 0;
  std::size_t slot_ = 0;
  std::vector<std::uint64_t> argument_values_;
  std::vector<void*> timed_arguments_;
};

}  // namespace

std::unique_ptr<ExerciseChild> output_child(ChildSession& session,
                                            std::shared_ptr<const OutputDeclaration> declaration) {
  return std::make_unique<OutputChild>(session, std::move(declaration));
}

}  // namespace labrun
