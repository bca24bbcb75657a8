#pragma once
// The trusted grading child's runtime, for any exercise (grade_child.cpp runs it). The child loads a
// submission's compiled device code (a cubin, with no host code), launches its kernels on a stream
// of its own with the grids it computes, checks what they did, times them beside the lab's kernels,
// and writes what it measured. It decides nothing: labrun grade judges.
//
// What every exercise needs is here: the kernels loaded against the contract, guarded and poisoned
// buffers, a keyed digest of every byte the child owns around every checked launch, fresh seeds
// per call, launches waited on with a time limit, the timed calls (each checked, under a re-armable
// watchdog), the lab's kernels timed the same way, GPU turns and the phase file. What an exercise's
// probes do between launches, and how its kernels' outputs are inspected, is the exercise's own
// ExerciseChild, which works through a ChildSession.
//
// Host code that calls the CUDA runtime; nvcc is not needed to compile it.

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "exercise/child_protocol.hpp"
#include "exercise/device_checks.hpp"
#include "exercise/exercise.hpp"
#include "exercise/launch_plan.hpp"
#include "exercise/owned_region.hpp"
#include "timing/device_buffer.hpp"
#include "timing/sampler.hpp"

namespace labrun {

//! Poisoned floats before and after each guarded buffer: 2 MiB, a large page's worth, so no
//! plausible stray index hops it unseen; past it lies another allocation or unmapped memory.
inline constexpr std::size_t kGuardFloats = std::size_t{512} * 1024;

//! A stop caused by the submission: the results say what (child_protocol.hpp's error_kind) and where.
struct SubmissionStopped {
  std::string kind;
  std::string message;
};

//! Places an output may start at: 256 bytes apart. A call's outputs that only a later kernel of
//! the call is given start at a place drawn from the call's seed (ChildSession::slot_of), so that an
//! earlier kernel cannot know where they are.
inline constexpr std::size_t kSlots = 16;
inline constexpr std::size_t kSlotFloats = 64;
inline constexpr std::size_t kSlotBytes = kSlotFloats * sizeof(float);

//! [guard | capacity elements, padded to 256 bytes, and slots - 1 more places | guard] in one
//! allocation, poisoned; data(slot) is 256-byte aligned, so a submission may use 16-byte vector
//! accesses from element 0. Elements are element_bytes wide (4: floats; 1: a uint8 mask; 8: doubles),
//! and the guards are checked element by element at that width, so a store one byte past a mask's
//! end is caught as one element changed.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(std::size_t capacity, std::size_t slots = 1, std::size_t guard = kGuardFloats,
                         std::size_t element_bytes = sizeof(float));
  [[nodiscard]] float* data(std::size_t slot = 0) const { return reinterpret_cast<float*>(bytes(slot)); }
  //! Where the elements at `slot` start, as bytes.
  [[nodiscard]] unsigned char* bytes(std::size_t slot = 0) const {
    return storage_.data() + guard_bytes_ + slot * kSlotFloats * sizeof(float);
  }
  [[nodiscard]] std::size_t element_bytes() const { return element_bytes_; }
  //! The whole allocation, guards included.
  void poison(cudaStream_t stream) const;
  void poison_elements(std::size_t n, cudaStream_t stream, std::size_t slot = 0) const;
  [[nodiscard]] OwnedRegion region() const { return {storage_.data(), size_bytes_}; }
  //! The first n elements at `slot`: what a launch that writes this buffer may change.
  [[nodiscard]] OwnedRegion elements(std::size_t n, std::size_t slot = 0) const {
    return {bytes(slot), n * element_bytes_};
  }
  //! Adds to *count the elements (element_bytes wide, counted from the buffer's start) of the
  //! allocation outside [0, n) at `slot` that no longer hold the poison: its guards, and its other
  //! places.
  void count_guard_changes(std::size_t n, unsigned long long* count, cudaStream_t stream,
                           std::size_t slot = 0) const;

 private:
  std::size_t element_bytes_;
  std::size_t guard_bytes_;
  std::size_t size_bytes_;
  DeviceBuffer<unsigned char> storage_;
};

