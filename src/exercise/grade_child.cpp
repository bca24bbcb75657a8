// The grading child's runtime (child_session.hpp states what it does and why it is its own
// process); grade_child_main.cpp is the program.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "core/statistics.hpp"
#include "core/wall_clock.hpp"
#include "exercise/child_session.hpp"
#include "exercise/grade_worker.hpp"
#include "exercise/outside_watch.hpp"
#include "exercise/sanitizer_bounds.hpp"
#include "exercise/submission_kernels.hpp"
#include "exercise/worker_protocol.hpp"
#include "grading/device_image.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

constexpr int kTimingWarmups = 2;

std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The step in progress, kept in a file so that labrun can name what hung after killing us.
class Phase {
 public:
  explicit Phase(std::string path) : path_(std::move(path)) {}
  void set(const std::string& step) {
    step_ = step;
    write_file_whole_unsynced(path_, step + "\n");
  }
  [[nodiscard]] const std::string& step() const { return step_; }

 private:
  std::string path_;
  std::string step_;
};

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

// The limits a grading worker's context was opened with (open_worker_context); zero
// in a one-shot child, which opens none.
struct WorkerLimits {
  std::size_t stack_bytes = 0;
  std::size_t printf_fifo_bytes = 0;
  //! The last grading set the stack size back before it gave its timing turn back: the worker's
  //! check after it need not again (nothing has run since).
  bool stack_set_back = false;
};
WorkerLimits& opened_limits() {
  static WorkerLimits limits;
  return limits;
}

// How the child's thread waits for the GPU in a batch: blocked on the driver's event, except while
// it holds the timing turn, where it spins. A batch's workers share the host with each other, the
// compilers and the sanitizer runs, and a spinning wait takes a core from them for as long as the
// GPU works; in the timing turn the GPU is this child's alone, and a blocked wait's wake-up after
// every call would be time the turn holds. Only the host's wait changes: nothing the GPU runs, and
// nothing it times (CUDA events), differs. A switch that fails changes only speed, and is cleared.
void wait_for_the_gpu_spinning(bool spin) {
  if (cudaSetDeviceFlags(spin ? cudaDeviceScheduleSpin : cudaDeviceScheduleBlockingSync) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
  }
}

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

// The seconds left until `end`, never negative.
double seconds_until(std::chrono::steady_clock::time_point end) {
  return std::max(std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count(), 0.0);
}

// Batch grading, between checked calls (nothing of this child's runs on the GPU): where labrun asks
// (the file "yield": timers wait for the shared turns to end), says so ("yielded") and waits for
// "resume", which labrun creates once it holds a shared turn again (exercise/worker_pool.hpp's
// CheckTurn).
void give_way_if_asked(const ChildRequest& request, cudaStream_t stream) {
  std::error_code missing;
  if (!request.wait_for_timing_turn || !std::filesystem::exists(kYieldFile, missing)) {
    return;
  }
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::filesystem::remove(kYieldFile, missing);
  write_file_whole_unsynced(kYieldedFile, "\n");
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(request.turn_wait_limit_s);
  while (!std::filesystem::exists(kResumeFile, missing)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("labrun gave no turn back within " +
                               std::to_string(static_cast<int>(request.turn_wait_limit_s)) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::filesystem::remove(kResumeFile, missing);
}

}  // namespace

GuardedBuffer::GuardedBuffer(std::size_t capacity, std::size_t slots, std::size_t guard,
                             std::size_t element_bytes)
    : element_bytes_(element_bytes),
      guard_bytes_(guard * sizeof(float)),
      size_bytes_(guard_bytes_ + (capacity * element_bytes + kSlotBytes - 1) / kSlotBytes * kSlotBytes +
                  (std::max<std::size_t>(slots, 1) - 1) * kSlotBytes + guard_bytes_),
      storage_(size_bytes_) {}

void GuardedBuffer::poison(cudaStream_t stream) const {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(storage_.data(), 0xFF, size_bytes_, stream));
}

void GuardedBuffer::poison_elements(std::size_t n, cudaStream_t stream, std::size_t slot) const {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(bytes(slot), 0xFF, n * element_bytes_, stream));
}

void GuardedBuffer::count_guard_changes(std::size_t n, unsigned long long* count, cudaStream_t stream,
                                        std::size_t slot) const {
  const std::size_t before = guard_bytes_ + slot * kSlotBytes;
  const std::size_t after = before + n * element_bytes_;
  // Every offset is a multiple of the element's width: the guards and places are whole 256 bytes.
  count_elements_not(storage_.data(), before / element_bytes_, element_bytes_, count, stream);
  count_elements_not(storage_.data() + after, (size_bytes_ - after) / element_bytes_, element_bytes_, count,
                     stream);
}

ChildSession::ChildSession(const Exercise& exercise, const ChildRequest& request, ChildResults& results,
                           std::function<void(const std::string&)> phase,
                           std::function<void(const std::string&)> on_hang)
    : exercise_(exercise),
      request_(request),
      results_(results),
      phase_(std::move(phase)),
      on_hang_(std::move(on_hang)),
      timed_plans_(exercise.kernels.size()) {
  int device = 0;
  LABRUN_CUDA_CHECK(cudaGetDevice(&device));
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes_, cudaDevAttrL2CacheSize, device));
  LABRUN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  std::random_device entropy;
  digest_key_ = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

