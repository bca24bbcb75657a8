// A reduction exercise's device side in the grading child (reduction_exercise.hpp): the input,
// the intermediate and the output guarded and poisoned, the output at a place drawn per call; each
// probe the two stages checked apart, the input replaced between them; the reference the lab's own
// kernel on the call's input, drawn again from its seed after the submission's kernels have run, in
// the session's answer memory (erased before every launch); the timed calls, the lab's cases and the
// sanitizer run.
//
// Host code that calls the CUDA runtime; nvcc is not needed to compile it.

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exercise/child_session.hpp"
#include "exercise/device_checks.hpp"
#include "exercise/reduction_exercise.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace labrun {
namespace {

class ReductionChild final : public ExerciseChild {
 public:
  ReductionChild(ChildSession& session, std::shared_ptr<const ReductionDeclaration> declaration)
      : session_(session), declared_(std::move(declaration)), stream_(session.stream()) {}

  // The output is the finish's alone: it starts at a place drawn from each call's seed, so that the
  // first stage cannot know where it is.
  void allocate(std::size_t capacity, bool with_lab_buffers) override {
    input_ = &session_.guarded(capacity);
    partials_ = &session_.guarded(session_.has_submission() ? session_.plan(0, capacity).blocks : 1);
    output_ = &session_.guarded(1, kSlots);
    for (const LabBuffer& b : with_lab_buffers ? declared_->lab_buffers : std::vector<LabBuffer>{}) {
      const std::size_t floats = std::max<std::size_t>(b.floats(capacity), 1);
      lab_.push_back(session_.owned_array<float>(floats));
      lab_allocations_.push_back({lab_.back(), floats * sizeof(float)});
    }
    scratch_ = session_.answer_array<float>(std::max<std::size_t>(declared_->reference_scratch(capacity), 1));
    reference_ = session_.answer_array<float>(1);
    sums_ = session_.answer_array<double>(2);
  }

  nlohmann::ordered_json probe(const std::string& label, std::size_t n, const std::string& probe) override {
    // repeat: the inputs of alone at this size again, whose output must be the same.
    const std::uint64_t seed = session_.next_seed();
    alone_seed_ = probe == "alone" ? seed : alone_seed_;
    const std::uint64_t inputs = probe == "repeat" ? alone_seed_ : seed;
    ReductionRecord p = record_of(label, probe, n);
    slot_ = ChildSession::slot_of(seed);
    for (const GuardedBuffer* b : {input_, partials_, output_}) {
      b->poison(stream_);
    }
    session_.phase("preparing the inputs at n = " + std::to_string(n) + " (" + probe + ")");
    const std::vector<OwnedRegion> lab_regions = lab_regions_at(n);
    unsigned long long lab_before = 0;
    if (probe == "after-lab") {
      // The lab's case on other inputs, so that its buffers do not hold this call's total.
      fill_counted_inputs(input_->data(), n, ChildSession::lab_case_seed_of(seed), stream_);
      declared_->launch_lab_case(declared_->after_lab_case, input_->data(), lab_, n, stream_);
      lab_before = session_.digest_of(lab_regions);
    }
    fill_counted_inputs(input_->data(), n, inputs, stream_);
    p.blocks = session_.plan(0, n).blocks;
    std::uint64_t input_digest = session_.digest_of({input_->elements(n)});
    session_.reset_outside_writes();
    launch_first(n, probe);
    p.own_words_written = session_.own_words_changed();
    const bool changed_by_first = session_.digest_of({input_->elements(n)}) != input_digest;
    // The finish must total the partials it is given, and nothing else: before it runs, the input
    // holds other counted inputs in every probe (so that no probe can be told from another by
    // comparing the input with the partials), and planted, the partials are those a correct first
    // stage would store for yet others. Every total here is exact, so an output that followed the
    // input is told from one that followed neither.
    const std::uint64_t replaced = session_.next_seed();
    if (probe == "planted") {
      // The first stage's partials, read before they are replaced (the finish's launch erases the
      // totals on the device; the host keeps them).
      read_partials(p);
      plant_partials(declared_->term, partials_->data(), p.blocks, n, session_.next_seed(), stream_);
    }
    fill_counted_inputs(input_->data(), n, replaced, stream_);
    input_digest = session_.digest_of({input_->elements(n)});
    launch_finish(n, p.blocks, probe);
    p.launches_writing_outside = session_.outside_writes();
    p.output_bits = session_.download_one(reinterpret_cast<const std::uint32_t*>(output_->data(slot_)));
    p.input_changed = changed_by_first || session_.digest_of({input_->elements(n)}) != input_digest;
    p.guard_words_changed = guard_changes(n, p.blocks);
    p.lab_buffers_written = probe == "after-lab" && session_.digest_of(lab_regions) != lab_before;
    // What the totals are, computed now that the submission's kernels have run, from inputs drawn
    // again from their seeds. The finish may not write the partials (a launch writing outside
    // the buffers it was given), so they are what the first stage, or the planting, left.
    if (probe == "planted") {
      p.expected = partials_totals(p.blocks)[0];
    } else {
      read_partials(p);
    }
    fill_counted_inputs(input_->data(), n, replaced, stream_);
    p.replaced_input = reference(n);
    fill_counted_inputs(input_->data(), n, inputs, stream_);
    if (probe != "planted") {
      p.expected = reference(n);
    }
    p.input_total = input_total(n, inputs);
    return to_json(p);
  }

