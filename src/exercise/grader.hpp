#pragma once
// Grading one submission of any exercise: check its source, compile its device code in a sandbox,
// run its kernels in the grading child with time limits, run compute-sanitizer where it exists, and
// judge. docs/grading.md states the threat model this follows.

#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "exercise/exercise.hpp"
#include "exercise/sanitizer_screen.hpp"
#include "exercise/worker_pool.hpp"
#include "grading/grade_request.hpp"
#include "grading/report.hpp"

namespace labrun {

//! Name of the grading child program, built beside labrun.
inline constexpr const char* kGradeChildProgram = "labrun-grade-child";

//! Never throws for anything a submission does: a broken or hostile submission is a verdict. When
//! grading cannot run at all (no usable GPU, a missing grader program) the report scores 0, says so
//! for course staff, and names the reason in GradeReport::grader_problem_kind.
[[nodiscard]] GradeReport grade_submission(const Exercise& exercise, const GradeRequest& request,
                                           const std::function<void(const std::string&)>& progress);

//! Batch grading: times the lab's own kernels once on the request's GPU (with an exclusive turn
//! there), for every grading of `exercise` on that GPU to compare with, and says how many gradings
//! fit on it at once. Throws std::runtime_error when it cannot.
[[nodiscard]] nlohmann::ordered_json prepare_grading(const Exercise& exercise, const GradeRequest& request,
                                                     const std::function<void(const std::string&)>& progress);

//! What a batch keeps per GPU so that its gradings pay for CUDA contexts once, not per submission:
//! the GPU's grading workers (exercise/worker_pool.hpp) and compute-sanitizer's screening of
//! groups (exercise/sanitizer_screen.hpp).
struct BatchGradingHelpers {
  std::unique_ptr<GradingWorkers> workers;  //!< null where no grading child program is found
  std::unique_ptr<SanitizerScreen> screen;  //!< null without compute-sanitizer or a real GPU
  //! "N gradings in M workers, ...; K sanitizer runs in G groups, ..."
  [[nodiscard]] std::string describe() const;
};

//! Members of a sanitizer screening group at most, and how long the first waits for the others. A
//! member waits holding no slot of the batch (grading/batch_slots.hpp) and no turn, so the wait
//! costs the batch nothing but the member's own latency; it starts when the member's checks end,
//! and mostly overlaps its wait for its turn to time.
inline constexpr std::size_t kSanitizerGroupMembers = 8;
inline constexpr double kSanitizerGatherSeconds = 2.5;

//! The helpers for the request's GPU (request.turns, request.visible_devices), with `in_flight`
//! gradings on it at once: screening groups of up to that many (at most kSanitizerGroupMembers),
//! none where that is fewer than 2 (a group of one saves nothing).
[[nodiscard]] BatchGradingHelpers batch_grading_helpers(const GradeRequest& request, std::size_t in_flight);

}  // namespace labrun