//! The buffers one call of the submission is given: its inputs (read-only: their contents and
//! guards must not change) and its outputs, each the whole allocation. `untouched_between_calls`:
//! other whole allocations of the child's (the lab's buffers) that nothing of the child's writes
//! between two timed calls, from one call's check to the next call's launch (fresh_call, check_call
//! and output_guard_changes never write them): the digest taken after one call stands for the
//! next call's "before" there (outside_watch.hpp). Anything the child's own code writes between
//! calls (counters, a reference) must not be named: it is digested before every call.
struct CallBuffers {
  std::vector<OwnedRegion> inputs;
  std::vector<OwnedRegion> outputs;
  std::vector<OwnedRegion> untouched_between_calls;
};

//! What the exercise found after one timed call: its output right, and what its kernels leave
//! besides (an intermediate, partial results) as the contract says, so that no kernel of the call
//! was skipped; `record` is the exercise's inspection of it when either is not.
struct CallCheck {
  bool output_right = true;
  bool structure_right = true;
  std::optional<nlohmann::ordered_json> record;
};

//! An exercise's device side in the grading child: its buffers, its probes, how one timed call is
//! prepared, launched and checked, the lab's cases it is timed against, and compute-sanitizer's run.
//! Created by Exercise::child once the submission is loaded; works through its ChildSession.
class ExerciseChild {
 public:
  virtual ~ExerciseChild() = default;
  //! The buffers of calls of up to `capacity` elements, allocated through the session (guarded(),
  //! owned()) so that the child owns and digests them: the call's own first, then the lab's, and the
  //! lab's only `with_lab_buffers` (without them, for compute-sanitizer's replica of a timed call,
  //! neither probe, fresh_lab_inputs nor launch_lab_case is called, and the call's buffers lie where
  //! a grading's do).
  virtual void allocate(std::size_t capacity, bool with_lab_buffers) = 0;
  //! One probe at n (one of Exercise::probes): a call of the submission, checked; its record.
  virtual nlohmann::ordered_json probe(const std::string& size_label, std::size_t n,
                                       const std::string& probe) = 0;
  //! The buffers one call at n is given: a timed call may change its outputs and nothing else the
  //! child owns; its inputs are digested before and after it. Also the allocations that nothing of
  //! the child's writes between timed calls (CallBuffers::untouched_between_calls).
  [[nodiscard]] virtual CallBuffers call_buffers(std::size_t n) const = 0;
  //! Fresh inputs for one timed call from `seed`, its outputs poisoned whole (guards and every
  //! place), its later kernels' outputs at slot_of(seed).
  virtual void fresh_call(std::size_t n, std::uint64_t seed) = 0;
  //! What the call fresh_call prepared at n gives its kernels of each guarded buffer, as launch_call
  //! gives it: the elements from each pointer it passes (an output's at the call's slot) that a
  //! kernel may read or write, and no more (the guard checks count changes outside them). In
  //! compute-sanitizer's replica these are the only parts of the child's memory memcheck lets the
  //! kernels touch (sanitizer_bounds.hpp): a range left out fails every correct submission there.
  [[nodiscard]] virtual std::vector<OwnedRegion> call_ranges(std::size_t n) const = 0;
  //! The submission's kernels of one call, back to back with no wait (ChildSession::launch_timed).
  virtual void launch_call(std::size_t n) = 0;
  //! What one timed call left: its output, and what each of its kernels must leave.
  virtual CallCheck check_call(std::size_t n, std::uint64_t seed) = 0;
  //! Words of the outputs' allocations outside what the last call was given that changed.
  virtual std::uint64_t output_guard_changes(std::size_t n) = 0;
  //! Fresh inputs, from `seed`, for the lab's cases.
  virtual void fresh_lab_inputs(std::size_t n, std::uint64_t seed) = 0;
  //! One execution of the exercise's lab case `index` (Exercise::lab_cases) at n.
  virtual void launch_lab_case(std::size_t index, std::size_t n) = 0;
  //! compute-sanitizer's run at n: the submission's kernels once, in buffers of exactly n elements
  //! (ChildSession::sanitize_runs adds a replica of a timed call, through fresh_call and launch_call).
  virtual void sanitize(std::size_t n, std::uint64_t seed) = 0;
  //! Frees (ChildSession::release) the buffers only the lab's cases and the probes use, once the
  //! probes are done and the lab's times come from the batch: the timed calls then have no lab
  //! buffers beside them to watch. Afterwards call_buffers names none of them, and neither probe,
  //! fresh_lab_inputs nor launch_lab_case is called.
  virtual void release_lab_buffers() = 0;
};

