#pragma once
// The verdict on a day-48 exercise submission, from what trusted code measured: the source check,
// the compiler, the grading child (child_protocol.hpp) and compute-sanitizer. The manifest is the
// student's worked answer and is graded as one; it is never taken as a fact about the code. judge()
// reaches the verdicts rubric.hpp's table reads (an Outcome) and applies that table: the rubric
// is declared there alone. Host logic only: tested without a GPU.

#include <optional>
#include <string>
#include <vector>

#include "grading/child_protocol.hpp"
#include "grading/manifest.hpp"
#include "grading/report.hpp"
#include "grading/source_check.hpp"
#include "process/process.hpp"

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
//! A correct pair moves at least 20 bytes per element. At a bandwidth above this multiple of the best
//! copy measured beside it (the lab's copy floor, its vectorised copy, cudaMemcpy: 8 bytes per
//! element each) it would beat the card's memory by more than the L2 and the copies' distance from
//! the peak can explain: the time is impossible. On the H200 the peak is 1.16 times the best copy,
//! and the L2 holds under 5% of the pair's traffic at the card-scaled size.
inline constexpr double kImpossibleMargin = 1.5;
//! A wrong composition is named when it matches at least this share of the elements.
inline constexpr double kCompositionMatchShare = 0.999;

struct SanitizerRun {
  std::string tool;  //!< "memcheck", "racecheck"
  bool clean = false;
  std::string summary;   //!< the tool's summary lines, or how the run ended
  bool finished = true;  //!< it gave a verdict (its log has a summary), or it was not needed
};

struct JudgeInput {
  std::string submission;  //!< the file graded, as named
  std::optional<labrun::Manifest> manifest;
  std::string manifest_problem;                        //!< why there is no manifest (missing, unreadable)
  bool manifest_missing = false;                       //!< no manifest file at all
  std::vector<labrun::SourceProblem> source_problems;  //!< non-empty: not compiled
  bool compiled = false;
  std::string compiler_messages;  //!< about the submission's own lines only
  //! The compiled image may not be loaded: "image-too-large" or "device-memory-too-large", with the
  //! sentence for the student (submission_build.hpp).
  std::string image_refusal;
  std::string image_refusal_message;
  std::optional<labrun::ProcessResult> child;  //!< how the grading child ended; absent when it did not run
  std::optional<ChildResults> results;         //!< what it measured, if it wrote anything
  std::string last_step;                       //!< the child's phase file when it ended
  bool default_launch_shapes = false;          //!< the manifest gave none usable
  bool sanitizer_available = false;
  std::vector<SanitizerRun> sanitizers;
  double run_limit_seconds = 0.0;
  double seconds = 0.0;  //!< grading wall time so far
  //! Wall seconds of each step that ran, in order ("compiling", "waiting to check", ...).
  std::vector<std::pair<std::string, double>> phase_seconds;
  //! Non-empty when the grading shared its GPU when something went wrong and was graded again with
  //! the GPU to itself; what it says is why. The verdict is the second grading's.
  std::string graded_alone_because;
  //! Non-empty when grading could not run at all (no GPU, a missing grader program): a message for
  //! course staff; the submission scores 0 and no verdict is given on it.
  std::string grader_problem;
};

//! The report: one test per row of rubric(), in its order, and every mistake named. A submission
//! whose source is refused with include-not-allowed earns nothing, its worked answer included.
[[nodiscard]] labrun::GradeReport judge(const JudgeInput& input);

}  // namespace day48::grading
