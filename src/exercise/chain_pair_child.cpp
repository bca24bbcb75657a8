// A chain pair's device side in the grading child (chain_pair_exercise.hpp): the pair's guarded
// buffers and the lab's, the three probes of each size, and how one timed call is prepared,
// launched and checked. Each probe regenerates every input and float64 reference from the seed in
// the lab's checking kernels (chain_pair_checks.hpp), which run after the submission's kernels have
// finished, on the same stream.
//
// Host code that calls the CUDA runtime; nvcc is not needed to compile it.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exercise/chain_pair_exercise.hpp"
#include "exercise/child_session.hpp"
#include "exercise/device_checks.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace labrun {
namespace {

// The session's counters, by what each counts.
enum Tally : std::size_t { kGuardOutput, kGuardIntermediate, kGuardInput, kGuardSecond, kInputs, kStaged };

class ChainPairChild final : public ExerciseChild {
 public:
  ChainPairChild(ChildSession& session, std::shared_ptr<const ChainPairDeclaration> declaration,
                 ChainPairNames names)
      : session_(session),
        declared_(std::move(declaration)),
        checks_(declared_->checks),
        names_(std::move(names)),
        stream_(session.stream()) {}

  // The pair's guarded buffers, the lab's own (the staged chain's first) and the counters.
  void allocate(std::size_t capacity, bool with_lab_buffers) override {
    capacity_ = capacity;
    input_ = &session_.guarded(capacity);
    second_ = &session_.guarded(capacity);
    intermediate_ = &session_.guarded(capacity);
    // The output is the second kernel's alone: it starts at a place drawn from each call's seed, so
    // that the first kernel cannot know where it is.
    output_ = &session_.guarded(capacity, kSlots);
    const std::size_t lab_buffers =
        with_lab_buffers ? declared_->staged_buffers.size() + declared_->lab_buffers.size() : 0;
    for (std::size_t b = 0; b < lab_buffers; ++b) {
      lab_.push_back(session_.owned_array<float>(capacity));
    }
    output_counters_ = session_.owned_array<ChainOutputCounters>(1);
    intermediate_counters_ = session_.owned_array<ChainIntermediateCounters>(1);
  }

  nlohmann::ordered_json probe(const std::string& label, std::size_t n, const std::string& probe) override {
    ChainPairRecord result;
    result.size_label = label;
    result.probe = probe;
    result.elements = n;
    const std::uint64_t seed = session_.next_seed();
    result.call = session_.calls();
    slot_ = ChildSession::slot_of(seed);
    for (const GuardedBuffer* b : {input_, second_, intermediate_, output_}) {
      b->poison(stream_);
    }
    session_.phase("preparing the inputs at n = " + std::to_string(n) + " (" + probe + ")");
    unsigned long long staged_before = 0;
    if (probe == "after-staged") {
      // The staged chain on other inputs, so that its buffers do not hold this call's output.
      const std::uint64_t staged_inputs = ChildSession::lab_case_seed_of(seed);
      checks_.generate_inputs(input_->data(), second_->data(), n, staged_inputs, staged_inputs, stream_);
      declared_->launch_lab_case(declared_->staged_case, input_->data(), second_->data(), lab_, n, stream_);
      staged_before = staged_digest(n);
    } else {
      for (std::size_t b = 0; b < declared_->staged_buffers.size(); ++b) {
        LABRUN_CUDA_CHECK(cudaMemsetAsync(lab_[b], 0xFF, n * sizeof(float), stream_));
      }
    }
    checks_.generate_inputs(input_->data(), second_->data(), n, seed, seed, stream_);
    session_.reset_outside_writes();
    launch_first(n, probe);
    // Before the second kernel, which must compute the output from the intermediate and its own
    // input alone, the first kernel's input holds other inputs in every probe: no probe can be told
    // from another by comparing that input with the intermediate, and a second kernel that reads it
    // follows the replaced input in each. Planted: the intermediate is the first stages' output of
    // yet other inputs, too.
    checks_.inspect_intermediate(intermediate_->data(), n, seed, declared_->tolerance, declared_->tolerance,
                                 intermediate_counters_, stream_);
    const auto counters = session_.download_one(intermediate_counters_);
    // The inputs as the first kernel left them, before the input is replaced.
    session_.reset_tallies();
    checks_.count_input_changes(input_->data(), second_->data(), n, seed, seed, session_.tally(kInputs),
                                stream_);
    const std::uint64_t changed_by_first = session_.download_tallies()[kInputs];
    std::uint64_t seed_input = seed;
    if (probe == "planted") {
      seed_input = session_.next_seed();
      checks_.plant_intermediate(intermediate_->data(), n, seed_input, stream_);
    } else {
      result.intermediate = ChainIntermediateInspection{counters.unwritten, counters.mismatches};
    }
    const std::uint64_t seed_replaced = session_.next_seed();
    checks_.generate_inputs(input_->data(), second_->data(), n, seed_replaced, seed, stream_);
    launch_second(n, probe);
    result.launches_writing_outside = session_.outside_writes();
    session_.phase("checking the output at n = " + std::to_string(n) + " (" + probe + ")");
    const ChainOutputInspection from_replaced = inspect(n, seed_replaced, seed, false);
    result.matches_chain_of_input = n - from_replaced.mismatches;
    result.output = inspect(n, seed_input, seed, true);
    session_.reset_tallies();
    output_->count_guard_changes(n, session_.tally(kGuardOutput), stream_, slot_);
    intermediate_->count_guard_changes(n, session_.tally(kGuardIntermediate), stream_);
    input_->count_guard_changes(n, session_.tally(kGuardInput), stream_);
    second_->count_guard_changes(n, session_.tally(kGuardSecond), stream_);
    checks_.count_input_changes(input_->data(), second_->data(), n, seed_replaced, seed,
                                session_.tally(kInputs), stream_);
    const std::vector<unsigned long long> tallies = session_.download_tallies();
    result.guards = {tallies[kGuardOutput], tallies[kGuardIntermediate], tallies[kGuardInput],
                     tallies[kGuardSecond]};
    result.input_elements_changed = changed_by_first + tallies[kInputs];
    result.staged_buffers_written = staged_written(n, probe, staged_before);
    return to_json(result, names_);
  }

