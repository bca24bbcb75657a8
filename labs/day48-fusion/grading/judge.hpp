#pragma once
// The verdict on a day-48 exercise submission, from what the compiler, the grading child and
// compute-sanitizer reported. Host logic only: tested without a GPU.

#include <optional>
#include <string>
#include <vector>

#include "grading/child_results.hpp"
#include "grading/manifest.hpp"
#include "grading/process.hpp"
#include "grading/report.hpp"

namespace day48::grading {

//! The exercise's model: bytes per element, launches and the two ratios it predicts.
inline constexpr double kModelBytesPerElement = 20.0;
inline constexpr int kModelLaunches = 2;
inline constexpr double kModelRatioVsStaged = 36.0 / 20.0;
inline constexpr double kModelRatioVsFused = 20.0 / 12.0;
//! A prediction within this of the model's ratio is right.
inline constexpr double kPredictionTolerance = 0.05;
//! Slower than the lab's own half-way pair by more than this factor is "slow".
inline constexpr double kSlowFactor = 1.5;
//! Faster than the best bandwidth any reference kernel reached in the same process, by more than
//! this factor, is physically impossible for 20 bytes per element.
inline constexpr double kImpossibleFactor = 1.10;
//! A wrong composition is named when it matches at least this share of the elements.
inline constexpr double kCompositionMatchShare = 0.999;

struct SanitizerRun {
  std::string tool;  //!< "memcheck", "racecheck"
  bool clean = false;
  std::string summary;  //!< the tool's summary line, or how the run ended
};

struct JudgeInput {
  std::string submission;
  std::optional<labrun::Manifest> manifest;
  std::string manifest_problem;  //!< why there is no manifest
  bool compiled = false;
  std::string compiler_output;                 //!< capped
  std::optional<labrun::ProcessResult> child;  //!< absent when it did not run
  std::optional<ChildResults> results;         //!< what the child wrote, if anything
  bool sanitizer_available = false;
  std::vector<SanitizerRun> sanitizers;
  double run_limit_seconds = 0.0;
  double seconds = 0.0;  //!< grading wall time so far
};

[[nodiscard]] labrun::GradeReport judge(const JudgeInput& input);

}  // namespace day48::grading
