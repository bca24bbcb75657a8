#pragma once
// A graded exercise's rubric: one declared table of rows, each a check, its points and what it
// needs. judge() (exercise/judge.hpp) reaches an Outcome from what trusted code measured and
// applies the exercise's table to it; each exercise's table is docs/grading.md's Verdicts table for
// it (a host test compares them). Host code only.
//
// Every exercise grades the same kinds of check, so the rows of every table order submissions as
// an instructor would, each tier strictly above the next whatever else a submission got right or
// wrong (tests/exercise/rubric_test.cpp enumerates every outcome to prove it for each exercise):
//   1. correct and fast;
//   2. correct and slow (or a time no copy on the card allows);
//   3. correct, but fails, hangs or is wrong in a timed call;
//   4. not correct.
// "Correct" is the exercise's contract: the output right at both sizes; the structure the exercise
// asks for, measured; nothing written outside its buffers, the inputs left alone; compute-sanitizer
// clean. A submission that tried to reach a file it may not (include-not-allowed, source-is-link)
// earns nothing at all.

#include <string>
#include <vector>

namespace labrun {

//! compute-sanitizer's verdict, as the rubric reads it.
enum class SanitizerVerdict {
  kClean,   //!< memcheck clean, racecheck and synccheck clean or not needed
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
  kFast,         //!< at most the exercise's slow factor times the lab's own version, and possible
  kSlow,         //!< slower than that
  kImpossible,   //!< faster than any copy on the card allows: the time is not counted
  kNotMeasured,  //!< no timing
};

//! Everything a rubric needs to know about a submission, each a verdict judge() reached.
struct Outcome {
  bool escape_attempt = false;   //!< include-not-allowed or source-is-link: every row earns nothing
  bool builds = false;           //!< source check, compile, load, every kernel, launchable shapes
  bool odd_right = false;        //!< right at the odd size in every probe that checks the output
  bool card_right = false;       //!< right at the card-scaled size likewise (calls not timed)
  bool structure_right = false;  //!< the structure the exercise asks for, measured
  bool buffers_right = false;    //!< guards intact, inputs unchanged, nothing else written
  SanitizerVerdict sanitizer = SanitizerVerdict::kNotRun;
  TimedVerdict timed = TimedVerdict::kNotReached;
  SpeedVerdict speed = SpeedVerdict::kNotMeasured;
  bool declared_right = false;   //!< the worked answer's bytes per element and launches
  bool predicted_right = false;  //!< the worked answer's predicted ratios
};

//! The checks every exercise's rubric has one row for.
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

//! What a row builds on: it earns its points only once these are earned.
enum class Needs {
  kNothing,
  kRightAtBothSizes,  //!< the output right at both sizes
  kCorrect,           //!< the whole contract (the kCorrect row's own check)
  kCorrectAndTimed,   //!< correct, and right in every timed call
};

//! One row: a check as reports name it, its points, what it needs. Its own verdict is its check's
//! (rubric.cpp: passes()).
struct RubricRow {
  Check check;
  std::string name;         //!< as reports show it
  double points = 0.0;      //!< where compute-sanitizer is present
  std::string passes_when;  //!< what it needs, as docs/grading.md's Verdicts table says
  Needs needs = Needs::kNothing;
  std::string needs_text;  //!< "counts once ...", empty when the row needs nothing
};

using Rubric = std::vector<RubricRow>;

//! A row an exercise words itself: what it is called, its points, when it passes.
struct OwnRow {
  std::string name;
  double points = 0.0;
  std::string passes_when;
};

//! An exercise's own rows: what its probes check. Every other row is every exercise's.
struct ExerciseRows {
  OwnRow odd_size;
  OwnRow card_size;
  OwnRow structure;  //!< counts once the output is right at both sizes
  OwnRow buffers;    //!< likewise
};

//! An exercise's whole table, in docs/grading.md's order: it builds, its own four rows, then
//! compute-sanitizer, correct, right in every timed call, the speed (at most `slow_factor` times
//! `reference`, the lab's own version), and the worked answer's two rows, whose passes_when
//! bound_exercise writes from the lab's byte models ("predicted ratios" where there are several).
[[nodiscard]] Rubric exercise_rubric(const ExerciseRows& own, const std::string& reference,
                                     double slow_factor, std::size_t predictions);

//! Whether `row`'s own check passes for `outcome` (whatever it builds on).
[[nodiscard]] bool passes(const RubricRow& row, const Outcome& outcome);

//! Whether what `row` builds on is earned.
[[nodiscard]] bool prerequisite_met(const RubricRow& row, const Outcome& outcome);

//! Correct, as every exercise's contract says: builds, right at both sizes, the structure and the
//! buffers right, compute-sanitizer found no errors (it may be absent, or not have run because the
//! run stopped in a timed call).
[[nodiscard]] bool correct(const Outcome& outcome);

//! Whether `row` earns its points for `outcome`: not an escape attempt, its prerequisite earned,
//! its own check passed.
[[nodiscard]] bool earned(const RubricRow& row, const Outcome& outcome);

//! The row's points on the machine that graded `outcome`: the sanitizer row is worth nothing where
//! compute-sanitizer is absent.
[[nodiscard]] double max_points(const RubricRow& row, const Outcome& outcome);

//! What `outcome` scores under `rubric`: the sum of the rows earned.
[[nodiscard]] double score(const Rubric& rubric, const Outcome& outcome);

//! The row of `check`. Throws std::logic_error when the rubric has none.
[[nodiscard]] const RubricRow& rubric_row(const Rubric& rubric, Check check);

//! Throws std::invalid_argument unless `rubric` has exactly one row per Check, kBuilds first.
void check_rubric(const Rubric& rubric);

}  // namespace labrun
