#pragma once
// What every exercise's `run --submission` row (exercise/submission_run.hpp's SubmissionCase) does
// the same way: the lab it returns, made from its declaration with the submission's case in it, and
// the trial loop over the sizes. The exercise keeps what is its own: the buffers, the call of its
// kernels, the check and the predictions.
//
// Host code only.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cases/declared_lab.hpp"
#include "exercise/submission_run.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! The lab SubmissionCase::declare returns: `submission.lab` with `declaration`'s cases and session,
//! the declaration's facts followed by the submission's, and `predictions` added to the lab's.
[[nodiscard]] Lab lab_with_submission_row(const SubmissionDeclaration& submission,
                                          LabDeclaration& declaration,
                                          const std::vector<Prediction>& predictions);

//! SubmissionCase::trial's loop: `call(n)` enqueues one call of the submission's kernels at n on the
//! legacy stream, for each of `sizes` in order; a CudaError from its launches is a SubmissionError
//! ("<what> at n = N could not be launched: ..."), and each call is waited on
//! (StudentKernels::wait_for) before the next.
void trial_at_sizes(const std::vector<std::uint64_t>& sizes, const std::string& what,
                    const std::function<void(std::uint64_t n)>& call);

}  // namespace labrun