  // The pair's four buffers: the two inputs it may only read, the intermediate and the output. Between
  // timed calls the child writes the inputs (fresh_call), poisons the intermediate and the output,
  // and its checks write the counters and the session's tallies: the lab's buffers are written by
  // nothing then (only the probes and the lab's own timing, before and after the timed calls).
  [[nodiscard]] CallBuffers call_buffers(std::size_t /*n*/) const override {
    CallBuffers call{{input_->region(), second_->region()}, {intermediate_->region(), output_->region()}, {}};
    for (float* buffer : lab_) {
      call.untouched_between_calls.push_back({buffer, capacity_ * sizeof(float)});
    }
    return call;
  }

  void fresh_call(std::size_t n, std::uint64_t seed) override {
    checks_.generate_inputs(input_->data(), second_->data(), n, seed, seed, stream_);
    intermediate_->poison(stream_);
    output_->poison(stream_);
    slot_ = ChildSession::slot_of(seed);
  }

  [[nodiscard]] std::vector<OwnedRegion> call_ranges(std::size_t n) const override {
    return {input_->elements(n), intermediate_->elements(n), second_->elements(n),
            output_->elements(n, slot_)};
  }

  // The pair inside a timed call: launched back to back with no wait between them; a failure
  // surfaces at the call's end.
  void launch_call(std::size_t n) override {
    const float* input = input_->data();
    float* intermediate = intermediate_->data();
    const float* second = second_->data();
    float* output = output_->data(slot_);
    void* first_arguments[] = {&input, &intermediate, &n};
    void* second_arguments[] = {&intermediate, &second, &output, &n};
    session_.launch_timed(0, first_arguments, n);
    session_.launch_timed(1, second_arguments, n);
  }

  // The output, and the intermediate the first kernel must have left: a pair whose first kernel was
  // skipped while timed, or whose second did its work, does not leave the first stages' output there.
  CallCheck check_call(std::size_t n, std::uint64_t seed) override {
    ChainPairRecord result;
    result.size_label = "card-scaled";
    result.probe = "timed";
    result.elements = n;
    result.output = inspect(n, seed, seed, false);
    checks_.inspect_intermediate(intermediate_->data(), n, seed, declared_->tolerance, declared_->tolerance,
                                 intermediate_counters_, stream_);
    const auto counters = session_.download_one(intermediate_counters_);
    result.intermediate = ChainIntermediateInspection{counters.unwritten, counters.mismatches};
    CallCheck checked{result.output.passed(), counters.unwritten == 0 && counters.mismatches == 0,
                      std::nullopt};
    if (!checked.output_right || !checked.structure_right) {
      checked.record = to_json(result, names_);
    }
    return checked;
  }

  std::uint64_t output_guard_changes(std::size_t n) override {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(session_.tally(0), 0, sizeof(unsigned long long), stream_));
    output_->count_guard_changes(n, session_.tally(0), stream_, slot_);
    intermediate_->count_guard_changes(n, session_.tally(0), stream_);
    return session_.download_tallies()[0];
  }

  void fresh_lab_inputs(std::size_t n, std::uint64_t seed) override {
    checks_.generate_inputs(input_->data(), second_->data(), n, seed, seed, stream_);
  }

  void launch_lab_case(std::size_t index, std::size_t n) override {
    declared_->launch_lab_case(index, input_->data(), second_->data(), lab_, n, stream_);
  }

  void release_lab_buffers() override {
    for (float* buffer : lab_) {
      session_.release(buffer);
    }
    lab_.clear();
  }

  void sanitize(std::size_t n, std::uint64_t seed) override {
    const DeviceBuffer<float> input(n), second(n), intermediate(n), output(n);
    checks_.generate_inputs(input.data(), second.data(), n, seed, seed, stream_);
    LABRUN_CUDA_CHECK(cudaMemsetAsync(intermediate.data(), 0xFF, n * sizeof(float), stream_));
    LABRUN_CUDA_CHECK(cudaMemsetAsync(output.data(), 0xFF, n * sizeof(float), stream_));
    const float* input_in = input.data();
    float* intermediate_out = intermediate.data();
    const float* second_in = second.data();
    float* output_out = output.data();
    void* first_arguments[] = {&input_in, &intermediate_out, &n};
    void* second_arguments[] = {&intermediate_out, &second_in, &output_out, &n};
    session_.launch(0, first_arguments, n, "sanitizer run");
    session_.launch(1, second_arguments, n, "sanitizer run");
  }