ChildSession::~ChildSession() {
  // In a grading worker the context outlives this grading: every byte the child handed out is
  // cleared before it is freed, and the submission's module is unloaded (its global variables and
  // code go with it), so nothing of this submission is there for the next one.
  for (const OwnedRegion& region : owned_regions_) {
    // The child's own allocation, seen as read-only where it is digested.
    LABRUN_CUDA_NOTHROW(cudaMemsetAsync(const_cast<void*>(region.data), 0, region.bytes, stream_));
  }
  LABRUN_CUDA_NOTHROW(cudaStreamSynchronize(stream_));
  child_.reset();
  if (library_ != nullptr) {
    LABRUN_CUDA_NOTHROW(cudaLibraryUnload(library_));
  }
  LABRUN_CUDA_NOTHROW(cudaStreamDestroy(stream_));
}

std::uint64_t ChildSession::next_seed() {
  return mix64(request_.seed ^ mix64(++calls_));
}

std::size_t ChildSession::slot_of(std::uint64_t seed) {
  return static_cast<std::size_t>(mix64(seed ^ 0x510751075107ull) % kSlots);
}

std::uint64_t ChildSession::lab_case_seed_of(std::uint64_t seed) {
  return mix64(seed ^ 0x1abca5e1abca5e1aull);
}

GuardedBuffer& ChildSession::guarded(std::size_t capacity, std::size_t slots, std::size_t element_bytes) {
  guarded_.push_back(std::make_unique<GuardedBuffer>(capacity, slots, kGuardFloats, element_bytes));
  owned_regions_.push_back(guarded_.back()->region());
  return *guarded_.back();
}

void* ChildSession::owned(std::size_t bytes) {
  plain_.emplace_back(bytes);
  owned_regions_.push_back({plain_.back().data(), bytes});
  return plain_.back().data();
}

void* ChildSession::answer(std::size_t bytes) {
  void* data = owned(bytes);
  answer_regions_.push_back({data, bytes});
  return data;
}

void ChildSession::erase_answers() {
  for (const OwnedRegion& region : answer_regions_) {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(const_cast<void*>(region.data), 0, region.bytes, stream_));
  }
}

void ChildSession::release(const void* data) {
  const auto plain = std::find_if(plain_.begin(), plain_.end(),
                                  [data](const DeviceBuffer<unsigned char>& b) { return b.data() == data; });
  const auto region = std::find_if(owned_regions_.begin(), owned_regions_.end(),
                                   [data](const OwnedRegion& r) { return r.data == data; });
  if (plain == plain_.end() || region == owned_regions_.end()) {
    throw std::logic_error("released memory the child's owned() did not give");
  }
  LABRUN_CUDA_CHECK(cudaMemsetAsync(plain->data(), 0, plain->bytes(), stream_));
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  owned_regions_.erase(region);
  answer_regions_.erase(std::remove_if(answer_regions_.begin(), answer_regions_.end(),
                                       [data](const OwnedRegion& r) { return r.data == data; }),
                        answer_regions_.end());
  plain_.erase(plain);
}

unsigned long long* ChildSession::tally(std::size_t index) const {
  return tallies_.data() + index;
}

void ChildSession::reset_tallies() {
  LABRUN_CUDA_CHECK(cudaMemsetAsync(tallies_.data(), 0, kTallies * sizeof(unsigned long long), stream_));
}

std::vector<unsigned long long> ChildSession::download_tallies() {
  std::vector<unsigned long long> values(kTallies);
  download(values.data(), tallies_.data(), kTallies * sizeof(unsigned long long));
  return values;
}

void ChildSession::download(void* host, const void* device, std::size_t bytes) {
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_));
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

LaunchPlan ChildSession::plan(std::size_t kernel, std::uint64_t n) {
  return plan_kernel_launch(kernels_.at(kernel), exercise_.kernels.at(kernel), request_.shapes.at(kernel), n,
                            sm_count_, exercise_.image_at(n));
}

const LaunchPlan& ChildSession::timed_plan(std::size_t kernel, std::uint64_t n) {
  std::optional<LaunchPlan>& cached = timed_plans_.at(kernel);
  if (!cached) {
    cached = plan(kernel, n);
  }
  return *cached;
}

