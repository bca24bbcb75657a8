// The grading child: trusted code that loads a submission's compiled device code (a cubin, with no
// host code), launches its two kernels on a stream of its own with the grids it computes, checks
// what they did with the grader's own kernels (checks.hpp), times them beside the lab's kernels, and
// writes what it measured. It decides nothing: labrun grade judges.
//
//   labrun-day48-grade-child --request FILE
//
// FILE (child_protocol.hpp) names the image, the results and phase files (all in the working
// folder) and holds the seed, so that no seed is ever on a command line. It runs in its own process
// so that a kernel that never ends, or a CUDA error that spoils the context, ends only this process.
// Exit status: 0 finished (whatever the submission did), 2 bad request, 3 stopped by the submission
// (a CUDA error, a hang, a kernel that cannot be loaded or launched; the results say which), 1 the
// child itself failed.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "core/statistics.hpp"
#include "grading/checks.hpp"
#include "grading/child_protocol.hpp"
#include "grading/contract.hpp"
#include "grading/device_image.hpp"
#include "grading/launch_plan.hpp"
#include "grading/submission_kernels.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"
#include "timing/sampler.hpp"

namespace {

using day48::grading::ChildRequest;
using day48::grading::ChildResults;
using day48::grading::kPoisonWord;
using labrun::DeviceBuffer;

// Poisoned floats before and after each of the submission's buffers: 2 MiB, a large page's worth,
// so no plausible stray index hops it unseen; past it lies another allocation or unmapped memory.
constexpr std::size_t kGuardFloats = std::size_t{512} * 1024;
constexpr double kTolerance = 1e-5;  // absolute and relative, as in the lab
constexpr int kTimingWarmups = 2;

// A stop caused by the submission: the results say what and where.
struct SubmissionStopped {
  std::string kind;  // child_protocol.hpp's error_kind
  std::string message;
};

// The step in progress, kept in a file so that labrun can name what hung after killing us.
class Phase {
 public:
  explicit Phase(std::string path) : path_(std::move(path)) {}
  void set(const std::string& step) {
    step_ = step;
    labrun::write_file_atomically(path_, step + "\n", true);
  }
  [[nodiscard]] const std::string& step() const { return step_; }

 private:
  std::string path_;
  std::string step_;
};

std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Calls `expired` from its own thread, with what was armed, when the deadline passes before it is
// re-armed or destroyed: for the timing phase, where a kernel that never ends would block an event
// wait forever. Armed once for the whole phase, and again for each sample.
class Watchdog {
 public:
  explicit Watchdog(std::function<void(const std::string&)> expired)
      : expired_(std::move(expired)), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  //! From now, `seconds` until `what` is a hang (replacing the earlier deadline).
  void arm(double seconds, std::string what) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      deadline_ =
          std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                 std::chrono::duration<double>(seconds));
      what_ = std::move(what);
    }
    changed_.notify_all();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      if (!deadline_) {
        changed_.wait(lock);
        continue;
      }
      const auto deadline = *deadline_;
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && !done_ && deadline_ == deadline) {
        expired_(what_);  // does not return: it ends the process
      }
    }
  }

  std::function<void(const std::string&)> expired_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool done_ = false;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::string what_;
  std::thread thread_;
};

// Every allocation the child owns, as (first byte, bytes), so that memory a submission was not
// given is checked after each of its launches: a keyed digest of all of it but the launch's own
// output, taken before and after, must not change (memory_outside_changed below).
struct OwnedRegion {
  const void* data = nullptr;
  std::size_t bytes = 0;
};

// [guard | n floats, padded to 256 bytes | guard] in one allocation, poisoned; data() is 256-byte
// aligned, so a submission may use 16-byte vector accesses from element 0.
class GuardedBuffer {
 public:
  GuardedBuffer(std::size_t capacity, std::size_t guard)
      : guard_(guard), words_(guard + (capacity + 63) / 64 * 64 + guard), storage_(words_) {}
  [[nodiscard]] float* data() const { return storage_.data() + guard_; }
  void poison(cudaStream_t stream) const {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(storage_.data(), 0xFF, words_ * sizeof(float), stream));
  }
  void poison_elements(std::size_t n, cudaStream_t stream) const {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(data(), 0xFF, n * sizeof(float), stream));
  }
  [[nodiscard]] OwnedRegion region() const { return {storage_.data(), words_ * sizeof(float)}; }
  // Adds to *count the guard words (everything outside [0, n)) that no longer hold the poison.
  void count_guard_changes(std::size_t n, unsigned long long* count, cudaStream_t stream) const {
    day48::grading::count_words_not(storage_.data(), guard_, kPoisonWord, count, stream);
    day48::grading::count_words_not(data() + n, words_ - guard_ - n, kPoisonWord, count, stream);
  }

 private:
  std::size_t guard_;
  std::size_t words_;
  DeviceBuffer<float> storage_;
};