 private:
  // The checked launches of the probes: every byte the child owns outside the allocations the
  // launch was given is digested around each.
  void launch_first(std::size_t n, const std::string& what) {
    const float* input = input_->data();
    float* intermediate = intermediate_->data();
    void* arguments[] = {&input, &intermediate, &n};
    session_.launch(0, arguments, n, what,
                    std::vector<OwnedRegion>{{input, n * sizeof(float)}, {intermediate, n * sizeof(float)}});
  }
  void launch_second(std::size_t n, const std::string& what) {
    const float* intermediate = intermediate_->data();
    const float* second = second_->data();
    float* output = output_->data(slot_);
    void* arguments[] = {&intermediate, &second, &output, &n};
    session_.launch(
        1, arguments, n, what,
        std::vector<OwnedRegion>{
            {intermediate, n * sizeof(float)}, {second, n * sizeof(float)}, {output, n * sizeof(float)}});
  }

  ChainOutputInspection inspect(std::size_t n, std::uint64_t seed_input, std::uint64_t seed_second,
                                bool compositions) {
    float* output = output_->data(slot_);
    checks_.inspect_output(output, n, seed_input, seed_second, declared_->tolerance, declared_->tolerance,
                           compositions, output_counters_, stream_);
    const auto counters = session_.download_one(output_counters_);
    ChainOutputInspection o;
    o.elements = n;
    o.mismatches = counters.mismatches;
    o.unwritten = counters.unwritten;
    o.non_finite = counters.non_finite;
    o.trailing_unwritten = n - std::min<std::uint64_t>(n, counters.written_end);
    std::memcpy(&o.max_abs_error, &counters.max_abs_error_bits, sizeof o.max_abs_error);
    if (counters.first_bad < n) {
      o.first_bad_index = counters.first_bad;
      o.first_bad_got = session_.download_one(output + counters.first_bad);
      o.first_bad_expected = checks_.expected_at(seed_input, seed_second, counters.first_bad);
    }
    if (compositions) {
      for (std::size_t c = 0; c < declared_->compositions.size(); ++c) {
        o.compositions.push_back({declared_->compositions[c].name, counters.composition_matches[c + 1]});
      }
    }
    return o;
  }

  // The staged chain's buffers the call wrote: after-staged, any of them (against the digest taken
  // after the staged chain ran); otherwise each that no longer holds the poison.
  std::vector<std::string> staged_written(std::size_t n, const std::string& probe,
                                          unsigned long long before) {
    const std::vector<std::string>& names = declared_->staged_buffers;
    std::vector<std::string> written;
    if (probe == "after-staged") {
      if (staged_digest(n) != before) {
        std::string all;
        for (std::size_t b = 0; b < names.size(); ++b) {
          all += (b == 0 ? "" : b + 1 == names.size() ? " or " : ", ") + names[b];
        }
        written.push_back(all);
      }
      return written;
    }
    for (std::size_t b = 0; b < names.size(); ++b) {
      LABRUN_CUDA_CHECK(cudaMemsetAsync(session_.tally(kStaged), 0, sizeof(unsigned long long), stream_));
      count_words_not(lab_[b], n, kPoisonWord, session_.tally(kStaged), stream_);
      if (session_.download_tallies()[kStaged] > 0) {
        written.push_back(names[b]);
      }
    }
    return written;
  }

  unsigned long long staged_digest(std::size_t n) {
    std::vector<OwnedRegion> regions;
    for (std::size_t b = 0; b < declared_->staged_buffers.size(); ++b) {
      regions.push_back({lab_[b], n * sizeof(float)});
    }
    return session_.digest_of(regions);
  }

  ChildSession& session_;
  std::shared_ptr<const ChainPairDeclaration> declared_;
  const ChainPairChecks& checks_;
  ChainPairNames names_;
  cudaStream_t stream_;
  GuardedBuffer* input_ = nullptr;
  GuardedBuffer* second_ = nullptr;
  GuardedBuffer* intermediate_ = nullptr;
  GuardedBuffer* output_ = nullptr;
  std::vector<float*> lab_;  // the staged chain's buffers, then the lab's others, each of capacity_ floats
  std::size_t capacity_ = 0;
  ChainOutputCounters* output_counters_ = nullptr;
  ChainIntermediateCounters* intermediate_counters_ = nullptr;
  std::size_t slot_ = 0;  // where this call's output starts
};

}  // namespace

std::unique_ptr<ExerciseChild> chain_pair_child(ChildSession& session,
                                                std::shared_ptr<const ChainPairDeclaration> declaration,
                                                const ChainPairNames& names) {
  return std::make_unique<ChainPairChild>(session, std::move(declaration), names);
}

}  // namespace labrun
