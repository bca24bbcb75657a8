#include "exercise/rubric.hpp"

#include <set>
#include <stdexcept>

#include "base/format.hpp"

namespace labrun {

bool correct(const Outcome& o) {
  return o.builds && o.odd_right && o.card_right && o.structure_right && o.buffers_right &&
         o.sanitizer != SanitizerVerdict::kErrors;
}

// The points are chosen so that every tier is strictly above the next
// whatever the other rows give: the worked answer (10 in all) is less than each of the rows that
// separate two tiers (correct, timed, speed), and the partial credit a submission that is not
// correct can collect (the odd and card-scaled sizes and two of the three checks of hygiene: at
// most 25, with the worked answer 35) is less than the correct row alone plus what it needs (55).
Rubric exercise_rubric(const ExerciseRows& own, const std::string& reference, double slow_factor,
                       std::size_t predictions) {
  const std::string both_sizes = "the output is correct at both sizes";
  const auto row = [](Check check, const OwnRow& r, Needs needs, const std::string& needs_text) {
    return RubricRow{check, r.name, r.points, r.passes_when, needs, needs_text};
  };
  return {
      {Check::kBuilds, "Builds as the exercise's contract asks", 0.0,
       "it passes the source check, compiles, loads, and defines both kernels with the contract's signatures "
       "and launchable shapes",
       Needs::kNothing, ""},
      row(Check::kOddSize, own.odd_size, Needs::kNothing, ""),
      row(Check::kCardSize, own.card_size, Needs::kNothing, ""),
      row(Check::kStructure, own.structure, Needs::kRightAtBothSizes, both_sizes),
      row(Check::kBuffers, own.buffers, Needs::kRightAtBothSizes, both_sizes),
      {Check::kSanitizer, "compute-sanitizer memcheck, racecheck and synccheck", 5.0,
       "memcheck clean, racecheck clean where a kernel has shared memory to check, synccheck clean where a "
       "kernel has a barrier or a warp-synchronous instruction (worth nothing where compute-sanitizer is "
       "absent)",
       Needs::kRightAtBothSizes, both_sizes},
      {Check::kCorrect, "Correct: the whole contract", 30.0,
       "every check above passes; compute-sanitizer may be missing only because the run stopped in a timed "
       "call",
       Needs::kNothing, ""},
      {Check::kTimed, "Right in every timed call", 15.0,
       "each of the 30 timed calls (and the 2 before them) right, and the timing finished: no failure, hang "
       "or "
       "kill while timed",
       Needs::kCorrect, "the submission is correct (the whole contract)"},
      {Check::kSpeed, "Runs at the speed its bytes allow", 15.0,
       "at most " + fixed(slow_factor, 1) + " times " + reference +
           ", and not faster than the card's memory allows for its traffic",
       Needs::kCorrectAndTimed, "the submission is correct and right in every timed call"},
      {Check::kDeclared, "Worked answer: bytes per element and launches", 5.0, "", Needs::kNothing, ""},
      {Check::kPredicted,
       predictions > 1 ? "Worked answer: predicted ratios" : "Worked answer: predicted ratio", 5.0, "",
       Needs::kNothing, ""},
  };
}

bool passes(const RubricRow& row, const Outcome& o) {
  switch (row.check) {
    case Check::kBuilds: return o.builds;
    case Check::kOddSize: return o.builds && o.odd_right;
    case Check::kCardSize: return o.builds && o.card_right;
    case Check::kStructure: return o.structure_right;
    case Check::kBuffers: return o.buffers_right;
    case Check::kSanitizer:
      return o.sanitizer == SanitizerVerdict::kClean || o.sanitizer == SanitizerVerdict::kAbsent;
    case Check::kCorrect: return correct(o);
    case Check::kTimed: return o.timed == TimedVerdict::kRight;
    case Check::kSpeed: return o.speed == SpeedVerdict::kFast;
    case Check::kDeclared: return o.declared_right;
    case Check::kPredicted: return o.predicted_right;
  }
  return false;
}

bool prerequisite_met(const RubricRow& row, const Outcome& o) {
  switch (row.needs) {
    case Needs::kNothing: return true;
    case Needs::kRightAtBothSizes: return o.odd_right && o.card_right;
    case Needs::kCorrect: return correct(o);
    case Needs::kCorrectAndTimed: return correct(o) && o.timed == TimedVerdict::kRight;
  }
  return false;
}

bool earned(const RubricRow& row, const Outcome& outcome) {
  return !outcome.escape_attempt && prerequisite_met(row, outcome) && passes(row, outcome);
}

double max_points(const RubricRow& row, const Outcome& outcome) {
  return row.check == Check::kSanitizer && outcome.sanitizer == SanitizerVerdict::kAbsent ? 0.0 : row.points;
}

double score(const Rubric& rubric, const Outcome& outcome) {
  double total = 0.0;
  for (const RubricRow& row : rubric) {
    total += earned(row, outcome) ? max_points(row, outcome) : 0.0;
  }
  return total;
}

const RubricRow& rubric_row(const Rubric& rubric, Check check) {
  for (const RubricRow& row : rubric) {
    if (row.check == check) {
      return row;
    }
  }
  throw std::logic_error("a check with no row in the rubric");
}

void check_rubric(const Rubric& rubric) {
  std::set<Check> seen;
  for (const RubricRow& row : rubric) {
    if (!seen.insert(row.check).second) {
      throw std::invalid_argument("the rubric has two rows for one check (" + row.name + ")");
    }
    if (row.needs_text.empty() != (row.needs == Needs::kNothing)) {
      throw std::invalid_argument("the rubric's row " + row.name +
                                  " must say what it builds on, and only then");
    }
  }
  if (seen.size() != static_cast<std::size_t>(Check::kPredicted) + 1 ||
      rubric.front().check != Check::kBuilds) {
    throw std::invalid_argument("a rubric has one row per check, the build first");
  }
}

}  // namespace labrun
