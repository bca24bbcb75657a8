// Day 48's device side in the grading child (exercise/child_session.hpp runs it): the pair's
// guarded buffers, the staged chain's and the lab's, the three probes of each size, and how one
// timed call is prepared, launched and checked. Each probe regenerates every input and float64
// reference from the seed in the grader's own kernels (checks.hpp), which run after the submission's
// kernels have finished, on the same stream.

#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exercise/device_checks.hpp"
#include "grading/checks.hpp"
#include "grading/exercise.hpp"
#include "grading/probe_results.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace day48::grading {
namespace {

using labrun::ChildSession;
using labrun::GuardedBuffer;
using labrun::kPoisonWord;
using labrun::OwnedRegion;

// The session's counters, by what each counts.
enum Tally : std::size_t { kGuardY, kGuardIntermediate, kGuardX, kGuardResidual, kInputs, kStaged };

class HalfwayChild final : public labrun::ExerciseChild {
 public:
  explicit HalfwayChild(ChildSession& session) : session_(session), stream_(session.stream()) {}

  // The submission's guarded buffers, the staged chain's, the lab's own outputs and the counters.
  void allocate(std::size_t capacity) override {
    x_ = &session_.guarded(capacity);
    residual_ = &session_.guarded(capacity);
    intermediate_ = &session_.guarded(capacity);
    // y is the second kernel's alone: it starts at a place drawn from each call's seed, so that the
    // first kernel cannot know where it is.
    y_ = &session_.guarded(capacity, labrun::kSlots);
    float* staged[6] = {};
    for (float*& buffer : staged) {
      buffer = session_.owned_array<float>(capacity);
    }
    t1_ = staged[0];
    t2_ = staged[1];
    t3_ = staged[2];
    output_counters_ = session_.owned_array<OutputCounters>(1);
    intermediate_counters_ = session_.owned_array<IntermediateCounters>(1);
    lab_ = ChainBuffers{x_->data(), residual_->data(), t1_, t2_, t3_, staged[3], staged[4], staged[5]};
  }

  nlohmann::ordered_json probe(const std::string& label, std::size_t n, const std::string& probe) override {
    ProbeResult result;
    result.size_label = label;
    result.probe = probe;
    result.elements = n;
    const std::uint64_t seed = session_.next_seed();
    result.call = session_.calls();
    slot_ = ChildSession::slot_of(seed);
    for (const GuardedBuffer* b : {x_, residual_, intermediate_, y_}) {
      b->poison(stream_);
    }
    session_.phase("preparing the inputs at n = " + std::to_string(n) + " (" + probe + ")");
    generate_inputs(x_->data(), residual_->data(), n, seed, seed, stream_);
    unsigned long long staged_before = 0;
    if (probe == "after-staged") {
      launch_staged_chain(lab_, n, stream_);
      staged_before = staged_digest(n);
    } else {
      for (float* staged : {t1_, t2_, t3_}) {
        LABRUN_CUDA_CHECK(cudaMemsetAsync(staged, 0xFF, n * sizeof(float), stream_));
      }
    }
    session_.reset_outside_writes();
    launch_first(x_->data(), intermediate_->data(), n, probe);
    // Before the second kernel, which must compute y from the intermediate and the residual alone,
    // x holds other inputs in every probe: no probe can be told from another by comparing x with the
    // intermediate, and a second kernel that reads x follows the replaced x in each. Planted: the
    // intermediate is stage 2's output of yet other inputs, too.
    inspect_intermediate(intermediate_->data(), n, seed, kTolerance, kTolerance, intermediate_counters_,
                         stream_);
    const auto counters = session_.download_one(intermediate_counters_);
    // The inputs as the first kernel left them, before x is replaced.
    session_.reset_tallies();
    count_input_changes(x_->data(), residual_->data(), n, seed, seed, session_.tally(kInputs), stream_);
    const std::uint64_t changed_by_first = session_.download_tallies()[kInputs];
    std::uint64_t seed_x = seed;
    if (probe == "planted") {
      seed_x = session_.next_seed();
      plant_intermediate(intermediate_->data(), n, seed_x, stream_);
    } else {
      result.intermediate = IntermediateInspection{counters.unwritten, counters.mismatches};
    }
    const std::uint64_t seed_replaced_x = session_.next_seed();
    generate_inputs(x_->data(), residual_->data(), n, seed_replaced_x, seed, stream_);
    launch_second(intermediate_->data(), residual_->data(), y_->data(slot_), n, probe);
    result.launches_writing_outside = session_.outside_writes();
    session_.phase("checking the output at n = " + std::to_string(n) + " (" + probe + ")");
    const OutputInspection from_x = inspect(n, seed_replaced_x, seed, false);
    result.matches_chain_of_x = n - from_x.mismatches;
    result.output = inspect(n, seed_x, seed, true);
    session_.reset_tallies();
    y_->count_guard_changes(n, session_.tally(kGuardY), stream_, slot_);
    intermediate_->count_guard_changes(n, session_.tally(kGuardIntermediate), stream_);
    x_->count_guard_changes(n, session_.tally(kGuardX), stream_);
    residual_->count_guard_changes(n, session_.tally(kGuardResidual), stream_);
    count_input_changes(x_->data(), residual_->data(), n, seed_replaced_x, seed, session_.tally(kInputs),
                        stream_);
    const std::vector<unsigned long long> tallies = session_.download_tallies();
    result.guards = {tallies[kGuardY], tallies[kGuardIntermediate], tallies[kGuardX],
                     tallies[kGuardResidual]};
    result.input_elements_changed = changed_by_first + tallies[kInputs];
    if (probe == "after-staged") {
      if (staged_digest(n) != staged_before) {
        result.staged_buffers_written.emplace_back("t1, t2 or t3");
      }
    } else {
      const char* names[] = {"t1", "t2", "t3"};
      const float* staged[] = {t1_, t2_, t3_};
      for (std::size_t b = 0; b < 3; ++b) {
        LABRUN_CUDA_CHECK(cudaMemsetAsync(session_.tally(kStaged), 0, sizeof(unsigned long long), stream_));
        labrun::count_words_not(staged[b], n, kPoisonWord, session_.tally(kStaged), stream_);
        if (session_.download_tallies()[kStaged] > 0) {
          result.staged_buffers_written.emplace_back(names[b]);
        }
      }
    }
    return to_json(result);
  }

