#pragma once
// `labrun run day48-fusion --submission DIR`: a student's half-way pair as one more row of part 2.
// The harness reads, checks, compiles and loads the submission the grader's way
// (exercise/submission_run.hpp); this is where the pair goes in the lab's declaration: checked
// against the lab's float64 chain, compared bit for bit with the staged chain, and predicted
// against the staged and fused chains, with the manifest's bytes and launches as its byte model.

#include "exercise/submission_run.hpp"

namespace day48 {

//! The correctness version of the student's pair, as the transcript records it.
inline constexpr const char* kSubmissionCheck = "submission-halfway-pair";

//! Facts the transcript's "lab" group records about the submission (the manifest's worked answer
//! and where it came from: exercise/submission_run.cpp names them "submission_" and the field).
namespace submission_facts {
inline constexpr const char* kSource = "submission_source";
inline constexpr const char* kStudentId = "submission_student_id";
inline constexpr const char* kBytesPerElement = "submission_bytes_per_element";
inline constexpr const char* kLaunches = "submission_launches";
inline constexpr const char* kPredictedVsStaged = "submission_predicted_ratio_vs_staged";
inline constexpr const char* kPredictedVsFused = "submission_predicted_ratio_vs_fused";
inline constexpr const char* kFirstLaunch = "submission_first_kernel_launch";
inline constexpr const char* kSecondLaunch = "submission_second_kernel_launch";
}  // namespace submission_facts

//! Where the pair goes in the lab's declaration, and its trial run.
[[nodiscard]] labrun::SubmissionCase halfway_submission_case();

}  // namespace day48
