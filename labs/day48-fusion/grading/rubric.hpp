#pragma once
// The day-48 exercise's rubric, declared once: each row a check, its points and what it needs.
// judge() reaches an Outcome from what trusted code measured and applies this table to it;
// docs/grading.md's Verdicts table is this table (a host test compares them). Host code only.
//
// The rows order submissions as an instructor would, each tier strictly above the next whatever
// else a submission got right or wrong (tests/labs/day48-fusion/rubric_test.cpp enumerates every
// outcome to prove it):
//   1. correct and fast;
//   2. correct and slow (or a time no copy on the card allows);
//   3. correct, but fails, hangs or is wrong in a timed call;
//   4. not correct.
// "Correct" is the contract (docs/grading.md): the output right at both sizes, alone and after the
// staged chain; the two kernels joined by the intermediate; nothing written outside its buffers,
// the inputs left alone; compute-sanitizer clean. A submission that tried to include a file it may
// not (include-not-allowed) earns nothing at all.

#include <string>
#include <vector>

namespace day48::grading {

//! compute-sanitizer's verdict, as the rubric reads it.
enum class SanitizerVerdict {
  kClean,   //!< memcheck clean, racecheck clean or not needed
  kErrors,  //!< a tool found errors, or did not end cleanly
  kAbsent,  //!< compute-sanitizer is not on this machine: the row is worth nothing here
  kNotRun,  //!< the grading run stopped before it could run (so its timing did not finish either)
};

//! How the timed calls went.
enum class TimedVerdict {
  kRight,       //!< every timed call right, and the timing finished
  kFailed,      //!< a timed call was wrong, or the run failed, hung or was killed while timing
  kNotReached,  //!< the run stopped before it timed anything
};

enum class SpeedVerdict {
  kFast,         //!< at most kSlowFactor times the lab's own pair, and possible
  kSlow,         //!< slower than that
  kImpossible,   //!< faster than any copy on the card allows: the time is not counted
  kNotMeasured,  //!< no timing
};

//! Everything the rubric needs to know about a submission, each a verdict judge() reached.
struct Outcome {
  bool escape_attempt = false;   //!< include-not-allowed: every row earns nothing
  bool builds = false;           //!< source check, compile, load, both kernels, launchable shapes
  bool odd_right = false;        //!< right at 1,049,187 alone and after the staged chain
  bool card_right = false;       //!< right at the card-scaled size alone and after the staged chain
  bool structure_right = false;  //!< intermediate written with stage 2, followed by the second kernel
  bool buffers_right = false;    //!< guards intact, inputs unchanged
  SanitizerVerdict sanitizer = SanitizerVerdict::kNotRun;
  TimedVerdict timed = TimedVerdict::kNotReached;
  SpeedVerdict speed = SpeedVerdict::kNotMeasured;
  bool declared_right = false;   //!< the worked answer's bytes per element and launches
  bool predicted_right = false;  //!< the worked answer's two ratios
};

//! Each row's place in rubric(), in the order reports list them.
enum class Check {
  kBuilds,
  kOddSize,
  kCardSize,
  kStructure,
  kBuffers,
  kSanitizer,
  kCorrect,
  kTimed,
  kSpeed,
  kDeclared,
  kPredicted,
};

//! One row: a check as reports name it, its points, what it needs, and the verdict that decides it.
struct RubricRow {
  Check check;
  const char* name;         //!< as reports show it
  double points;            //!< where compute-sanitizer is present
  const char* passes_when;  //!< what it needs, as docs/grading.md's Verdicts table says
  //! Whether the rows it builds on are earned ("counts once ..."), and what they are.
  bool (*prerequisite)(const Outcome&);
  const char* prerequisite_text;  //!< empty when the row needs nothing else
  bool (*own)(const Outcome&);    //!< its own check
};

//! The rubric, in the order reports list its rows.
[[nodiscard]] const std::vector<RubricRow>& rubric();

//! The row of `check`.
[[nodiscard]] const RubricRow& rubric_row(Check check);

//! Whether `row` earns its points for `outcome`: not an escape attempt, its prerequisite earned,
//! its own check passed.
[[nodiscard]] bool earned(const RubricRow& row, const Outcome& outcome);

//! The row's points on the machine that graded `outcome`: the sanitizer row is worth nothing where
//! compute-sanitizer is absent.
[[nodiscard]] double max_points(const RubricRow& row, const Outcome& outcome);

//! What `outcome` scores: the sum of the rows earned.
[[nodiscard]] double score(const Outcome& outcome);

}  // namespace day48::grading