void ChildSession::launch(std::size_t kernel, void** arguments, std::uint64_t n, const std::string& what,
                          std::optional<std::vector<OwnedRegion>> given) {
  const std::string where =
      exercise_.kernels.at(kernel).name + " at n = " + std::to_string(n) + " (" + what + ")";
  phase(where);
  const LaunchPlan grid = plan(kernel, n);
  if (!grid.problem.empty()) {
    throw SubmissionStopped{"launch-shape", where + ": " + grid.problem};
  }
  erase_answers();
  if (kernel == 0) {
    restore_globals();
  }
  const unsigned long long before = given ? digest_owned_except(*given) : 0;
  const cudaError_t launched =
      cudaLaunchKernel(reinterpret_cast<const void*>(kernels_.at(kernel)), dim3(grid.blocks, grid.blocks_y),
                       dim3(grid.threads, grid.threads_y), arguments, 0, stream_);
  if (launched != cudaSuccess) {
    throw CudaError(launched, "launch of " + where, __FILE__, __LINE__);
  }
  wait_or_hang(where, request_.kernel_time_limit_s);
  if (given && digest_owned_except(*given) != before) {
    ++outside_writes_;
  }
}

void ChildSession::wait_or_hang(const std::string& where, double limit_seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_seconds);
  while (true) {
    const cudaError_t state = cudaStreamQuery(stream_);
    if (state == cudaSuccess) {
      return;
    }
    if (state != cudaErrorNotReady) {
      throw CudaError(state, where, __FILE__, __LINE__);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      // No unwinding: freeing a buffer would wait for the kernel that never ends.
      on_hang_(where + " had not finished after " + std::to_string(static_cast<int>(limit_seconds)) + " s");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void ChildSession::launch_timed(std::size_t kernel, void** arguments, std::uint64_t n) {
  const LaunchPlan& grid = timed_plan(kernel, n);
  LABRUN_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernels_.at(kernel)),
                                     dim3(grid.blocks, grid.blocks_y), dim3(grid.threads, grid.threads_y),
                                     arguments, 0, stream_));
}

void ChildSession::add_digest_owned_except(const std::vector<OwnedRegion>& allowed,
                                           unsigned long long* digest) {
  const auto add = [&](const unsigned char* begin, const unsigned char* end) {
    if (end > begin) {
      digest_words(begin, static_cast<std::size_t>(end - begin) / sizeof(std::uint32_t),
                   digest_key_ ^ reinterpret_cast<std::uintptr_t>(begin), digest, stream_);
    }
  };
  for (const OwnedRegion& region : owned_regions_) {
    const auto* begin = static_cast<const unsigned char*>(region.data);
    const auto* end = begin + region.bytes;
    const bool holds_given = std::any_of(allowed.begin(), allowed.end(), [&](const OwnedRegion& a) {
      const auto* at = static_cast<const unsigned char*>(a.data);
      return at >= begin && at < end;
    });
    if (!holds_given) {
      add(begin, end);
    }
  }
}

void ChildSession::add_digest_of(const std::vector<OwnedRegion>& regions, unsigned long long* digest) {
  for (const OwnedRegion& region : regions) {
    digest_words(region.data, region.bytes / sizeof(std::uint32_t),
                 digest_key_ + reinterpret_cast<std::uintptr_t>(region.data), digest, stream_);
  }
}

unsigned long long ChildSession::digest_owned_except(const std::vector<OwnedRegion>& allowed) {
  unsigned long long* digest = tallies_.data() + kTallies;
  LABRUN_CUDA_CHECK(cudaMemsetAsync(digest, 0, sizeof(unsigned long long), stream_));
  add_digest_owned_except(allowed, digest);
  return download_one(digest);
}

unsigned long long ChildSession::digest_of(const std::vector<OwnedRegion>& regions) {
  unsigned long long* digest = tallies_.data() + kTallies;
  LABRUN_CUDA_CHECK(cudaMemsetAsync(digest, 0, sizeof(unsigned long long), stream_));
  add_digest_of(regions, digest);
  return download_one(digest);
}

// The three sums in one buffer, read back with one wait: the rest (every owned allocation but those
// holding `rest_excludes`), the untouched allocations (none: 0) and the inputs.
ChildSession::CallDigests ChildSession::digest_call(const std::vector<OwnedRegion>& rest_excludes,
                                                    const std::vector<OwnedRegion>& untouched,
                                                    const std::vector<OwnedRegion>& inputs) {
  unsigned long long* sums = call_digests_.data();
  LABRUN_CUDA_CHECK(cudaMemsetAsync(sums, 0, 3 * sizeof(unsigned long long), stream_));
  add_digest_owned_except(rest_excludes, sums);
  add_digest_of(untouched, sums + 1);
  add_digest_of(inputs, sums + 2);
  unsigned long long values[3] = {0, 0, 0};
  download(values, sums, sizeof values);
  return {values[0], values[1], values[2]};
}

void ChildSession::require_untouched_outside(const std::vector<OwnedRegion>& untouched,
                                             const std::vector<OwnedRegion>& call_allocations) const {
  const auto same = [](const OwnedRegion& a, const OwnedRegion& b) {
    return a.data == b.data && a.bytes == b.bytes;
  };
  for (const OwnedRegion& region : untouched) {
    const auto is_region = [&](const OwnedRegion& r) { return same(r, region); };
    if (std::none_of(owned_regions_.begin(), owned_regions_.end(), is_region) ||
        std::any_of(call_allocations.begin(), call_allocations.end(), is_region)) {
      throw std::logic_error(
          "memory untouched between calls must be a whole allocation of the child's, "
          "outside the call's buffers");
    }
  }
}