  // The pair's four buffers: x and the residual it may only read, the intermediate and y.
  [[nodiscard]] labrun::CallBuffers call_buffers(std::size_t /*n*/) const override {
    return {{x_->region(), residual_->region()}, {intermediate_->region(), y_->region()}};
  }

  void fresh_call(std::size_t n, std::uint64_t seed) override {
    generate_inputs(x_->data(), residual_->data(), n, seed, seed, stream_);
    intermediate_->poison(stream_);
    y_->poison(stream_);
    slot_ = ChildSession::slot_of(seed);
  }

  // The pair inside a timed call: launched back to back with no wait between them, as the lesson's
  // program does; a failure surfaces at the call's end.
  void launch_call(std::size_t n) override {
    const float* x = x_->data();
    float* intermediate = intermediate_->data();
    const float* residual = residual_->data();
    float* y = y_->data(slot_);
    void* first[] = {&x, &intermediate, &n};
    void* second[] = {&intermediate, &residual, &y, &n};
    session_.launch_timed(0, first, n);
    session_.launch_timed(1, second, n);
  }

  // y, and the intermediate the first kernel must have left: a pair whose first kernel was skipped
  // while timed, or whose second did its work, does not leave stage 2's output there.
  labrun::CallCheck check_call(std::size_t n, std::uint64_t seed) override {
    ProbeResult result;
    result.size_label = "card-scaled";
    result.probe = "timed";
    result.elements = n;
    result.output = inspect(n, seed, seed, false);
    inspect_intermediate(intermediate_->data(), n, seed, kTolerance, kTolerance, intermediate_counters_,
                         stream_);
    const auto counters = session_.download_one(intermediate_counters_);
    result.intermediate = IntermediateInspection{counters.unwritten, counters.mismatches};
    labrun::CallCheck checked{result.output.passed(), counters.unwritten == 0 && counters.mismatches == 0,
                              std::nullopt};
    if (!checked.output_right || !checked.structure_right) {
      checked.record = to_json(result);
    }
    return checked;
  }

  std::uint64_t output_guard_changes(std::size_t n) override {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(session_.tally(0), 0, sizeof(unsigned long long), stream_));
    y_->count_guard_changes(n, session_.tally(0), stream_, slot_);
    intermediate_->count_guard_changes(n, session_.tally(0), stream_);
    return session_.download_tallies()[0];
  }

  void fresh_lab_inputs(std::size_t n, std::uint64_t seed) override {
    generate_inputs(lab_.x, lab_.residual, n, seed, seed, stream_);
  }