  // Between timed calls the child writes the input in fresh_call, poisons the partials and the
  // output, and its checks write the input again, the reference (with its scratch), the sums and the
  // session's tallies: the lab's buffers are written by nothing then (only the probes and the lab's
  // own timing).
  [[nodiscard]] CallBuffers call_buffers(std::size_t /*n*/) const override {
    return {{input_->region()}, {partials_->region(), output_->region()}, lab_allocations_};
  }

  // The reference is computed in check_call, after the call.
  void fresh_call(std::size_t n, std::uint64_t seed) override {
    fill_counted_inputs(input_->data(), n, seed, stream_);
    partials_->poison(stream_);
    output_->poison(stream_);
    slot_ = ChildSession::slot_of(seed);
  }

  [[nodiscard]] std::vector<OwnedRegion> call_ranges(std::size_t n) const override {
    return {input_->elements(n), partials_->elements(session_.timed_plan(0, n).blocks),
            output_->elements(1, slot_)};
  }

  void launch_call(std::size_t n) override {
    std::size_t blocks = session_.timed_plan(0, n).blocks;
    const float* input = input_->data();
    float* partials = partials_->data();
    float* output = output_->data(slot_);
    void* first[] = {&input, &partials, &n};
    void* second[] = {&partials, &output, &blocks};
    session_.launch_timed(0, first, n);
    session_.launch_timed(1, second, n);
  }

  // The reference of the call's inputs, drawn again from its seed (a call that changed them is
  // counted apart, as changing its inputs).
  CallCheck check_call(std::size_t n, std::uint64_t seed) override {
    ReductionRecord p = record_of("card-scaled", "timed", n);
    p.blocks = session_.timed_plan(0, n).blocks;
    fill_counted_inputs(input_->data(), n, seed, stream_);
    p.expected = reference(n);
    p.output_bits = session_.download_one(reinterpret_cast<const std::uint32_t*>(output_->data(slot_)));
    read_partials(p);
    // The partials are the first stage's alone: whatever the finish did, they add up to the reference.
    const bool partials_hold =
        p.partials_unwritten == 0 && p.partials_not_whole == 0 && p.partials_total == p.expected;
    CallCheck checked{p.right(), partials_hold, std::nullopt};
    if (!checked.output_right || !checked.structure_right) {
      checked.record = to_json(p);
    }
    return checked;
  }

  std::uint64_t output_guard_changes(std::size_t n) override {
    session_.reset_tallies();
    partials_->count_guard_changes(session_.timed_plan(0, n).blocks, session_.tally(0), stream_);
    output_->count_guard_changes(1, session_.tally(0), stream_, slot_);
    return session_.download_tallies()[0];
  }

  void fresh_lab_inputs(std::size_t n, std::uint64_t seed) override {
    declared_->lab_inputs(input_->data(), n, seed, stream_);
  }

  void launch_lab_case(std::size_t index, std::size_t n) override {
    declared_->launch_lab_case(index, input_->data(), lab_, n, stream_);
  }

  void release_lab_buffers() override {
    for (float* buffer : lab_) {
      session_.release(buffer);
    }
    lab_.clear();
    lab_allocations_.clear();
  }

  void sanitize(std::size_t n, std::uint64_t seed) override {
    std::size_t blocks = session_.plan(0, n).blocks;
    const DeviceBuffer<float> input(n);
    const DeviceBuffer<float> partials(blocks);
    const DeviceBuffer<float> output(1);
    fill_counted_inputs(input.data(), n, seed, stream_);
    LABRUN_CUDA_CHECK(cudaMemsetAsync(partials.data(), 0xFF, blocks * sizeof(float), stream_));
    const float* in = input.data();
    float* partial_results = partials.data();
    float* total = output.data();
    void* first[] = {&in, &partial_results, &n};
    void* second[] = {&partial_results, &total, &blocks};
    session_.launch(0, first, n, "sanitizer run");
    session_.launch(1, second, n, "sanitizer run");
  }