//! What the child gives an exercise's device side during one grading.
class ChildSession {
 public:
  //! on_hang records a hang and ends the process; it must not return.
  ChildSession(const Exercise& exercise, const ChildRequest& request, ChildResults& results,
               std::function<void(const std::string&)> phase,
               std::function<void(const std::string&)> on_hang);
  ~ChildSession();
  ChildSession(const ChildSession&) = delete;
  ChildSession& operator=(const ChildSession&) = delete;

  [[nodiscard]] const Exercise& exercise() const { return exercise_; }
  [[nodiscard]] const ChildRequest& request() const { return request_; }
  [[nodiscard]] cudaStream_t stream() const { return stream_; }
  [[nodiscard]] int sm_count() const { return sm_count_; }
  [[nodiscard]] int l2_bytes() const { return l2_bytes_; }
  //! Whether a submission was loaded (not in the lab-times mode, which times the lab's kernels only).
  [[nodiscard]] bool has_submission() const { return !kernels_.empty(); }
  //! The step in progress, in the phase file (so labrun can name what hung after killing us).
  void phase(const std::string& step) { phase_(step); }

  //! A fresh seed for one call's inputs; calls() counts them.
  std::uint64_t next_seed();
  [[nodiscard]] int calls() const { return static_cast<int>(calls_); }
  //! The place (below kSlots) of a call's later-kernel outputs, drawn from its seed.
  [[nodiscard]] static std::size_t slot_of(std::uint64_t seed);
  //! The seed of the inputs the lab's own case runs on before the submission in a probe that runs it
  //! first (after-lab, after-staged): inputs other than the call's, so that the lab's buffers never
  //! hold the call's answer while the submission runs.
  [[nodiscard]] static std::uint64_t lab_case_seed_of(std::uint64_t seed);

  //! A guarded buffer of `capacity` elements of element_bytes (floats by default) that the child
  //! owns (digested around every launch), with `slots` places for its elements.
  GuardedBuffer& guarded(std::size_t capacity, std::size_t slots = 1,
                         std::size_t element_bytes = sizeof(float));
  //! Plain device memory of `bytes` that the child owns and digests (the lab's buffers, counters).
  void* owned(std::size_t bytes);
  template <typename T>
  T* owned_array(std::size_t count) {
    return static_cast<T*>(owned(count * sizeof(T)));
  }
  //! Device memory for what the child computes about a call's answer (the lab's reference, its
  //! scratch, a float64 total), owned and digested as owned() memory is, and erased (zeroed) before
  //! every launch of the submission's kernels: no submission kernel can read an answer there. So an
  //! answer is computed after the kernels it judges have run (never before: the erasing would take
  //! it), from inputs drawn again from the call's seed, and read back (download) before the next
  //! launch; the kernels that computed it ran after the submission's, so that nothing they leave on
  //! the GPU (shared memory not cleared between kernels included) reaches the call it judges.
  void* answer(std::size_t bytes);
  template <typename T>
  T* answer_array(std::size_t count) {
    return static_cast<T*>(answer(count * sizeof(T)));
  }
  //! Zeroes every answer() allocation, on the grading stream. launch() does it first; the timed
  //! calls do it as each is prepared.
  void erase_answers();
  //! Frees plain memory from owned() once nothing needs it: cleared first (a later allocation of the
  //! context's may get the same memory), then no longer owned, so no digest reads it again. A store
  //! there afterwards reaches unmapped memory (a fault), or a later allocation the child owns.
  //! Throws std::logic_error for memory owned() did not give.
  void release(const void* data);
  //! Memory the child owns for a while (the L2 flush buffer while timing): digested until forgotten.
  void own(OwnedRegion region) { owned_regions_.push_back(region); }
  void forget_last_owned() { owned_regions_.pop_back(); }

