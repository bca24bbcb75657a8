#pragma once
// Grading one submission of any exercise: check its source, compile its device code in a sandbox,
// run its kernels in the grading child with time limits, run compute-sanitizer where it exists, and
// judge. docs/grading.md states the threat model this follows.

#include <cstddef>
#include <cstdint>
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

//! compute-sanitizer's runs end with a replica of a timed call (ChildSession::sanitize_runs): at the
//! timed calls' size (card_elements), so that no submission can tell a run the sanitizer watches from
//! a timed call by its size; racecheck's at most this power of two, since racecheck's cost grows with
//! every shared-memory access (7 to 17 s a run at 2^27 on an H100 where a kernel uses shared memory
//! per element, against about 1 s at 2^20: docs/grading.md, "What is left"). 0 where nothing is timed.
inline constexpr std::uint64_t kRacecheckTimedElementsMax = std::uint64_t{1} << 20;
[[nodiscard]] std::uint64_t sanitize_timed_elements(const std::string& tool, std::uint64_t card_elements);

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

//! Members of a sanitizer screening group at most, and how long a group stays open to members
//! after its first (exercise/sanitizer_screen.hpp). Each group costs a sanitizer process and a CUDA
//! context (about 0.3 s of the driver's one-at-a-time context creation, under a shared turn), so
//! the fewer the better; a member waits for its group's end holding no slot of the batch
//! (grading/batch_slots.hpp) and no turn, so the wait costs the batch nothing but the member's own
//! latency. At about 2.5 gradings a second on an H200, a window holds some 25 members.
inline constexpr std::size_t kSanitizerGroupMembers = 32;
inline constexpr double kSanitizerWindowSeconds = 10.0;

//! The helpers for the request's GPU (request.turns, request.visible_devices), with `in_flight`
//! gradings on it at once: at most that many grading workers alive; screening groups of up to
//! kSanitizerGroupMembers, none where fewer than 2 are in flight (a serial batch checks each
//! submission as `labrun grade` does).
[[nodiscard]] BatchGradingHelpers batch_grading_helpers(const GradeRequest& request, std::size_t in_flight);

}  // namespace labrun