namespace {

// Where a variable's copy starts in the copy of the globals at load: its own place, 8-aligned, plus
// the variable's address modulo 8, so that the variable and its copy are aligned alike and their
// whole 4-byte words line up.
std::size_t copy_offset(std::size_t place, const void* variable) {
  return place + reinterpret_cast<std::uintptr_t>(variable) % 8;
}

std::size_t copy_place_bytes(std::size_t bytes) {
  return (bytes + 8 + 7) / 8 * 8;
}

}  // namespace

void ChildSession::keep_globals_at_load() {
  std::uint64_t total = 0;
  std::size_t places = 0;
  for (const ImageGlobal& global : request_.image_globals) {
    void* address = nullptr;
    std::size_t bytes = 0;
    // A __managed__ variable is not a plain global to the runtime; its memory is the device's too.
    if ((cudaLibraryGetGlobal(&address, &bytes, library_, global.name.c_str()) != cudaSuccess &&
         cudaLibraryGetManaged(&address, &bytes, library_, global.name.c_str()) != cudaSuccess) ||
        address == nullptr || bytes == 0 || total + bytes > kStaticDeviceMemoryMaxBytes) {
      static_cast<void>(cudaGetLastError());
      continue;  // a name the runtime does not know: nothing to keep there
    }
    own_memory_.push_back({address, bytes});
    total += bytes;
    places += copy_place_bytes(bytes);
  }
  if (places == 0) {
    return;
  }
  globals_at_load_ = owned_array<unsigned char>(places);
  std::size_t place = 0;
  for (const OwnedRegion& region : own_memory_) {
    LABRUN_CUDA_CHECK(cudaMemcpyAsync(globals_at_load_ + copy_offset(place, region.data), region.data,
                                      region.bytes, cudaMemcpyDeviceToDevice, stream_));
    place += copy_place_bytes(region.bytes);
  }
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void ChildSession::restore_globals() {
  std::size_t place = 0;
  for (const OwnedRegion& region : own_memory_) {
    LABRUN_CUDA_CHECK(cudaMemcpyAsync(const_cast<void*>(region.data),
                                      globals_at_load_ + copy_offset(place, region.data), region.bytes,
                                      cudaMemcpyDeviceToDevice, stream_));
    place += copy_place_bytes(region.bytes);
  }
}

std::uint64_t ChildSession::own_words_changed() {
  unsigned long long* changed = tallies_.data() + kTallies;
  LABRUN_CUDA_CHECK(cudaMemsetAsync(changed, 0, sizeof(unsigned long long), stream_));
  std::size_t place = 0;
  for (const OwnedRegion& region : own_memory_) {
    // The variable's whole, aligned 4-byte words (a byte before the first or after the last is
    // not compared), against the same words of its copy.
    const std::size_t skip = (4 - reinterpret_cast<std::uintptr_t>(region.data) % 4) % 4;
    if (region.bytes >= skip + sizeof(std::uint32_t)) {
      count_words_differing(static_cast<const unsigned char*>(region.data) + skip,
                            globals_at_load_ + copy_offset(place, region.data) + skip,
                            (region.bytes - skip) / sizeof(std::uint32_t), changed, stream_);
    }
    place += copy_place_bytes(region.bytes);
  }
  return download_one(changed);
}

void ChildSession::load() {
  phase("loading the compiled submission");
  // The device-side heap (malloc in a kernel) has a fixed, small size, set before any module loads
  // (a grading worker set it when it opened its context, and is never reused after an image that
  // calls malloc: exercise/worker_pool.hpp).
  std::size_t heap_bytes = 0;
  LABRUN_CUDA_CHECK(cudaDeviceGetLimit(&heap_bytes, cudaLimitMallocHeapSize));
  if (heap_bytes != kDeviceHeapBytes) {
    LABRUN_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, kDeviceHeapBytes));
  }
  LoadedKernels loaded =
      load_submission_kernels(read_regular_file(request_.image, kDeviceImageMaxBytes), exercise_.kernels);
  results_.kernels = std::move(loaded.kernels);
  results_.kernels_found = std::move(loaded.kernels_found);
  library_ = loaded.library;
  kernels_ = std::move(loaded.handles);
  if (!loaded.problem_kind.empty()) {
    throw SubmissionStopped{loaded.problem_kind, loaded.problem};
  }
  // The driver reserves a kernel's local memory for every thread the GPU can hold: bounded per
  // thread, so that no submission takes the memory of those graded beside it.
  for (const KernelInfo& kernel : results_.kernels) {
    if (kernel.local_bytes > kLocalBytesPerThreadMax) {
      throw SubmissionStopped{"local-memory-too-large",
                              kernel.name + " uses " + std::to_string(kernel.local_bytes) +
                                  " bytes of local memory per thread, more than the " +
                                  std::to_string(kLocalBytesPerThreadMax) + " a submission may"};
    }
  }
  keep_globals_at_load();
}

