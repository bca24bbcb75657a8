#pragma once
// `labrun run day48-fusion --submission DIR`: a student's half-way pair as one more row of part 2.
// The folder holds one .cu file and its manifest, as `labrun grade` takes them (docs/grading.md).
// The source passes the grader's source check, is compiled to device code only (-cubin) in a
// contained nvcc, and its two kernels are loaded with the CUDA library API and launched by the
// harness with the manifest's launch shapes (grading/submission_build.hpp,
// grading/submission_kernels.hpp): no host code of the submission runs. The case's bytes and
// launches are the manifest's worked answer; it is checked against the lab's float64 chain,
// compared bit for bit with the staged chain, and predicted against the staged and fused chains.

#include <filesystem>
#include <functional>
#include <string>

#include "registry/lab.hpp"

namespace day48 {

//! The correctness version of the student's pair, as the transcript records it.
inline constexpr const char* kSubmissionCheck = "submission-halfway-pair";

//! Facts the transcript's "lab" group records about the submission (the manifest's worked answer
//! and where it came from).
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

//! Seconds the trial run of the student's pair may take at one size before the run is ended.
inline constexpr double kTrialSeconds = 10.0;

//! Lab::with_submission for day 48: `lab` with the submission in `folder` declared as the case
//! cases::kSubmission. Source, manifest and folder problems are found before any GPU is touched.
//! Throws labrun::SubmissionError, labrun::NoDeviceError, std::runtime_error (a missing compiler or
//! header folder). The returned lab's session loads the kernels and runs them once at the
//! correctness size and at the run's largest size before anything else; a pair that has not
//! finished after kTrialSeconds ends the process with exit status 7.
[[nodiscard]] labrun::Lab with_submission(const labrun::Lab& lab, const std::filesystem::path& folder,
                                          const std::function<void(const std::string&)>& progress);

}  // namespace day48
