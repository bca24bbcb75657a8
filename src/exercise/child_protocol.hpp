#pragma once
// What labrun grade asks of the grading child, and what the child measured, for any exercise. Both
// are JSON files in the grading's private scratch folder: the request is written by labrun before
// the child starts (so no seed ever appears on a command line), the results by the child. The child
// is trusted code; the submission's kernels run inside it on the GPU but no code of the submission
// runs on the host, so nothing in the results can come from the submission except through what the
// child measures. The probes and the inspection of a timed call are the exercise's own records
// (JSON objects its judge reads); everything else has the same fields for every exercise.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grading/manifest.hpp"

namespace labrun {

inline constexpr std::size_t kRequestMaxBytes = std::size_t{64} * 1024;
inline constexpr std::size_t kResultsMaxBytes = std::size_t{4} * 1024 * 1024;

//! What a submission may take of the GPU's memory besides the buffers the child gives it, so that
//! gradings side by side on one GPU cannot starve each other. Its global variables are bounded
//! before it is loaded (grading/device_image.hpp); its local memory (the stack frame and spills of
//! each thread, which the driver reserves for every thread the GPU can hold) is bounded here, per
//! thread, before any launch; the device-side heap (malloc in a kernel) is set to this size.
inline constexpr std::uint64_t kLocalBytesPerThreadMax = 2048;
inline constexpr std::uint64_t kDeviceHeapBytes = std::uint64_t{8} << 20;

//! The keys of the harness's own streams of the card's memory among LabTimes' medians
//! (device_checks.hpp): what the card does for a read-only stream and for a copy.
inline constexpr const char* kReadStreamKey = "read_stream_ms";
inline constexpr const char* kCopyStreamKey = "copy_stream_ms";

//! The lab's kernels timed cold at one size: medians of CUDA-event samples, milliseconds, one per
//! lab case the exercise is timed against, by its key ("staged_ms"), in the exercise's order, then
//! the harness's streams (kReadStreamKey, kCopyStreamKey).
struct LabTimes {
  std::uint64_t elements = 0;
  std::vector<std::pair<std::string, double>> medians;
  //! The median of `key`. Throws std::out_of_range when it was not timed.
  [[nodiscard]] double at(const std::string& key) const;
};

[[nodiscard]] nlohmann::ordered_json to_json(const LabTimes& times);
//! Every key but "elements" is a median. Throws nlohmann::json::exception.
[[nodiscard]] LabTimes lab_times_from_json(const nlohmann::ordered_json& document);

//! A global variable of the submission's image (grading/device_image.hpp), which the child may watch.
struct ImageGlobal {
  std::string name;
  std::uint64_t bytes = 0;
};

struct ChildRequest {
  std::string lab;       //!< the exercise's lab ("fusion-verdicts")
  std::string exercise;  //!< and its name ("sum-of-squares")
  //! "grade"; "sanitize": the runs compute-sanitizer watches; "lab-times": the lab's kernels
  //! only, timed at card_elements (no submission), for a batch that shares them.
  std::string mode = "grade";
  std::string image = "submission.cubin";  //!< the compiled submission, in the working folder
  std::string results = "results.json";    //!< written by the child (grade mode)
  std::string phase = "phase.txt";         //!< the step in progress, rewritten before each
  std::uint64_t seed = 0;                  //!< base of every call's fresh inputs
  std::uint64_t odd_elements = 1049187;
  std::uint64_t card_elements = 0;  //!< 0: no large size
  std::uint64_t sanitize_elements = 4099;
  //! Mode "sanitize": after the runs in buffers of exactly n elements, one replica of a timed call at
  //! this size, in the buffers as a grading allocates them (ChildSession::sanitize_runs); 0: none.
  std::uint64_t sanitize_timed_elements = 0;
  std::vector<LaunchShape> shapes;  //!< one per kernel of the contract, in its order
  //! One launch longer than this is a hang: at the card-scaled size a correct submission's kernels
  //! take about a millisecond on an H200, so this is over a thousand times that.
  double kernel_time_limit_s = 2.0;
  //! The whole timing phase longer than this is a hang; each timed call longer than
  //! kernel_time_limit_s for each launch it holds is one too.
  double timing_limit_s = 15.0;
  int timing_samples = 30;  //!< cold samples per timed case
  //! Batch grading: before timing, create the file "ready-to-time" in the working folder and wait
  //! (at most turn_wait_limit_s) for labrun to create "may-time", which it does once this child
  //! has the GPU to itself (grading/gpu_turns.hpp).
  bool wait_for_timing_turn = false;
  double turn_wait_limit_s = 3600.0;
  //! The lab's kernels as timed once for the batch on this GPU; when given, only the submission is
  //! timed.
  std::optional<LabTimes> lab_times;
  //! The image's global variables, for an exercise that watches what its kernels write there.
  std::vector<ImageGlobal> image_globals;
};

[[nodiscard]] nlohmann::ordered_json to_json(const ChildRequest& request);
//! Throws std::runtime_error naming the field when the document is not a valid request.
[[nodiscard]] ChildRequest request_from_json(const nlohmann::ordered_json& document);

//! Cold samples at the large size: each sample on fresh inputs, every call of the submission
//! (warm-ups included) held to its contract as a checked call is; milliseconds, medians. ("pair":
//! the submission's kernels of one call.)
struct TimingResult {
  std::uint64_t elements = 0;
  int samples = 0;
  std::vector<double> pair_samples_ms;
  double pair_ms = 0.0;
  std::uint64_t calls_checked = 0;  //!< the timed calls and their warm-ups
  std::uint64_t wrong_samples = 0;  //!< calls whose output failed its check
  //! The exercise's inspection of the first wrong one.
  std::optional<nlohmann::ordered_json> first_wrong_sample;
  //! Calls after which a kernel had not left what it must (an intermediate, partial results): one
  //! skipped, or another doing its work.
  std::uint64_t samples_breaking_structure = 0;
  std::optional<nlohmann::ordered_json> first_broken_sample;
  //! Words of the outputs' allocations outside what each call was given that changed, over all calls.
  std::uint64_t guard_words_changed = 0;
  //! Calls after which memory the child owns outside the call's buffers had changed.
  std::uint64_t samples_writing_outside = 0;
  //! Calls after which an input (its elements or its guards) had changed.
  std::uint64_t samples_changing_inputs = 0;
  LabTimes lab;                   //!< the lab's kernels, as the submission is compared with them
  bool lab_times_shared = false;  //!< timed once for the batch on this GPU, not beside this submission
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
  //! One record per call of the submission the child checked, as the exercise wrote it.
  std::vector<nlohmann::ordered_json> probes;
  std::optional<TimingResult> timing;
};

[[nodiscard]] nlohmann::ordered_json to_json(const ChildResults& results);

//! The exercise's readers of its own records, each throwing (anything) when a record is not one.
struct RecordChecks {
  std::function<void(const nlohmann::ordered_json&)> probe;
  std::function<void(const nlohmann::ordered_json&)> inspection;  //!< a timed call's
};

//! Throws std::runtime_error naming the field when the document is not a child's results, or a
//! probe or inspection in it is not one the exercise's `checks` read.
[[nodiscard]] ChildResults child_results_from_json(const nlohmann::ordered_json& document,
                                                   const RecordChecks& checks = {});

//! A double that may be NaN or infinite, as the child's records hold it: a number when finite, else
//! its text ("nan", "inf"), and back.
[[nodiscard]] nlohmann::ordered_json any_double(double value);
[[nodiscard]] double any_double_from(const nlohmann::ordered_json& value);

}  // namespace labrun