// The exercise's buffers, the counters; a GPU without the memory for them stops the child with
// "grader-out-of-memory" (not the submission's doing: labrun grades it again).
void ChildSession::allocate(std::size_t capacity, bool with_lab_buffers) {
  try {
    tallies_ = DeviceBuffer<unsigned long long>(kTallies + 1);  // the last is digest_owned_except's
    call_digests_ = DeviceBuffer<unsigned long long>(3);
    child_ = exercise_.child(*this);
    child_->allocate(capacity, with_lab_buffers);
  } catch (const CudaError& error) {
    if (error.code() != cudaErrorMemoryAllocation) {
      throw;
    }
    static_cast<void>(cudaGetLastError());
    throw SubmissionStopped{
        "grader-out-of-memory",
        "the child's buffers for n = " + std::to_string(capacity) + " did not fit in the GPU's free memory"};
  }
}

void ChildSession::write() const {
  write_file_atomically(request_.results, to_json(results_).dump(2) + "\n", true);
}

// What compute-sanitizer watches (mode "sanitize"). First unguarded runs, at the small odd size and
// at the graded odd size, each in buffers of exactly n elements: any access outside [0, n) leaves
// its allocation. Then, where the grading times calls, a replica of a timed call, so that no
// submission can behave one way where the sanitizer watches and another where it is timed by the
// size or the layout of its buffers: the call's buffers as a grading allocates them (of the same
// capacity, with their guards and the output's slots, before any of the lab's, which it leaves
// out), the call prepared as a timed call is (fresh inputs, outputs poisoned, the global variables
// as loaded, the L2 flushed) and launched as one is (back to back, no wait between the kernels),
// at sanitize_timed_elements (the timed calls' size, or a smaller power of two: grader.cpp). While
// the replica's kernels run, memcheck lets them touch only the ranges the call gives them
// (ExerciseChild::call_ranges; sanitizer_bounds.hpp), so an access past n is found there as in the
// exact-size runs, though the allocation goes on past it.
void ChildSession::sanitize_runs() {
  tallies_ = DeviceBuffer<unsigned long long>(kTallies + 1);
  child_ = exercise_.child(*this);
  for (const std::uint64_t n : {request_.sanitize_elements, request_.odd_elements}) {
    child_->sanitize(static_cast<std::size_t>(n), request_.seed);
  }
  const auto n = static_cast<std::size_t>(request_.sanitize_timed_elements);
  if (n == 0) {
    return;
  }
  child_.reset();
  allocate(static_cast<std::size_t>(std::max(request_.odd_elements, request_.card_elements)), false);
  make_flusher();
  const std::string where = "a replica of a timed call at n = " + std::to_string(n);
  phase(where);
  prepare_timed_call(n, next_seed());
  flusher_->flush(stream_);
  // The bounds apply to every kernel that runs while they stand: the child's own work on these
  // allocations (the poison, the inputs, the flush) ends first.
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  const SanitizerBounds bounds(owned_regions_, child_->call_ranges(n));
  child_->launch_call(n);
  // A timed call's own limit (one kernel time limit a launch), though a sanitizer slows every kernel
  // down: a longer one would be as long a shared turn that every timer's drain waits for, which a
  // kernel that spins only under the sanitizer would get too (docs/grading.md, "What is left").
  wait_or_hang(where, static_cast<double>(exercise_.kernels.size()) * request_.kernel_time_limit_s);
}

void ChildSession::make_flusher() {
  constexpr int kL2Multiple = 2;  // the flush reads 2 x L2
  flusher_ = std::make_unique<L2Flusher>(static_cast<std::size_t>(l2_bytes_), kL2Multiple, sm_count_);
}

void ChildSession::prepare_timed_call(std::size_t n, std::uint64_t seed) {
  child_->fresh_call(n, seed);
  erase_answers();    // the last call's reference, computed in its check
  restore_globals();  // what the last call left in the submission's globals
}

void ChildSession::grade() {
  if (request_.wait_for_timing_turn) {
    wait_for_the_gpu_spinning(false);  // in a batch: blocked until the timing turn, whatever came before
  }
  allocate(static_cast<std::size_t>(std::max(request_.odd_elements, request_.card_elements)));
  write();
  const std::pair<const char*, std::uint64_t> sizes[] = {{"odd", request_.odd_elements},
                                                         {"card-scaled", request_.card_elements}};
  for (const auto& [label, n] : sizes) {
    if (n == 0) {
      continue;
    }
    for (const std::string& probe : exercise_.probes) {
      give_way_if_asked(request_, stream_);
      results_.probes.push_back(child_->probe(label, static_cast<std::size_t>(n), probe));
      write();
    }
  }
  if (request_.card_elements > 0) {
    time_at(static_cast<std::size_t>(request_.card_elements));
    if (request_.wait_for_timing_turn) {
      give_timing_turn_back();
    }
  }
  results_.completed = true;
  phase("finished");
  write();
}

