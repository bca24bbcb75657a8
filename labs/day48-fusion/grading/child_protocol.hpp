#pragma once
// What labrun grade asks of the grading child, and what the child measured. Both are JSON files
// in the grading's private scratch folder: the request is written by labrun before the child
// starts (so no seed ever appears on a command line), the results by the child. The child is
// trusted code; the submission's kernels run inside it on the GPU but no code of the submission
// runs on the host, so nothing in the results can come from the submission except through what
// the child measures.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "grading/manifest.hpp"

namespace day48::grading {

inline constexpr std::size_t kRequestMaxBytes = std::size_t{64} * 1024;
inline constexpr std::size_t kResultsMaxBytes = std::size_t{4} * 1024 * 1024;

//! What a submission may take of the GPU's memory besides the buffers the child gives it, so that
//! gradings side by side on one GPU cannot starve each other. Its global variables are bounded
//! before it is loaded (grading/device_image.hpp); its local memory (the stack frame and spills of
//! each thread, which the driver reserves for every thread the GPU can hold) is bounded here, per
//! thread, before any launch; the device-side heap (malloc in a kernel) is set to this size.
inline constexpr std::uint64_t kLocalBytesPerThreadMax = 2048;
inline constexpr std::uint64_t kDeviceHeapBytes = std::uint64_t{8} << 20;

//! The lab's own kernels timed cold at one size: medians of CUDA-event samples, milliseconds.
struct LabTimes {
  std::uint64_t elements = 0;
  double staged_ms = 0.0;           //!< the lab's staged chain (36 B/element)
  double fused_ms = 0.0;            //!< the lab's fused chain (12 B/element)
  double lab_halfway_ms = 0.0;      //!< the lab's own half-way pair (20 B/element)
  double copy_floor_ms = 0.0;       //!< one-element-per-thread copy (8 B/element)
  double copy_vectorized_ms = 0.0;  //!< 16-byte grid-stride copy (8 B/element)
  double copy_memcpy_ms = 0.0;      //!< cudaMemcpyAsync device to device (8 B/element)
};

[[nodiscard]] nlohmann::ordered_json to_json(const LabTimes& times);
[[nodiscard]] LabTimes lab_times_from_json(const nlohmann::ordered_json& document);

struct ChildRequest {
  //! "grade"; "sanitize": one unguarded run for compute-sanitizer; "lab-times": the lab's kernels
  //! only, timed at card_elements (no submission), for a batch that shares them.
  std::string mode = "grade";
  std::string image = "submission.cubin";  //!< the compiled submission, in the working folder
  std::string results = "results.json";    //!< written by the child (grade mode)
  std::string phase = "phase.txt";         //!< the step in progress, rewritten before each
  std::uint64_t seed = 48;                 //!< base of every call's fresh inputs
  std::uint64_t odd_elements = 1049187;
  std::uint64_t card_elements = 0;  //!< 0: no large size
  std::uint64_t sanitize_elements = 4099;
  labrun::LaunchShape first_shape;
  labrun::LaunchShape second_shape;
  //! One launch longer than this is a hang: at the card-scaled size a correct pair's kernels take
  //! about a millisecond on an H200, so this is over a thousand times that.
  double kernel_time_limit_s = 2.0;
  //! The whole timing phase longer than this is a hang; each timed sample longer than
  //! kernel_time_limit_s for each launch it holds is one too.
  double timing_limit_s = 15.0;
  int timing_samples = 30;  //!< cold samples per timed case
  //! Batch grading: before timing, create the file "ready-to-time" in the working folder and wait
  //! (at most turn_wait_limit_s) for labrun to create "may-time", which it does once this child
  //! has the GPU to itself (grading/gpu_turns.hpp).
  bool wait_for_timing_turn = false;
  double turn_wait_limit_s = 3600.0;
  //! The lab's kernels as timed once for the batch on this GPU; when given, only the pair is timed.
  std::optional<LabTimes> lab_times;
};

[[nodiscard]] nlohmann::ordered_json to_json(const ChildRequest& request);
//! Throws std::runtime_error naming the field when the document is not a valid request.
[[nodiscard]] ChildRequest request_from_json(const nlohmann::ordered_json& document);

//! Elements of an output that match one composition of the stages.
struct CompositionMatch {
  std::string composition;  //!< reference.hpp's composition_name
  std::uint64_t matching = 0;
};

//! An output compared element by element with a float64 reference (by a trusted kernel).
struct OutputInspection {
  std::uint64_t elements = 0;
  std::uint64_t mismatches = 0;          //!< outside tolerance, NaN, infinite or unwritten
  std::uint64_t unwritten = 0;           //!< still holding the poison bit pattern
  std::uint64_t trailing_unwritten = 0;  //!< unwritten elements after the last written one
  std::uint64_t non_finite = 0;          //!< NaN or infinity that is not the poison pattern
  double max_abs_error = 0.0;            //!< over finite elements
  std::optional<std::uint64_t> first_bad_index;
  std::optional<double> first_bad_got;  //!< may be NaN (kept as text in JSON)
  std::optional<double> first_bad_expected;
  std::vector<CompositionMatch> compositions;  //!< every wrong composition, counted over all elements
  [[nodiscard]] bool passed() const { return elements > 0 && mismatches == 0; }
};

//! The intermediate after the first kernel, against stage 2's output in float64.
struct IntermediateInspection {
  std::uint64_t unwritten = 0;
  std::uint64_t mismatches = 0;
};

//! Words changed in the poisoned guard regions around each buffer (2 MiB before and after).
struct GuardChanges {
  std::uint64_t y = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t x = 0;
  std::uint64_t residual = 0;
  [[nodiscard]] bool intact() const { return y == 0 && intermediate == 0 && x == 0 && residual == 0; }
};

//! One call of the pair (both kernels) on fresh inputs.
struct ProbeResult {
  std::string size_label;  //!< "odd" or "card-scaled"
  //! "alone": the staged buffers poisoned, no staged run before it; "after-staged": right after
  //! the lab's staged chain ran on the same inputs; "planted": the first kernel runs, then x is
  //! replaced by other inputs and the intermediate by stage 2's output of yet other inputs before
  //! the second kernel runs, which must then compute y from the intermediate and the residual alone.
  std::string probe;
  std::uint64_t elements = 0;
  int call = 0;  //!< 1 for the first call of the pair in the process
  OutputInspection output;
  std::optional<IntermediateInspection> intermediate;  //!< alone and after-staged
  GuardChanges guards;
  std::uint64_t input_elements_changed = 0;         //!< x and residual against their generated values
  std::vector<std::string> staged_buffers_written;  //!< "t1", "t2", "t3"
  //! Planted only: outputs that match the chain computed from the replaced x instead of from the
  //! intermediate (the second kernel read x).
  std::uint64_t matches_chain_of_x = 0;
  //! Launches of this call (0 to 2) after which memory the child owns outside that launch's output
  //! (any buffer, guard, counter: everything but intermediate[0, n) for the first kernel and
  //! y[0, n) for the second) had changed.
  std::uint64_t launches_writing_outside = 0;
};

//! Cold samples at the large size: each sample on fresh inputs, the output of every submission
//! sample checked; milliseconds, medians.
struct TimingResult {
  std::uint64_t elements = 0;
  int samples = 0;
  std::vector<double> pair_samples_ms;
  double pair_ms = 0.0;
  std::uint64_t wrong_samples = 0;  //!< timed calls whose output failed its check
  std::optional<OutputInspection> first_wrong_sample;
  std::uint64_t guard_words_changed = 0;  //!< around y and the intermediate, after every sample
  //! Timed calls after which memory the child owns outside intermediate[0, n) and y[0, n) had changed.
  std::uint64_t samples_writing_outside = 0;
  LabTimes lab;                   //!< the lab's kernels, as the submission is compared with them
  bool lab_times_shared = false;  //!< timed once for the batch on this GPU, not beside this pair
};

struct KernelInfo {
  std::string name;
  bool found = false;
  std::vector<std::uint64_t> parameter_bytes;  //!< sizes, in order (cudaFuncGetParamInfo)
  int registers = 0;
  std::uint64_t local_bytes = 0;  //!< spills and local arrays
  int max_threads_per_block = 0;
  std::string launch;  //!< "4099 blocks of 256 threads at n = 1049187", for the large size when known
};

struct ChildResults {
  std::string device;
  std::string device_uuid;  //!< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi writes it
  bool pageable_memory_access = false;  //!< the GPU can address pageable host memory (HMM/ATS)
  bool completed = false;               //!< every step ran
  //! Why it stopped: "" (it did not), "load", "kernel-missing", "wrong-signature", "launch-shape",
  //! "local-memory-too-large", "cuda-error", "hang", or "grader-out-of-memory" (the child could not
  //! allocate its own buffers: not the submission's doing, and graded again).
  std::string error_kind;
  std::string error;        //!< what happened, for a student
  std::string failed_step;  //!< the step in progress, e.g. "halfway_stages_3_4 at n = 1049187 (alone)"
  std::vector<std::string> kernels_found;  //!< every kernel in the image, when one was missing
  std::vector<KernelInfo> kernels;
  std::vector<ProbeResult> probes;
  std::optional<TimingResult> timing;
};

[[nodiscard]] nlohmann::ordered_json to_json(const ChildResults& results);
//! Throws std::runtime_error naming the field when the document is not a child's results.
[[nodiscard]] ChildResults child_results_from_json(const nlohmann::ordered_json& document);

}  // namespace day48::grading