 private:
  [[nodiscard]] ReductionRecord record_of(const std::string& label, const std::string& probe,
                                          std::size_t n) const {
    ReductionRecord r;
    r.size_label = label;
    r.probe = probe;
    r.elements = n;
    r.call = session_.calls();
    return r;
  }

  // The checked launches: every byte the child owns but the allocations named is digested around
  // each (the input has a check of its own, input_changed; the output's allocation is the finish's).
  void launch_first(std::size_t n, const std::string& what) {
    const float* input = input_->data();
    float* partials = partials_->data();
    void* arguments[] = {&input, &partials, &n};
    session_.launch(0, arguments, n, what, std::vector<OwnedRegion>{input_->region(), partials_->region()});
  }
  void launch_finish(std::size_t n, std::size_t blocks, const std::string& what) {
    const float* partials = partials_->data();
    float* output = output_->data(slot_);
    void* arguments[] = {&partials, &output, &blocks};
    session_.launch(1, arguments, n, what, std::vector<OwnedRegion>{input_->region(), output_->region()});
  }

  // The first stage's partials: their total, and how many are unwritten or not whole.
  void read_partials(ReductionRecord& p) {
    const std::vector<double> partials = partials_totals(p.blocks);
    p.partials_total = partials[0];
    p.partials_unwritten = static_cast<std::uint64_t>(partials[1]);
    p.partials_not_whole = static_cast<std::uint64_t>(partials[2]);
  }

  // The lab's own kernel on the input as it is now: exact on counted inputs.
  double reference(std::size_t n) {
    declared_->reference(input_->data(), reference_, scratch_, n, stream_);
    return session_.download_one(reference_);
  }

  // The float64 total of the counted inputs drawn from `seed`, no term applied.
  double input_total(std::size_t n, std::uint64_t seed) {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(sums_, 0, sizeof(double), stream_));
    counted_input_total(n, seed, sums_, stream_);
    return session_.download_one(sums_);
  }

  // [total, unwritten, not whole] of partials[0, blocks).
  std::vector<double> partials_totals(std::size_t blocks) {
    session_.reset_tallies();
    LABRUN_CUDA_CHECK(cudaMemsetAsync(sums_ + 1, 0, sizeof(double), stream_));
    total_partials(declared_->term, partials_->data(), blocks, sums_ + 1, session_.tally(0),
                   session_.tally(1), stream_);
    const double total = session_.download_one(sums_ + 1);
    const std::vector<unsigned long long> counts = session_.download_tallies();
    return {total, static_cast<double>(counts[0]), static_cast<double>(counts[1])};
  }

  std::uint64_t guard_changes(std::size_t n, std::size_t blocks) {
    session_.reset_tallies();
    input_->count_guard_changes(n, session_.tally(0), stream_);
    partials_->count_guard_changes(blocks, session_.tally(0), stream_);
    output_->count_guard_changes(1, session_.tally(0), stream_, slot_);
    return session_.download_tallies()[0];
  }

  [[nodiscard]] std::vector<OwnedRegion> lab_regions_at(std::size_t n) const {
    std::vector<OwnedRegion> regions;
    for (std::size_t i = 0; i < lab_.size(); ++i) {
      regions.push_back({lab_[i], declared_->lab_buffers[i].floats(n) * sizeof(float)});
    }
    return regions;
  }

  ChildSession& session_;
  std::shared_ptr<const ReductionDeclaration> declared_;
  cudaStream_t stream_;
  GuardedBuffer* input_ = nullptr;
  GuardedBuffer* partials_ = nullptr;
  GuardedBuffer* output_ = nullptr;
  LabBufferPointers lab_;
  std::vector<OwnedRegion> lab_allocations_;  // lab_'s, whole
  float* scratch_ = nullptr;
  float* reference_ = nullptr;
  double* sums_ = nullptr;  // [input total, partials' total]
  std::uint64_t alone_seed_ = 0;
  std::size_t slot_ = 0;  // where this call's output starts
};

}  // namespace

std::unique_ptr<ExerciseChild> reduction_child(ChildSession& session,
                                               std::shared_ptr<const ReductionDeclaration> declaration) {
  return std::make_unique<ReductionChild>(session, std::move(declaration));
}

}  // namespace labrun