  //! The grid of kernel `k` at n (one block for a one_block kernel), from the manifest's shape.
  [[nodiscard]] LaunchPlan plan(std::size_t kernel, std::uint64_t n);
  //! Launches kernel `k` with `arguments` at n and waits for it, at most the kernel time limit (a
  //! longer one is a hang). `what` names the call ("alone"): the step is "<kernel> at n = N (what)".
  //! A call of the submission begins with its first kernel (k = 0): before that launch the
  //! submission's global variables are set back to their values at load (restore_globals), so
  //! that no call can tell from them what calls came before it. With `given` (the buffers passed
  //! to the launch), every byte the child owns outside the allocations that hold them is digested
  //! before and after, and a change counts in outside_writes(). The given allocations, guards
  //! included, have checks of their own: the guards (write-past-n), the inputs (input-modified)
  //! and the outputs.
  void launch(std::size_t kernel, void** arguments, std::uint64_t n, const std::string& what,
              std::optional<std::vector<OwnedRegion>> given = std::nullopt);
  //! A timed call's launch: no wait, the grid planned at the first timed call.
  void launch_timed(std::size_t kernel, void** arguments, std::uint64_t n);
  //! The grid of kernel `k` in the timed calls (planned once, at the first).
  [[nodiscard]] const LaunchPlan& timed_plan(std::size_t kernel, std::uint64_t n);
  //! Checked launches since reset_outside_writes() that changed memory outside the allocations
  //! they were given.
  [[nodiscard]] std::uint64_t outside_writes() const { return outside_writes_; }
  void reset_outside_writes() { outside_writes_ = 0; }

  //! A keyed digest of every byte the child owns but the allocations that hold the start of one of
  //! the `allowed` regions, guards included; the key is the child's own.
  unsigned long long digest_owned_except(const std::vector<OwnedRegion>& allowed);
  //! A keyed digest of the given regions (a lab's buffers, compared before and after a call).
  unsigned long long digest_of(const std::vector<OwnedRegion>& regions);

  //! Counters of the exercise's own, on the device: kTallies of them, not owned (they change as the
  //! checks count), each an unsigned long long.
  static constexpr std::size_t kTallies = 8;
  [[nodiscard]] unsigned long long* tally(std::size_t index) const;
  void reset_tallies();
  [[nodiscard]] std::vector<unsigned long long> download_tallies();

  //! Reads one value the checks wrote, through the grading stream: a plain cudaMemcpy would not wait
  //! for work on a non-blocking stream.
  template <typename T>
  [[nodiscard]] T download_one(const T* device) {
    T value{};
    download(&value, device, sizeof(T));
    return value;
  }
  void download(void* host, const void* device, std::size_t bytes);

  //! Words of the submission's own global variables (__device__ and __managed__) that differ from
  //! their values at load: every call begins with them at those values (launch, restore_globals), so
  //! after a call's first kernel these are the words it wrote there (Exercise::watch_own_memory).
  [[nodiscard]] std::uint64_t own_words_changed();

  // The generic child (grade_child.cpp) drives these.
  void load();
  void grade();
  void time_lab_only();
  void sanitize_runs();
  void write() const;