  // Exercise::lab_cases' order: staged, fused, the lab's own pair, the three copies.
  void launch_lab_case(std::size_t index, std::size_t n) override {
    switch (index) {
      case 0: launch_staged_chain(lab_, n, stream_); break;
      case 1: launch_fused_chain(lab_, n, stream_); break;
      case 2: launch_halfway_pair(lab_, n, stream_); break;
      case 3: launch_copy_floor(lab_.x, lab_.copy_out, n, stream_); break;
      case 4: launch_copy_vectorized(lab_.x, lab_.copy_out, n, stream_); break;
      default: launch_copy_memcpy(lab_.x, lab_.copy_out, n, stream_); break;
    }
  }

  void sanitize(std::size_t n, std::uint64_t seed) override {
    const labrun::DeviceBuffer<float> x(n), residual(n), intermediate(n), y(n);
    generate_inputs(x.data(), residual.data(), n, seed, seed, stream_);
    LABRUN_CUDA_CHECK(cudaMemsetAsync(intermediate.data(), 0xFF, n * sizeof(float), stream_));
    LABRUN_CUDA_CHECK(cudaMemsetAsync(y.data(), 0xFF, n * sizeof(float), stream_));
    const float* x_in = x.data();
    float* intermediate_out = intermediate.data();
    const float* residual_in = residual.data();
    float* y_out = y.data();
    void* first[] = {&x_in, &intermediate_out, &n};
    void* second[] = {&intermediate_out, &residual_in, &y_out, &n};
    session_.launch(0, first, n, "sanitizer run");
    session_.launch(1, second, n, "sanitizer run");
  }

 private:
  // The checked launches of the probes: every byte the child owns outside the allocations the
  // launch was given is digested around each.
  void launch_first(const float* x, float* intermediate, std::size_t n, const std::string& what) {
    void* arguments[] = {&x, &intermediate, &n};
    session_.launch(0, arguments, n, what,
                    std::vector<OwnedRegion>{{x, n * sizeof(float)}, {intermediate, n * sizeof(float)}});
  }
  void launch_second(const float* intermediate, const float* residual, float* y, std::size_t n,
                     const std::string& what) {
    void* arguments[] = {&intermediate, &residual, &y, &n};
    session_.launch(
        1, arguments, n, what,
        std::vector<OwnedRegion>{
            {intermediate, n * sizeof(float)}, {residual, n * sizeof(float)}, {y, n * sizeof(float)}});
  }

  OutputInspection inspect(std::size_t n, std::uint64_t seed_x, std::uint64_t seed_residual,
                           bool compositions) {
    inspect_output(y_->data(slot_), n, seed_x, seed_residual, kTolerance, kTolerance, compositions,
                   output_counters_, stream_);
    const auto counters = session_.download_one(output_counters_);
    OutputInspection o;
    o.elements = n;
    o.mismatches = counters.mismatches;
    o.unwritten = counters.unwritten;
    o.non_finite = counters.non_finite;
    o.trailing_unwritten = n - std::min<std::uint64_t>(n, counters.written_end);
    std::memcpy(&o.max_abs_error, &counters.max_abs_error_bits, sizeof o.max_abs_error);
    if (counters.first_bad < n) {
      o.first_bad_index = counters.first_bad;
      o.first_bad_got = session_.download_one(y_->data(slot_) + counters.first_bad);
      o.first_bad_expected = chain_element(Composition::kCorrect, input_x_at(seed_x, counters.first_bad),
                                           residual_at(seed_residual, counters.first_bad));
    }
    if (compositions) {
      for (const Composition c : kWrongCompositions) {
        o.compositions.push_back({composition_name(c), counters.composition_matches[static_cast<int>(c)]});
      }
    }
    return o;
  }

  unsigned long long staged_digest(std::size_t n) {
    return session_.digest_of({{t1_, n * sizeof(float)}, {t2_, n * sizeof(float)}, {t3_, n * sizeof(float)}});
  }

  ChildSession& session_;
  cudaStream_t stream_;
  GuardedBuffer* x_ = nullptr;
  GuardedBuffer* residual_ = nullptr;
  GuardedBuffer* intermediate_ = nullptr;
  GuardedBuffer* y_ = nullptr;
  float* t1_ = nullptr;
  float* t2_ = nullptr;
  float* t3_ = nullptr;
  OutputCounters* output_counters_ = nullptr;
  IntermediateCounters* intermediate_counters_ = nullptr;
  ChainBuffers lab_;
  std::size_t slot_ = 0;  // where this call's y starts
};

}  // namespace

std::unique_ptr<labrun::ExerciseChild> halfway_child(ChildSession& session) {
  return std::make_unique<HalfwayChild>(session);
}

}  // namespace day48::grading
