#pragma once
// Grading one day-48 exercise submission: check its source, compile its device code in a private
// temporary folder, run its kernels in the grading child with a time limit, run compute-sanitizer
// where it exists, and judge. docs/grading.md states the threat model this follows.

#include <functional>
#include <string>

#include "grading/grade_request.hpp"
#include "grading/report.hpp"

namespace day48::grading {

//! Name of the child program, built beside labrun.
inline constexpr const char* kChildProgram = "labrun-day48-grade-child";

//! Never throws for anything a submission does: a broken or hostile submission is a verdict. When
//! grading cannot run at all (no usable GPU, a missing grader program) the report scores 0, says so
//! for course staff, and names the reason in GradeReport::grader_problem_kind.
[[nodiscard]] labrun::GradeReport grade_submission(const labrun::GradeRequest& request,
                                                   const std::function<void(const std::string&)>& progress);

//! Batch grading: times the lab's own kernels once on the request's GPU (with an exclusive turn
//! there), for every grading on that GPU to compare with, and says how many gradings fit on it at
//! once. Throws std::runtime_error when it cannot.
[[nodiscard]] nlohmann::ordered_json prepare_grading(const labrun::GradeRequest& request,
                                                     const std::function<void(const std::string&)>& progress);

}  // namespace day48::grading
