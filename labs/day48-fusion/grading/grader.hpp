#pragma once
// Grading one day-48 exercise submission: compile it in a temporary folder, run it in a child
// process with a time limit, run compute-sanitizer where it exists, and judge.

#include <functional>
#include <string>

#include "grading/grade_request.hpp"
#include "grading/report.hpp"

namespace day48::grading {

//! Name of the child program, built beside labrun.
inline constexpr const char* kChildProgram = "labrun-day48-grade-child";

//! Throws labrun::NoDeviceError when no CUDA device can run the submission, std::runtime_error
//! when the grader itself cannot work (no nvcc, no child program); a broken submission is a
//! verdict, never an exception.
[[nodiscard]] labrun::GradeReport grade_submission(const labrun::GradeRequest& request,
                                                   const std::function<void(const std::string&)>& progress);

}  // namespace day48::grading
