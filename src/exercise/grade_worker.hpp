#pragma once
// The CUDA side of a grading worker (exercise/worker_protocol.hpp): the context it opens once, and
// its check after each grading that nothing of the submission is left in that context.

#include <string>

namespace labrun {

//! Creates the worker's context on its one visible GPU and sets what every grading in it relies on
//! (the device-side heap's size, before any module loads; the per-thread stack size is recorded).
//! Empty on success, else what failed.
[[nodiscard]] std::string open_worker_context();

//! After a grading: every launch finished and no error is pending (a sticky error spoils the
//! context for good), no limit differs from what open_worker_context set (the stack size is set
//! back, which gives back any local memory the driver grew for the last kernels), and the heap and
//! printf buffer sizes are unchanged. Empty when another submission may be graded in the context.
[[nodiscard]] std::string worker_context_problem();

}  // namespace labrun
