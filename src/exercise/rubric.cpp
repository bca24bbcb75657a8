#include "exercise/rubric.hpp"

#include <set>
#include <stdexcept>

namespace labrun {

bool correct(const Outcome& o) {
  return o.builds && o.odd_right && o.card_right && o.structure_right && o.buffers_right &&
         o.sanitizer != SanitizerVerdict::kErrors;
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
      throw std::invalid_argument("the rubric's row " + row.name + " must say what it builds on, and only then");
    }
  }
  if (seen.size() != static_cast<std::size_t>(Check::kPredicted) + 1 || rubric.front().check != Check::kBuilds) {
    throw std::invalid_argument("a rubric has one row per check, the build first");
  }
}

}  // namespace labrun