// The lab's kernels alone, timed at the large size, for a batch to share (mode lab-times).
void ChildSession::time_lab_only() {
  const std::size_t n = static_cast<std::size_t>(request_.card_elements);
  allocate(n);
  make_flusher();
  TimingResult timing;
  timing.elements = n;
  timing.samples = request_.timing_samples;
  timing.lab = time_lab(n);
  results_.timing = timing;
  results_.completed = true;
  phase("finished");
  write();
}

// Cold samples of every case on fresh inputs; each of the submission's samples is checked.
void ChildSession::time_at(std::size_t n) {
  for (std::size_t k = 0; k < results_.kernels.size(); ++k) {
    results_.kernels[k].launch = timed_plan(k, n).describe() + " at n = " + std::to_string(n);
  }
  if (request_.lab_times) {
    // The lab's times come from the batch, and the probes are done: what only they used is freed
    // here, while the GPU is shared, so the timed calls have less beside them to watch.
    phase("freeing the lab's buffers");
    child_->release_lab_buffers();
  }
  make_flusher();
  own({flusher_->data(), flusher_->bytes()});  // read by the flush, written by nothing
  if (request_.wait_for_timing_turn) {
    wait_for_timing_turn();
  }
  // The GPU is this child's alone now (in a batch): the phase as a whole, and each timed call (one
  // launch per kernel, each at most the kernel time limit), end at their limits, so that a
  // submission that stalls gives the GPU back then.
  const std::string phase_step = "timing at n = " + std::to_string(n);
  phase(phase_step);
  const auto phase_end =
      std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(request_.timing_limit_s));
  const std::string phase_over = phase_step + " had not finished after " +
                                 std::to_string(static_cast<int>(request_.timing_limit_s)) + " s";
  Watchdog watchdog([this](const std::string& what) { on_hang_(what); });
  watchdog.arm(request_.timing_limit_s, phase_over);
  const double call_limit = static_cast<double>(exercise_.kernels.size()) * request_.kernel_time_limit_s;
  TimingResult timing;
  timing.elements = n;
  timing.samples = request_.timing_samples;
  std::uint64_t call_seed = 0;
  // Every call is held to its contract, as the checked ones are: nothing the child owns but the
  // call's buffers changes, its inputs and the guards around its outputs do not change, its output
  // is right, and each kernel leaves what it must (an intermediate, partial results). The digests
  // are taken after the call's inputs are made (the child's own checks write memory it owns).
  // Outside the call's buffers, what nothing of the child's writes between calls (the exercise's
  // word for its allocations; the flush buffer, which the flush only reads) is digested after each
  // call and before the first only: one call's "after" is the next call's "before" there, since
  // only that call could change it in between (outside_watch.hpp). The rest is digested around
  // every call, as the inputs are.
  const CallBuffers buffers = child_->call_buffers(n);
  std::vector<OwnedRegion> call_allocations = buffers.inputs;
  call_allocations.insert(call_allocations.end(), buffers.outputs.begin(), buffers.outputs.end());
  std::vector<OwnedRegion> untouched = buffers.untouched_between_calls;
  untouched.push_back({flusher_->data(), flusher_->bytes()});
  require_untouched_outside(untouched, call_allocations);
  std::vector<OwnedRegion> rest_excludes = call_allocations;
  rest_excludes.insert(rest_excludes.end(), untouched.begin(), untouched.end());
  const std::vector<OwnedRegion> none;
  OutsideWatch outside;
  unsigned long long inputs_before = 0;
  // Host seconds of each part (TurnSpent): each part ends with a read-back, a wait for the GPU.
  const auto fresh_call = [&] {
    const auto began = std::chrono::steady_clock::now();
    call_seed = next_seed();
    prepare_timed_call(n, call_seed);
    const bool with_untouched = outside.needs_untouched_before();
    const CallDigests before = digest_call(rest_excludes, with_untouched ? untouched : none, buffers.inputs);
    outside.before_call(before.rest,
                        with_untouched ? std::optional<std::uint64_t>(before.untouched) : std::nullopt);
    inputs_before = before.inputs;
    const double left = seconds_until(phase_end);
    if (left > call_limit) {
      watchdog.arm(call_limit, phase_step + ": one call of the " + exercise_.wording.submission_noun +
                                   " had not finished after " + fixed(call_limit, 1) + " s");
    } else {
      watchdog.arm(left, phase_over);
    }
    turn_preparing_seconds_ += seconds_since(began);
  };
  const auto call = [&] { child_->launch_call(n); };
  const auto check = [&] {
    const auto began = std::chrono::steady_clock::now();
    const CallDigests after = digest_call(rest_excludes, untouched, buffers.inputs);
    if (outside.changed_by_call(after.rest, after.untouched)) {
      ++timing.samples_writing_outside;
    }
    if (after.inputs != inputs_before) {
      ++timing.samples_changing_inputs;
    }
    timing.guard_words_changed += child_->output_guard_changes(n);
    ++timing.calls_checked;
    CallCheck checked = child_->check_call(n, call_seed);
    if (!checked.output_right) {
      ++timing.wrong_samples;
      if (!timing.first_wrong_sample) {
        timing.first_wrong_sample = checked.record;
      }
    }
    if (!checked.structure_right) {
      ++timing.samples_breaking_structure;
      if (!timing.first_broken_sample) {
        timing.first_broken_sample = checked.record;
      }
    }
    turn_checking_seconds_ += seconds_since(began);
  };
  timing.pair_samples_ms = sample(call, fresh_call, check);
  timing.pair_ms = median(timing.pair_samples_ms);
  watchdog.arm(seconds_until(phase_end), phase_over);
  if (request_.lab_times) {
    timing.lab = *request_.lab_times;
    timing.lab_times_shared = true;
  } else {
    timing.lab = time_lab(n);
  }
  results_.timing = timing;
  forget_last_owned();  // the flusher goes with this phase
}