// Reads one value the grader's kernels wrote, through the grading stream: a plain cudaMemcpy would
// not wait for work on a non-blocking stream.
template <typename T>
T download_one(const T* device, cudaStream_t stream) {
  T value{};
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(&value, device, sizeof(T), cudaMemcpyDeviceToHost, stream));
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return value;
}

// The two kernels of the submission, looked up and checked against the contract
// (grading/submission_kernels.hpp, which `labrun run --submission` loads through too).
struct Kernels {
  cudaLibrary_t library = nullptr;
  cudaKernel_t first = nullptr;
  cudaKernel_t second = nullptr;
};

Kernels load_kernels(const ChildRequest& request, ChildResults& results) {
  day48::grading::LoadedKernels loaded = day48::grading::load_submission_kernels(
      labrun::read_regular_file(request.image, labrun::kDeviceImageMaxBytes));
  results.kernels = std::move(loaded.kernels);
  results.kernels_found = std::move(loaded.kernels_found);
  if (!loaded.problem_kind.empty()) {
    throw SubmissionStopped{loaded.problem_kind, loaded.problem};
  }
  // The driver reserves a kernel's local memory for every thread the GPU can hold: bounded per
  // thread, so that no submission takes the memory of those graded beside it.
  for (const day48::grading::KernelInfo& kernel : results.kernels) {
    if (kernel.local_bytes > day48::grading::kLocalBytesPerThreadMax) {
      throw SubmissionStopped{"local-memory-too-large",
                              kernel.name + " uses " + std::to_string(kernel.local_bytes) +
                                  " bytes of local memory per thread, more than the " +
                                  std::to_string(day48::grading::kLocalBytesPerThreadMax) +
                                  " a submission may"};
    }
  }
  return Kernels{loaded.library, loaded.first, loaded.second};
}