 private:
  //! One timed call's digests, taken together and read back at once.
  struct CallDigests {
    unsigned long long rest = 0;       //!< owned, outside the call's buffers and the untouched part
    unsigned long long untouched = 0;  //!< the allocations untouched between calls (0 where none given)
    unsigned long long inputs = 0;     //!< the call's inputs
  };
  CallDigests digest_call(const std::vector<OwnedRegion>& rest_excludes,
                          const std::vector<OwnedRegion>& untouched, const std::vector<OwnedRegion>& inputs);
  void add_digest_owned_except(const std::vector<OwnedRegion>& allowed, unsigned long long* digest);
  void add_digest_of(const std::vector<OwnedRegion>& regions, unsigned long long* digest);
  //! Throws std::logic_error unless each of `untouched` is a whole allocation the child owns, not one
  //! of the call's.
  void require_untouched_outside(const std::vector<OwnedRegion>& untouched,
                                 const std::vector<OwnedRegion>& call_allocations) const;
  void allocate(std::size_t capacity, bool with_lab_buffers = true);
  //! Waits for the grading stream, at most `limit_seconds` (longer is a hang: on_hang_, naming `where`).
  void wait_or_hang(const std::string& where, double limit_seconds);
  void allocate_streams(std::size_t n);
  //! One timed call's preparation, outside its timed region, for the timed calls and compute-sanitizer's
  //! replica of one alike: fresh inputs from `seed` (ExerciseChild::fresh_call), the answers erased,
  //! the submission's globals set back to their values at load.
  void prepare_timed_call(std::size_t n, std::uint64_t seed);
  //! Sets flusher_ to the cold flush every timed call and the replica of one take: it reads twice the
  //! card's L2 (labrun's cold flush, timing/sampler.hpp), so that no case's data is left there.
  void make_flusher();
  void time_at(std::size_t n);
  LabTimes time_lab(std::size_t n);
  void wait_for_timing_turn();
  void give_timing_turn_back();
  std::vector<double> sample(const std::function<void()>& region, const std::function<void()>& before,
                             const std::function<void()>& after);
  //! Copies the submission's global variables, as loaded, into memory the child owns (digested
  //! around every launch, so that no store of the submission's can change the copy unseen).
  void keep_globals_at_load();
  //! Sets the submission's global variables back to their values at load, on the grading stream:
  //! before every call (a checked launch of the first kernel, each timed call as it is prepared),
  //! whether it is graded, timed or under compute-sanitizer.
  void restore_globals();

  const Exercise& exercise_;
  const ChildRequest& request_;
  ChildResults& results_;
  std::function<void(const std::string&)> phase_;
  std::function<void(const std::string&)> on_hang_;
  int sm_count_ = 0;
  int l2_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  std::uint64_t calls_ = 0;
  std::uint64_t digest_key_ = 0;
  cudaLibrary_t library_ = nullptr;
  std::vector<cudaKernel_t> kernels_;
  std::vector<std::unique_ptr<GuardedBuffer>> guarded_;
  std::vector<DeviceBuffer<unsigned char>> plain_;
  DeviceBuffer<unsigned long long> tallies_;
  DeviceBuffer<unsigned long long> call_digests_;  // digest_call's three sums; not owned
  std::vector<OwnedRegion> owned_regions_;         // every allocation of the child's, for digest_owned_except
  std::vector<OwnedRegion> answer_regions_;        // answer()'s allocations, erased before every launch
  std::vector<std::optional<LaunchPlan>> timed_plans_;
  std::uint64_t outside_writes_ = 0;
  std::vector<OwnedRegion> own_memory_;       // the submission's global variables
  unsigned char* globals_at_load_ = nullptr;  // their values at load (owned(); keep_globals_at_load)
  std::unique_ptr<L2Flusher> flusher_;
  // The harness's streams of the card's memory (read-only, copy) at the large size, and their sink.
  DeviceBuffer<float> stream_source_;
  DeviceBuffer<float> stream_target_;
  std::unique_ptr<ExerciseChild> child_;
  std::chrono::steady_clock::time_point turn_given_;  // when "may-time" was seen (batch grading)
  double turn_preparing_seconds_ = 0.0;  // of the turn so far: the timed calls' preparation (TurnSpent)
  double turn_checking_seconds_ = 0.0;   // and their checks
};

//! The whole grading child for `exercise`: runs the request's mode, writes its results and phase
//! files. Exit status: 0 finished (whatever the submission did), 3 stopped by the submission (a CUDA
//! error, a hang, a kernel that cannot be loaded or launched; the results say which), 1 the child
//! itself failed.
[[nodiscard]] int run_grading_child(const Exercise& exercise, const ChildRequest& request);

}  // namespace labrun
