#include "grading/rubric.hpp"

#include <stdexcept>

namespace day48::grading {
namespace {

bool nothing(const Outcome& /*o*/) {
  return true;
}
bool right_at_both_sizes(const Outcome& o) {
  return o.odd_right && o.card_right;
}
// Correct, as the contract says. compute-sanitizer may be absent from the machine (the row is then
// worth nothing) or not have run because the grading run stopped before it; only its finding of
// errors makes a submission not correct.
bool correct(const Outcome& o) {
  return o.builds && right_at_both_sizes(o) && o.structure_right && o.buffers_right &&
         o.sanitizer != SanitizerVerdict::kErrors;
}
bool timed_right(const Outcome& o) {
  return correct(o) && o.timed == TimedVerdict::kRight;
}

// The points are chosen so that every tier (rubric.hpp) is strictly above the next whatever the
// other rows give: the worked answer (10 in all) is less than each of the rows that separate two
// tiers (correct, timed, speed), and the partial credit a submission that is not correct can
// collect (the odd and card-scaled sizes and two of the three checks of hygiene: at most 25, with
// the worked answer 35) is less than the correct row alone plus what it needs (55).
const std::vector<RubricRow> kRubric{
    {Check::kBuilds, "Builds as the exercise's contract asks", 0.0,
     "it passes the source check, compiles, loads, and defines both kernels with the contract's signatures "
     "and launchable shapes",
     nothing, "", [](const Outcome& o) { return o.builds; }},
    {Check::kOddSize, "Correct at the odd size 1,049,187, alone and after the staged chain", 10.0,
     "y right at n = 1,049,187, run alone and run after the staged chain", nothing, "",
     [](const Outcome& o) { return o.builds && o.odd_right; }},
    {Check::kCardSize, "Correct at the card-scaled size, alone and after the staged chain", 5.0,
     "y right at the card-scaled size, run alone and run after the staged chain (calls that are not timed)",
     nothing, "", [](const Outcome& o) { return o.builds && o.card_right; }},
    {Check::kStructure, "Two kernels with one intermediate between them", 5.0,
     "the first kernel writes stage 2's output to every element of the intermediate, the second follows a "
     "planted intermediate with x replaced, no staged buffer is touched",
     right_at_both_sizes, "the output is correct at both sizes",
     [](const Outcome& o) { return o.structure_right; }},
    {Check::kBuffers, "Writes only inside its buffers, leaves its inputs alone", 5.0,
     "guards intact around every buffer, x and the residual unchanged", right_at_both_sizes,
     "the output is correct at both sizes", [](const Outcome& o) { return o.buffers_right; }},
    {Check::kSanitizer, "compute-sanitizer memcheck and racecheck", 5.0,
     "memcheck clean, and racecheck clean where a kernel has shared memory to check (worth nothing where "
     "compute-sanitizer is absent)",
     right_at_both_sizes, "the output is correct at both sizes",
     [](const Outcome& o) {
       return o.sanitizer == SanitizerVerdict::kClean || o.sanitizer == SanitizerVerdict::kAbsent;
     }},
    {Check::kCorrect, "Correct: the whole contract", 30.0,
     "every check above passes; compute-sanitizer may be missing only because the run stopped in a timed "
     "call",
     nothing, "", correct},
    {Check::kTimed, "Right in every timed call", 15.0,
     "each of the 30 timed calls right, and the timing finished: no failure, hang or kill while timed",
     correct, "the submission is correct (the whole contract)",
     [](const Outcome& o) { return o.timed == TimedVerdict::kRight; }},
    {Check::kSpeed, "Runs at the speed its bytes allow", 15.0,
     "at most 1.5 times the lab's own half-way pair, and not impossibly fast", timed_right,
     "the submission is correct and right in every timed call",
     [](const Outcome& o) { return o.speed == SpeedVerdict::kFast; }},
    {Check::kDeclared, "Worked answer: bytes per element and launches", 5.0, "20 bytes and 2 launches",
     nothing, "", [](const Outcome& o) { return o.declared_right; }},
    {Check::kPredicted, "Worked answer: predicted ratios", 5.0, "within 0.05 of 1.80 and 1.67", nothing, "",
     [](const Outcome& o) { return o.predicted_right; }},
};

}  // namespace

const std::vector<RubricRow>& rubric() {
  return kRubric;
}

const RubricRow& rubric_row(Check check) {
  for (const RubricRow& row : kRubric) {
    if (row.check == check) {
      return row;
    }
  }
  throw std::logic_error("a check with no row in the rubric");
}

bool earned(const RubricRow& row, const Outcome& outcome) {
  return !outcome.escape_attempt && row.prerequisite(outcome) && row.own(outcome);
}

double max_points(const RubricRow& row, const Outcome& outcome) {
  return row.check == Check::kSanitizer && outcome.sanitizer == SanitizerVerdict::kAbsent ? 0.0 : row.points;
}

double score(const Outcome& outcome) {
  double total = 0.0;
  for (const RubricRow& row : kRubric) {
    total += earned(row, outcome) ? max_points(row, outcome) : 0.0;
  }
  return total;
}

}  // namespace day48::grading