class Grading {
 public:
  //! on_hang records a hang and ends the process; it must not return.
  Grading(const ChildRequest& request, ChildResults& results, Phase& phase,
          std::function<void(const std::string&)> on_hang)
      : request_(request), results_(results), phase_(phase), on_hang_(std::move(on_hang)) {
    int device = 0;
    LABRUN_CUDA_CHECK(cudaGetDevice(&device));
    LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
    LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes_, cudaDevAttrL2CacheSize, device));
    LABRUN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    std::random_device entropy;
    digest_key_ = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
  }
  ~Grading() { LABRUN_CUDA_NOTHROW(cudaStreamDestroy(stream_)); }
  Grading(const Grading&) = delete;
  Grading& operator=(const Grading&) = delete;

  void load() {
    phase_.set("loading the compiled submission");
    // The device-side heap (malloc in a kernel) has a fixed, small size, set before any module loads.
    LABRUN_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, day48::grading::kDeviceHeapBytes));
    kernels_ = load_kernels(request_, results_);
  }

  // Unguarded runs for compute-sanitizer, at the small odd size and at the graded odd size, each
  // in buffers of exactly n floats: any access outside [0, n) leaves its allocation.
  void sanitize_run() {
    for (const std::size_t n : {static_cast<std::size_t>(request_.sanitize_elements),
                                static_cast<std::size_t>(request_.odd_elements)}) {
      DeviceBuffer<float> x(n), residual(n), intermediate(n), y(n);
      day48::grading::generate_inputs(x.data(), residual.data(), n, request_.seed, request_.seed, stream_);
      LABRUN_CUDA_CHECK(cudaMemsetAsync(intermediate.data(), 0xFF, n * sizeof(float), stream_));
      LABRUN_CUDA_CHECK(cudaMemsetAsync(y.data(), 0xFF, n * sizeof(float), stream_));
      launch_first(x.data(), intermediate.data(), n, "sanitizer run");
      launch_second(intermediate.data(), residual.data(), y.data(), n, "sanitizer run");
    }
  }

  void grade() {
    allocate(std::max(request_.odd_elements, request_.card_elements));
    write();
    const std::pair<const char*, std::uint64_t> sizes[] = {{"odd", request_.odd_elements},
                                                           {"card-scaled", request_.card_elements}};
    for (const auto& [label, n] : sizes) {
      if (n == 0) {
        continue;
      }
      for (const char* probe : {"alone", "after-staged", "planted"}) {
        run_probe(label, n, probe);
        write();
      }
    }
    if (request_.card_elements > 0) {
      time_at(request_.card_elements);
    }
    results_.completed = true;
    phase_.set("finished");
    write();
  }

  // The submission's guarded buffers, the staged chain's, the lab's own outputs and the counters; a
  // GPU without the memory for them stops the child with "grader-out-of-memory" (not the
  // submission's doing: labrun grades it again).
  void allocate(std::size_t capacity) {
    try {
      allocate_all(capacity);
    } catch (const labrun::CudaError& error) {
      if (error.code() != cudaErrorMemoryAllocation) {
        throw;
      }
      static_cast<void>(cudaGetLastError());
      throw SubmissionStopped{"grader-out-of-memory",
                              "the child's buffers for n = " + std::to_string(capacity) +
                                  " did not fit in the GPU's free memory"};
    }
  }

  void allocate_all(std::size_t capacity) {
    x_.emplace(capacity, kGuardFloats);
    residual_.emplace(capacity, kGuardFloats);
    intermediate_.emplace(capacity, kGuardFloats);
    y_.emplace(capacity, kGuardFloats);
    for (DeviceBuffer<float>* staged : {&t1_, &t2_, &t3_, &lab_y_, &lab_halfway_, &copy_out_}) {
      *staged = DeviceBuffer<float>(capacity);
    }
    output_counters_ = DeviceBuffer<day48::grading::OutputCounters>(1);
    intermediate_counters_ = DeviceBuffer<day48::grading::IntermediateCounters>(1);
    tallies_ = DeviceBuffer<unsigned long long>(kTallies);
    lab_ = day48::ChainBuffers{x_->data(), residual_->data(), t1_.data(),          t2_.data(),
                               t3_.data(), lab_y_.data(),     lab_halfway_.data(), copy_out_.data()};
    owned_ = {x_->region(), residual_->region(), intermediate_->region(), y_->region()};
    for (const DeviceBuffer<float>* buffer : {&t1_, &t2_, &t3_, &lab_y_, &lab_halfway_, &copy_out_}) {
      owned_.push_back({buffer->data(), buffer->bytes()});
    }
    owned_.push_back({output_counters_.data(), output_counters_.bytes()});
    owned_.push_back({intermediate_counters_.data(), intermediate_counters_.bytes()});
  }

  // The lab's kernels alone, timed at the large size, for a batch to share (mode lab-times).
  void time_lab_only() {
    const std::size_t n = request_.card_elements;
    allocate(n);
    labrun::L2Flusher flusher(static_cast<std::size_t>(l2_bytes_), 2, sm_count_);
    day48::grading::TimingResult timing;
    timing.elements = n;
    timing.samples = request_.timing_samples;
    timing.lab = time_lab(n, flusher);
    results_.timing = timing;
    results_.completed = true;
    phase_.set("finished");
    write();
  }

  void write() const {
    labrun::write_file_atomically(request_.results, day48::grading::to_json(results_).dump(2) + "\n", true);
  }

 private:
  enum Tally : std::size_t {
    kGuardY,
    kGuardIntermediate,
    kGuardX,
    kGuardResidual,
    kInputs,
    kStaged,
    kOwned,
    kTallies
  };

  std::string step(const char* kernel, std::size_t n, const std::string& what) const {
    return std::string(kernel) + " at n = " + std::to_string(n) + " (" + what + ")";
  }

  // Launches one kernel of the submission and waits for it, at most the kernel time limit. With
  // `given` (the buffers passed to the launch), every byte the child owns outside the allocations
  // that hold them is digested before and after, and a change counted in outside_writes_. The given
  // allocations, guards included, are checked on their own: the guards (write-past-n), the inputs
  // (input-modified) and the output.
  void launch(cudaKernel_t kernel, const labrun::LaunchShape& shape, void** arguments, std::size_t n,
              const std::string& where, const std::vector<const void*>& given = {}) {
    phase_.set(where);
    const day48::grading::LaunchPlan plan = plan_for(kernel, shape, n);
    if (!plan.problem.empty()) {
      throw SubmissionStopped{"launch-shape", where + ": " + plan.problem};
    }
    const bool checked = !given.empty();
    const unsigned long long before = checked ? digest_owned_except(given) : 0;
    const cudaError_t launched = cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(plan.blocks),
                                                  dim3(plan.threads), arguments, 0, stream_);
    if (launched != cudaSuccess) {
      throw labrun::CudaError(launched, "launch of " + where, __FILE__, __LINE__);
    }
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(request_.kernel_time_limit_s);
    while (true) {
      const cudaError_t state = cudaStreamQuery(stream_);
      if (state == cudaSuccess) {
        if (checked && digest_owned_except(given) != before) {
          ++outside_writes_;
        }
        return;
      }
      if (state != cudaErrorNotReady) {
        throw labrun::CudaError(state, where, __FILE__, __LINE__);
      }
      if (std::chrono::steady_clock::now() > deadline) {
        // No unwinding: freeing a buffer would wait for the kernel that never ends.
        on_hang_(where + " had not finished after " +
                 std::to_string(static_cast<int>(request_.kernel_time_limit_s)) + " s");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  day48::grading::LaunchPlan plan_for(cudaKernel_t kernel, const labrun::LaunchShape& shape, std::size_t n) {
    return day48::grading::plan_kernel_launch(kernel, shape, n, sm_count_);
  }

  void launch_first(const float* x, float* intermediate, std::size_t n, const std::string& what,
                    bool checked = false) {
    void* arguments[] = {&x, &intermediate, &n};
    launch(kernels_.first, request_.first_shape, arguments, n, step(day48::grading::kFirstKernel, n, what),
           checked ? std::vector<const void*>{x, intermediate} : std::vector<const void*>{});
  }
  void launch_second(const float* intermediate, const float* residual, float* y, std::size_t n,
                     const std::string& what, bool checked = false) {
    void* arguments[] = {&intermediate, &residual, &y, &n};
    launch(kernels_.second, request_.second_shape, arguments, n, step(day48::grading::kSecondKernel, n, what),
           checked ? std::vector<const void*>{intermediate, residual, y} : std::vector<const void*>{});
  }

  // A keyed digest of every byte the child owns (owned_) but the allocations that hold one of the
  // `given` addresses, on the grading stream; the key is the child's own.
  unsigned long long digest_owned_except(const std::vector<const void*>& given) {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(tallies_.data() + kOwned, 0, sizeof(unsigned long long), stream_));
    const auto digest = [&](const unsigned char* begin, const unsigned char* end) {
      if (end > begin) {
        day48::grading::digest_words(begin, static_cast<std::size_t>(end - begin) / sizeof(std::uint32_t),
                                     digest_key_ ^ reinterpret_cast<std::uintptr_t>(begin),
                                     tallies_.data() + kOwned, stream_);
      }
    };
    for (const OwnedRegion& region : owned_) {
      const auto* begin = static_cast<const unsigned char*>(region.data);
      const auto* end = begin + region.bytes;
      const bool holds_given = std::any_of(given.begin(), given.end(), [&](const void* address) {
        const auto* at = static_cast<const unsigned char*>(address);
        return at >= begin && at < end;
      });
      if (!holds_given) {
        digest(begin, end);
      }
    }
    return download_tallies()[kOwned];
  }

  std::uint64_t next_seed() { return mix64(request_.seed ^ mix64(++calls_)); }

  day48::grading::OutputInspection inspect(std::size_t n, std::uint64_t seed_x, std::uint64_t seed_residual,
                                           bool compositions) {
    day48::grading::inspect_output(y_->data(), n, seed_x, seed_residual, kTolerance, kTolerance, compositions,
                                   output_counters_.data(), stream_);
    const auto counters = download_one(output_counters_.data(), stream_);
    day48::grading::OutputInspection o;
    o.elements = n;
    o.mismatches = counters.mismatches;
    o.unwritten = counters.unwritten;
    o.non_finite = counters.non_finite;
    o.trailing_unwritten = n - std::min<std::uint64_t>(n, counters.written_end);
    std::memcpy(&o.max_abs_error, &counters.max_abs_error_bits, sizeof o.max_abs_error);
    if (counters.first_bad < n) {
      o.first_bad_index = counters.first_bad;
      o.first_bad_got = download_one(y_->data() + counters.first_bad, stream_);
      o.first_bad_expected =
          day48::chain_element(day48::Composition::kCorrect, day48::input_x_at(seed_x, counters.first_bad),
                               day48::residual_at(seed_residual, counters.first_bad));
    }
    if (compositions) {
      for (const day48::Composition c : day48::kWrongCompositions) {
        o.compositions.push_back(
            {day48::composition_name(c), counters.composition_matches[static_cast<int>(c)]});
      }
    }
    return o;
  }

  std::vector<unsigned long long> download_tallies() {
    std::vector<unsigned long long> values(kTallies);
    LABRUN_CUDA_CHECK(cudaMemcpyAsync(values.data(), tallies_.data(), kTallies * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream_));
    LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return values;
  }

  unsigned long long staged_digest(std::size_t n) {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(tallies_.data() + kStaged, 0, sizeof(unsigned long long), stream_));
    for (const DeviceBuffer<float>* staged : {&t1_, &t2_, &t3_}) {
      day48::grading::digest_words(staged->data(), n,
                                   digest_key_ + reinterpret_cast<std::uintptr_t>(staged->data()),
                                   tallies_.data() + kStaged, stream_);
    }
    return download_tallies()[kStaged];
  }

  void run_probe(const std::string& label, std::size_t n, const std::string& probe) {
    day48::grading::ProbeResult result;
    result.size_label = label;
    result.probe = probe;
    result.elements = n;
    const std::uint64_t seed = next_seed();
    result.call = static_cast<int>(calls_);
    for (const GuardedBuffer* b : {&*x_, &*residual_, &*intermediate_, &*y_}) {
      b->poison(stream_);
    }
    phase_.set("preparing the inputs at n = " + std::to_string(n) + " (" + probe + ")");
    day48::grading::generate_inputs(x_->data(), residual_->data(), n, seed, seed, stream_);
    unsigned long long staged_before = 0;
    if (probe == "after-staged") {
      day48::launch_staged_chain(lab_, n, stream_);
      staged_before = staged_digest(n);
    } else {
      for (const DeviceBuffer<float>* staged : {&t1_, &t2_, &t3_}) {
        LABRUN_CUDA_CHECK(cudaMemsetAsync(staged->data(), 0xFF, n * sizeof(float), stream_));
      }
    }
    outside_writes_ = 0;
    launch_first(x_->data(), intermediate_->data(), n, probe, true);
    std::uint64_t seed_x = seed;
    std::uint64_t seed_replaced_x = 0;
    if (probe == "planted") {
      // The second kernel must compute y from the intermediate and the residual: x now holds other
      // inputs, and the intermediate stage 2's output of yet other inputs.
      seed_x = next_seed();
      seed_replaced_x = next_seed();
      day48::grading::generate_inputs(x_->data(), residual_->data(), n, seed_replaced_x, seed, stream_);
      day48::grading::plant_intermediate(intermediate_->data(), n, seed_x, stream_);
    } else {
      day48::grading::inspect_intermediate(intermediate_->data(), n, seed, kTolerance, kTolerance,
                                           intermediate_counters_.data(), stream_);
      const auto counters = download_one(intermediate_counters_.data(), stream_);
      result.intermediate = day48::grading::IntermediateInspection{counters.unwritten, counters.mismatches};
    }
    launch_second(intermediate_->data(), residual_->data(), y_->data(), n, probe, true);
    result.launches_writing_outside = outside_writes_;
    phase_.set("checking the output at n = " + std::to_string(n) + " (" + probe + ")");
    if (probe == "planted") {
      const day48::grading::OutputInspection from_x = inspect(n, seed_replaced_x, seed, false);
      result.matches_chain_of_x = n - from_x.mismatches;
    }
    result.output = inspect(n, seed_x, seed, true);
    LABRUN_CUDA_CHECK(cudaMemsetAsync(tallies_.data(), 0, kTallies * sizeof(unsigned long long), stream_));
    y_->count_guard_changes(n, tallies_.data() + kGuardY, stream_);
    intermediate_->count_guard_changes(n, tallies_.data() + kGuardIntermediate, stream_);
    x_->count_guard_changes(n, tallies_.data() + kGuardX, stream_);
    residual_->count_guard_changes(n, tallies_.data() + kGuardResidual, stream_);
    day48::grading::count_input_changes(x_->data(), residual_->data(), n,
                                        probe == "planted" ? seed_replaced_x : seed, seed,
                                        tallies_.data() + kInputs, stream_);
    const std::vector<unsigned long long> tallies = download_tallies();
    result.guards = {tallies[kGuardY], tallies[kGuardIntermediate], tallies[kGuardX],
                     tallies[kGuardResidual]};
    result.input_elements_changed = tallies[kInputs];
    const char* names[] = {"t1", "t2", "t3"};
    if (probe == "after-staged") {
      if (staged_digest(n) != staged_before) {
        result.staged_buffers_written.emplace_back("t1, t2 or t3");
      }
    } else {
      const DeviceBuffer<float>* staged[] = {&t1_, &t2_, &t3_};
      for (std::size_t b = 0; b < 3; ++b) {
        LABRUN_CUDA_CHECK(cudaMemsetAsync(tallies_.data() + kStaged, 0, sizeof(unsigned long long), stream_));
        day48::grading::count_words_not(staged[b]->data(), n, kPoisonWord, tallies_.data() + kStaged,
                                        stream_);
        if (download_tallies()[kStaged] > 0) {
          result.staged_buffers_written.emplace_back(names[b]);
        }
      }
    }
    results_.probes.push_back(result);
  }

  // Cold samples of every case on fresh inputs; each of the submission's samples is checked.
  void time_at(std::size_t n) {
    for (day48::grading::KernelInfo& info : results_.kernels) {
      const bool first = info.name == day48::grading::kFirstKernel;
      info.launch =
          (first ? first_plan_cache(n) : second_plan_cache(n)).describe() + " at n = " + std::to_string(n);
    }
    labrun::L2Flusher flusher(static_cast<std::size_t>(l2_bytes_), 2, sm_count_);
    owned_.push_back({flusher.data(), flusher.bytes()});  // read by the flush, written by nothing
    if (request_.wait_for_timing_turn) {
      wait_for_timing_turn();
    }
    phase_.set("timing at n = " + std::to_string(n));
    // The GPU is this child's alone now (in a batch): the phase as a whole, and each sample of the
    // pair (two launches, each at most the kernel time limit), end at their limits, so that a pair
    // that stalls gives the GPU back then.
    const std::string phase_step = "timing at n = " + std::to_string(n);
    const auto phase_end =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(request_.timing_limit_s));
    Watchdog watchdog([this](const std::string& what) { on_hang_(what); });
    watchdog.arm(request_.timing_limit_s, phase_step + " had not finished after " +
                                              std::to_string(static_cast<int>(request_.timing_limit_s)) +
                                              " s");
    const double sample_limit = 2.0 * request_.kernel_time_limit_s;
    day48::grading::TimingResult timing;
    timing.elements = n;
    timing.samples = request_.timing_samples;
    std::uint64_t sample_seed = 0;
    // The pair's four buffers, whose guards and contents the timed calls' own checks cover.
    const std::vector<const void*> pair_buffers{x_->data(), residual_->data(), intermediate_->data(),
                                                y_->data()};
    unsigned long long outside_before = 0;
    const auto fresh_inputs = [&] {
      sample_seed = next_seed();
      day48::grading::generate_inputs(x_->data(), residual_->data(), n, sample_seed, sample_seed, stream_);
      intermediate_->poison_elements(n, stream_);
      y_->poison_elements(n, stream_);
      outside_before = digest_owned_except(pair_buffers);
      const double left = std::chrono::duration<double>(phase_end - std::chrono::steady_clock::now()).count();
      if (left > sample_limit) {
        watchdog.arm(sample_limit, phase_step + ": one call of the pair had not finished after " +
                                       labrun::fixed(sample_limit, 1) + " s");
      } else {
        watchdog.arm(std::max(left, 0.0), phase_step + " had not finished after " +
                                              std::to_string(static_cast<int>(request_.timing_limit_s)) +
                                              " s");
      }
    };
    for (const GuardedBuffer* b : {&*intermediate_, &*y_}) {
      b->poison(stream_);
    }
    const auto pair = [&] { launch_pair_unchecked(n); };
    const auto check = [&] {
      if (digest_owned_except(pair_buffers) != outside_before) {
        ++timing.samples_writing_outside;
      }
      const day48::grading::OutputInspection o = inspect(n, sample_seed, sample_seed, false);
      if (!o.passed()) {
        ++timing.wrong_samples;
        if (!timing.first_wrong_sample) {
          timing.first_wrong_sample = o;
        }
      }
    };
    timing.pair_samples_ms = sample(pair, fresh_inputs, check, flusher);
    timing.pair_ms = labrun::median(timing.pair_samples_ms);
    watchdog.arm(
        std::max(std::chrono::duration<double>(phase_end - std::chrono::steady_clock::now()).count(), 0.0),
        phase_step + " had not finished after " + std::to_string(static_cast<int>(request_.timing_limit_s)) +
            " s");
    LABRUN_CUDA_CHECK(cudaMemsetAsync(tallies_.data(), 0, sizeof(unsigned long long), stream_));
    y_->count_guard_changes(n, tallies_.data(), stream_);
    intermediate_->count_guard_changes(n, tallies_.data(), stream_);
    timing.guard_words_changed = download_tallies()[0];
    if (request_.lab_times) {
      timing.lab = *request_.lab_times;
      timing.lab_times_shared = true;
    } else {
      timing.lab = time_lab(n, flusher);
    }
    results_.timing = timing;
    owned_.pop_back();  // the flusher goes with this scope
  }

  // The lab's kernels, timed the way the pair is: cold, each sample on fresh inputs.
  day48::grading::LabTimes time_lab(std::size_t n, labrun::L2Flusher& flusher) {
    phase_.set("timing the lab's kernels at n = " + std::to_string(n));
    const auto fresh_inputs = [&] {
      const std::uint64_t seed = next_seed();
      day48::grading::generate_inputs(lab_.x, lab_.residual, n, seed, seed, stream_);
    };
    const auto median_of = [&](const std::function<void()>& region) {
      return labrun::median(sample(region, fresh_inputs, nullptr, flusher));
    };
    day48::grading::LabTimes times;
    times.elements = n;
    times.staged_ms = median_of([&] { day48::launch_staged_chain(lab_, n, stream_); });
    times.fused_ms = median_of([&] { day48::launch_fused_chain(lab_, n, stream_); });
    times.lab_halfway_ms = median_of([&] { day48::launch_halfway_pair(lab_, n, stream_); });
    times.copy_floor_ms = median_of([&] { day48::launch_copy_floor(lab_.x, lab_.copy_out, n, stream_); });
    times.copy_vectorized_ms =
        median_of([&] { day48::launch_copy_vectorized(lab_.x, lab_.copy_out, n, stream_); });
    times.copy_memcpy_ms = median_of([&] { day48::launch_copy_memcpy(lab_.x, lab_.copy_out, n, stream_); });
    return times;
  }

  // Batch grading: tells labrun this child is ready to time, then waits until labrun says the GPU
  // is this child's alone (grading/gpu_turns.hpp).
  void wait_for_timing_turn() {
    phase_.set("waiting for a turn to time, with the GPU to itself");
    labrun::write_file_atomically("ready-to-time", "\n", true);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(request_.turn_wait_limit_s);
    std::error_code missing;
    while (!std::filesystem::exists("may-time", missing)) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("labrun gave no turn to time within " +
                                 std::to_string(static_cast<int>(request_.turn_wait_limit_s)) + " s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  // The pair inside a timed sample: launched back to back with no wait between them, as the
  // lesson's program does; a failure surfaces at the sample's end.
  void launch_pair_unchecked(std::size_t n) {
    const float* x = x_->data();
    float* intermediate = intermediate_->data();
    const float* residual = residual_->data();
    float* y = y_->data();
    void* first[] = {&x, &intermediate, &n};
    void* second[] = {&intermediate, &residual, &y, &n};
    const day48::grading::LaunchPlan first_plan = first_plan_cache(n);
    const day48::grading::LaunchPlan second_plan = second_plan_cache(n);
    LABRUN_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernels_.first), dim3(first_plan.blocks),
                                       dim3(first_plan.threads), first, 0, stream_));
    LABRUN_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernels_.second),
                                       dim3(second_plan.blocks), dim3(second_plan.threads), second, 0,
                                       stream_));
  }
  const day48::grading::LaunchPlan& first_plan_cache(std::size_t n) {
    if (!first_plan_) {
      first_plan_ = plan_for(kernels_.first, request_.first_shape, n);
    }
    return *first_plan_;
  }
  const day48::grading::LaunchPlan& second_plan_cache(std::size_t n) {
    if (!second_plan_) {
      second_plan_ = plan_for(kernels_.second, request_.second_shape, n);
    }
    return *second_plan_;
  }

  std::vector<double> sample(const std::function<void()>& region, const std::function<void()>& before,
                             const std::function<void()>& after, labrun::L2Flusher& flusher) {
    for (int w = 0; w < kTimingWarmups; ++w) {
      before();
      region();
    }
    LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    labrun::CaseSampler sampler(region, 1, labrun::TimingMode::kCold, &flusher, nullptr, nullptr, stream_);
    sampler.set_sample_hooks(before, after);
    sampler.take(request_.timing_samples);
    return sampler.samples_ms();
  }

  const ChildRequest& request_;
  ChildResults& results_;
  Phase& phase_;
  std::function<void(const std::string&)> on_hang_;
  Kernels kernels_;
  int sm_count_ = 0;
  int l2_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  std::uint64_t calls_ = 0;
  std::uint64_t digest_key_ = 0;
  std::optional<GuardedBuffer> x_, residual_, intermediate_, y_;
  DeviceBuffer<float> t1_, t2_, t3_, lab_y_, lab_halfway_, copy_out_;
  DeviceBuffer<day48::grading::OutputCounters> output_counters_;
  DeviceBuffer<day48::grading::IntermediateCounters> intermediate_counters_;
  DeviceBuffer<unsigned long long> tallies_;
  day48::ChainBuffers lab_;
  std::optional<day48::grading::LaunchPlan> first_plan_, second_plan_;
  std::vector<OwnedRegion> owned_;    // every allocation of the child's, for digest_owned_except
  std::uint64_t outside_writes_ = 0;  // checked launches that changed memory outside their output
};