// The lab's kernels, timed the way the submission is: cold, each sample on fresh inputs.
LabTimes ChildSession::time_lab(std::size_t n) {
  phase("timing the lab's kernels at n = " + std::to_string(n));
  const auto fresh_inputs = [&] { child_->fresh_lab_inputs(n, next_seed()); };
  LabTimes times;
  times.elements = n;
  for (std::size_t c = 0; c < exercise_.lab_cases.size(); ++c) {
    times.medians.emplace_back(exercise_.lab_cases[c].key,
                               median(sample([&] { child_->launch_lab_case(c, n); }, fresh_inputs, nullptr)));
  }
  // The card's memory for each kind of traffic, by the harness's own streams (device_checks.hpp):
  // no submission runs after this, so their buffers need no watching.
  phase("timing the card's memory at n = " + std::to_string(n));
  allocate_streams(n);
  const auto nothing = [] {};
  times.medians.emplace_back(
      kReadStreamKey,
      median(sample([&] { read_stream(stream_source_.data(), n, stream_target_.data(), sm_count_, stream_); },
                    nothing, nullptr)));
  times.medians.emplace_back(
      kCopyStreamKey,
      median(sample([&] { copy_stream(stream_source_.data(), stream_target_.data(), n, sm_count_, stream_); },
                    nothing, nullptr)));
  return times;
}

// The streams' two buffers of n floats, zeros (finite: the read stream's sum is never its sentinel).
void ChildSession::allocate_streams(std::size_t n) {
  stream_source_ = DeviceBuffer<float>(n);
  stream_target_ = DeviceBuffer<float>(n);
  LABRUN_CUDA_CHECK(cudaMemsetAsync(stream_source_.data(), 0, n * sizeof(float), stream_));
}

