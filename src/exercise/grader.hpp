#pragma once
// Grading one submission of any exercise: check its source, compile its device code in a sandbox,
// run its kernels in the grading child with time limits, run compute-sanitizer where it exists, and
// judge. docs/grading.md states the threat model this follows.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "exercise/exercise.hpp"
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

}  // namespace labrun