// As nvidia-smi writes it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string gpu_uuid(const cudaUUID_t& uuid) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
    text += kHex[byte >> 4];
    text += kHex[byte & 0x0F];
    if (i == 3 || i == 5 || i == 7 || i == 9) {
      text += '-';
    }
  }
  return text;
}

void record_device(ChildResults& results) {
  int device = 0;
  LABRUN_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  LABRUN_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  results.device = properties.name;
  results.device_uuid = gpu_uuid(properties.uuid);
  int pageable = 0;
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  results.pageable_memory_access = pageable != 0;
}

int run(const ChildRequest& request) {
  ChildResults results;
  Phase phase(request.phase);
  const auto stop = [&](const std::string& kind, const std::string& message) {
    results.error_kind = kind;
    results.error = message;
    results.failed_step = phase.step();
    if (request.mode != "sanitize") {
      labrun::write_file_atomically(request.results, day48::grading::to_json(results).dump(2) + "\n", true);
    }
    std::cerr << "grade-child: " << message << "\n";
  };
  try {
    phase.set("starting CUDA");
    record_device(results);
    Grading grading(request, results, phase, [&](const std::string& message) {
      stop("hang", message);
      std::_Exit(3);  // the kernel still runs: only the end of the process stops it
    });
    if (request.mode == "lab-times") {
      grading.time_lab_only();
      return 0;
    }
    grading.load();
    if (request.mode == "sanitize") {
      grading.sanitize_run();
      return 0;
    }
    grading.grade();
    return 0;
  } catch (const SubmissionStopped& stopped) {
    stop(stopped.kind, stopped.message);
    return 3;
  } catch (const labrun::CudaError& error) {
    stop("cuda-error", error.error_name() + " (" + cudaGetErrorString(error.code()) + ")");
    return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--request") {
    std::cerr << "usage: labrun-day48-grade-child --request FILE\n";
    return 2;
  }
  ChildRequest request;
  try {
    request = day48::grading::request_from_json(
        nlohmann::ordered_json::parse(labrun::read_regular_file(argv[2], day48::grading::kRequestMaxBytes)));
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 2;
  }
  try {
    return run(request);
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 1;
  }
}