// Batch grading: tells labrun this child is ready to time, then waits until labrun says the GPU
// is this child's alone (grading/gpu_turns.hpp). Polled every 0.2 ms: the GPU idles meanwhile.
void ChildSession::wait_for_timing_turn() {
  phase("waiting for a turn to time, with the GPU to itself");
  write_file_whole_unsynced(kReadyToTimeFile, "\n");
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(request_.turn_wait_limit_s);
  std::error_code missing;
  while (!std::filesystem::exists(kMayTimeFile, missing)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("labrun gave no turn to time within " +
                               std::to_string(static_cast<int>(request_.turn_wait_limit_s)) + " s");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  turn_given_ = std::chrono::steady_clock::now();
  wait_for_the_gpu_spinning(true);
  turn_preparing_seconds_ = 0.0;
  turn_checking_seconds_ = 0.0;
}

// Batch grading, once the timing is over: leaves nothing of this grading on the GPU, then says so
// ("timed", exercise/worker_protocol.hpp), so that labrun can give the GPU to the next timer while
// this child writes its results and its worker checks its context, work that needs no GPU to
// itself. What the destructor would do later is done here: every byte the child allocated cleared,
// then freed; the submission's module unloaded, so that none of its code can run again; in a
// worker, the stack size set back (which frees local memory the submission's kernels grew); the
// context synchronised. Where any of that fails, nothing is said: labrun then keeps the turn until
// the grading is over, as it did before, and the worker's own check finds the error.
void ChildSession::give_timing_turn_back() {
  const double sampling_seconds = seconds_since(turn_given_);
  const auto clearing_began = std::chrono::steady_clock::now();
  bool clean = true;
  const auto call = [&clean](cudaError_t error) { clean = clean && error == cudaSuccess; };
  for (const OwnedRegion& region : owned_regions_) {
    // The child's own allocation, seen as read-only where it is digested.
    call(cudaMemsetAsync(const_cast<void*>(region.data), 0, region.bytes, stream_));
  }
  call(cudaStreamSynchronize(stream_));
  if (!clean) {
    return;  // the destructor tries again; the turn ends with the grading
  }
  const double clearing_seconds = seconds_since(clearing_began);
  const auto freeing_began = std::chrono::steady_clock::now();
  owned_regions_.clear();
  own_memory_.clear();
  child_.reset();
  guarded_.clear();
  plain_.clear();
  tallies_ = DeviceBuffer<unsigned long long>();
  call_digests_ = DeviceBuffer<unsigned long long>();
  globals_at_load_ = nullptr;
  stream_source_ = DeviceBuffer<float>();
  stream_target_ = DeviceBuffer<float>();
  flusher_.reset();
  if (library_ != nullptr) {
    call(cudaLibraryUnload(library_));
    library_ = nullptr;
    kernels_.clear();
  }
  if (opened_limits().stack_bytes != 0) {
    call(cudaDeviceSetLimit(cudaLimitStackSize, opened_limits().stack_bytes));
    opened_limits().stack_set_back = clean;
  }
  call(cudaDeviceSynchronize());
  if (!clean) {
    return;
  }
  say_timed(".", TurnSpent{sampling_seconds, turn_preparing_seconds_, turn_checking_seconds_,
                           clearing_seconds, seconds_since(freeing_began)});
  wait_for_the_gpu_spinning(false);
}

std::vector<double> ChildSession::sample(const std::function<void()>& region,
                                         const std::function<void()>& before,
                                         const std::function<void()>& after) {
  // The warm-up calls are calls like any other: checked where the timed ones are.
  for (int w = 0; w < kTimingWarmups; ++w) {
    before();
    region();
    if (after) {
      after();
    }
  }
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  CaseSampler sampler(region, 1, TimingMode::kCold, flusher_.get(), nullptr, nullptr, stream_);
  sampler.set_sample_hooks(before, after);
  sampler.take(request_.timing_samples);
  return sampler.samples_ms();
}

namespace {

std::string cuda_problem(const char* what, cudaError_t error) {
  return std::string(what) + ": " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")";
}

}  // namespace

std::string open_worker_context() {
  wait_for_the_gpu_spinning(false);  // before the context exists: its flags from the start
  if (const cudaError_t error = cudaFree(nullptr); error != cudaSuccess) {
    return cuda_problem("creating the context", error);
  }
  if (const cudaError_t error = cudaDeviceSetLimit(cudaLimitMallocHeapSize, kDeviceHeapBytes);
      error != cudaSuccess) {
    return cuda_problem("setting the device heap's size", error);
  }
  if (cudaDeviceGetLimit(&opened_limits().stack_bytes, cudaLimitStackSize) != cudaSuccess ||
      cudaDeviceGetLimit(&opened_limits().printf_fifo_bytes, cudaLimitPrintfFifoSize) != cudaSuccess) {
    return "reading the context's limits failed";
  }
  return "";
}

std::string worker_context_problem() {
  if (const cudaError_t error = cudaDeviceSynchronize(); error != cudaSuccess) {
    return cuda_problem("work left or an error pending", error);
  }
  if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess) {
    return cuda_problem("an error pending", error);
  }
  // Set back before the grading gave its timing turn back, where it did: setting it again could
  // be work on the GPU while another grading times.
  const bool set_back = std::exchange(opened_limits().stack_set_back, false);
  if (const cudaError_t error =
          set_back ? cudaSuccess : cudaDeviceSetLimit(cudaLimitStackSize, opened_limits().stack_bytes);
      error != cudaSuccess) {
    return cuda_problem("setting the stack size back", error);
  }
  std::size_t heap_bytes = 0;
  std::size_t fifo_bytes = 0;
  std::size_t stack_bytes = 0;
  if (cudaDeviceGetLimit(&heap_bytes, cudaLimitMallocHeapSize) != cudaSuccess ||
      cudaDeviceGetLimit(&fifo_bytes, cudaLimitPrintfFifoSize) != cudaSuccess ||
      cudaDeviceGetLimit(&stack_bytes, cudaLimitStackSize) != cudaSuccess) {
    return "the context's limits cannot be read";
  }
  if (heap_bytes != kDeviceHeapBytes || fifo_bytes != opened_limits().printf_fifo_bytes ||
      stack_bytes != opened_limits().stack_bytes) {
    return "the context's limits changed";
  }
  return "";
}

int run_grading_child(const Exercise& exercise, const ChildRequest& request) {
  ChildResults results;
  Phase phase(request.phase);
  const auto stop = [&](const std::string& kind, const std::string& message) {
    results.error_kind = kind;
    results.error = message;
    results.failed_step = phase.step();
    if (request.mode != "sanitize") {
      write_file_atomically(request.results, to_json(results).dump(2) + "\n", true);
    }
    std::cerr << "grade-child: " << message << "\n";
  };
  try {
    phase.set("starting CUDA");
    record_device(results);
    ChildSession session(
        exercise, request, results, [&](const std::string& step) { phase.set(step); },
        [&](const std::string& message) {
          stop("hang", message);
          std::_Exit(3);  // the kernel still runs: only the end of the process stops it
        });
    if (request.mode == "lab-times") {
      session.time_lab_only();
      return 0;
    }
    session.load();
    if (request.mode == "sanitize") {
      session.sanitize_runs();
      return 0;
    }
    session.grade();
    return 0;
  } catch (const SubmissionStopped& stopped) {
    stop(stopped.kind, stopped.message);
    return 3;
  } catch (const CudaError& error) {
    stop("cuda-error", error.error_name() + " (" + cudaGetErrorString(error.code()) + ")");
    return 3;
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace labrun
