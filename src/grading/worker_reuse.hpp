#pragma once
// When a grading worker (exercise/worker_pool.hpp) may grade another submission in the CUDA context
// it graded the last one in. Host logic only.
//
// A worker is reused only when nothing of the last submission can still be in its context: the
// grading finished with every check run, the submission's image calls nothing of the driver's
// (no device heap, printf buffer or assertion: DeviceImageFootprint::outside_calls), nothing was
// seen that only a hostile or broken submission does, and the worker's own check after the
// grading found no error pending, no work running and the context's limits as it set them. Any
// doubt retires the worker; a fresh one takes its place.

#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! What is known of one grading by a worker, once it ended.
struct WorkerJobFacts {
  //! The worker process still ran and said the grading was over (its "done" record).
  bool worker_answered = false;
  //! The grading's own exit status, as the worker gave it (0: finished, whatever the verdict).
  int status = -1;
  //! The worker's check of its context after the grading (work finished, no error pending, the
  //! module unloaded, the limits as set): empty when it passed, else what it found.
  std::string worker_problem;
  //! The image's calls to the driver's device-side functions; nullopt where it was not read.
  std::optional<std::vector<std::string>> outside_calls;
  //! The results say the grading completed with no error, and nothing outside the submission's
  //! buffers, no input and no guard changed in any call.
  bool results_clean = false;
};

//! Why the worker must not grade another submission; nullopt when it may.
[[nodiscard]] std::optional<std::string> worker_retires_because(const WorkerJobFacts& facts);

}  // namespace labrun
