// The rubric as a table: it orders every possible outcome the way an instructor would (each tier
// strictly above the next, whatever else it got right or wrong), an escape attempt earns nothing,
// and docs/grading.md's Verdicts table is this table. judge_test.cpp proves the same ordering from
// what the grading child measured.

#include "grading/rubric.hpp"

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/format.hpp"

using day48::grading::SanitizerVerdict;
using day48::grading::SpeedVerdict;
using day48::grading::TimedVerdict;

namespace {

// Not Outcome: cli tests share a unity file with this one and name their own.
using RubricOutcome = day48::grading::Outcome;

// The instructor's order, from the outcome alone: 1 correct and fast, 2 correct and slow (or a time
// no copy allows), 3 correct but failed, hung or was wrong in a timed call, 4 not correct; 0 an
// escape attempt.
int instructor_tier(const RubricOutcome& o) {
  if (o.escape_attempt) {
    return 0;
  }
  const bool correct = o.builds && o.odd_right && o.card_right && o.structure_right && o.buffers_right &&
                       o.sanitizer != SanitizerVerdict::kErrors;
  if (!correct) {
    return 4;
  }
  if (o.timed != TimedVerdict::kRight) {
    return 3;
  }
  return o.speed == SpeedVerdict::kFast ? 1 : 2;
}

struct Range {
  double low = 1e9;
  double high = -1e9;
  int count = 0;
};

// Every combination of every verdict, as a bit pattern and three enumerations, except the one the
// grader cannot reach: compute-sanitizer not run although the run finished its timing (it runs
// after every run that finishes).
template <typename Visit>
void every_outcome(Visit visit) {
  const SanitizerVerdict sanitizers[] = {SanitizerVerdict::kClean, SanitizerVerdict::kErrors,
                                         SanitizerVerdict::kAbsent, SanitizerVerdict::kNotRun};
  const TimedVerdict timings[] = {TimedVerdict::kRight, TimedVerdict::kFailed, TimedVerdict::kNotReached};
  const SpeedVerdict speeds[] = {SpeedVerdict::kFast, SpeedVerdict::kSlow, SpeedVerdict::kImpossible,
                                 SpeedVerdict::kNotMeasured};
  for (unsigned bits = 0; bits < (1u << 8); ++bits) {
    for (const SanitizerVerdict sanitizer : sanitizers) {
      for (const TimedVerdict timed : timings) {
        for (const SpeedVerdict speed : speeds) {
          if (sanitizer == SanitizerVerdict::kNotRun && timed == TimedVerdict::kRight) {
            continue;
          }
          RubricOutcome o;
          o.escape_attempt = (bits & 1u) != 0;
          o.builds = (bits & 2u) != 0;
          o.odd_right = (bits & 4u) != 0;
          o.card_right = (bits & 8u) != 0;
          o.structure_right = (bits & 16u) != 0;
          o.buffers_right = (bits & 32u) != 0;
          o.declared_right = (bits & 64u) != 0;
          o.predicted_right = (bits & 128u) != 0;
          o.sanitizer = sanitizer;
          o.timed = timed;
          o.speed = speed;
          visit(o);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("the rubric puts every tier strictly above the next, for every outcome, and an escape at 0") {
  // Machines with and without compute-sanitizer are ranked apart: their maximum scores differ.
  std::map<bool, std::map<int, Range>> tiers;
  int outcomes = 0;
  every_outcome([&](const RubricOutcome& o) {
    const double score = day48::grading::score(o);
    Range& range = tiers[o.sanitizer == SanitizerVerdict::kAbsent][instructor_tier(o)];
    range.low = std::min(range.low, score);
    range.high = std::max(range.high, score);
    ++range.count;
    ++outcomes;
  });
  CHECK(outcomes == 256 * (4 * 3 - 1) * 4);
  for (const auto& [absent, by_tier] : tiers) {
    INFO("compute-sanitizer " << (absent ? "absent" : "present"));
    REQUIRE(by_tier.size() == 5);
    CHECK(by_tier.at(0).low == 0.0);
    CHECK(by_tier.at(0).high == 0.0);
    for (int tier = 1; tier < 4; ++tier) {
      INFO("tier " << tier << ": " << by_tier.at(tier).low << " to " << by_tier.at(tier).high << ", tier "
                   << tier + 1 << ": " << by_tier.at(tier + 1).low << " to " << by_tier.at(tier + 1).high);
      CHECK(by_tier.at(tier).low > by_tier.at(tier + 1).high);
    }
    CHECK(by_tier.at(1).high == (absent ? 95.0 : 100.0));
    CHECK(by_tier.at(4).low == 0.0);
  }
}

TEST_CASE("the rubric's rows add up to 100, and each row's prerequisite is named") {
  double total = 0.0;
  for (const day48::grading::RubricRow& row : day48::grading::rubric()) {
    INFO(row.name);
    total += row.points;
    CHECK(std::string(row.passes_when).size() > 10);
    RubricOutcome all;
    all.builds = all.odd_right = all.card_right = all.structure_right = all.buffers_right = true;
    all.declared_right = all.predicted_right = true;
    all.sanitizer = SanitizerVerdict::kClean;
    all.timed = TimedVerdict::kRight;
    all.speed = SpeedVerdict::kFast;
    CHECK(day48::grading::earned(row, all));
    CHECK(row.prerequisite(all));
    RubricOutcome none;
    CHECK(row.prerequisite(none) == std::string(row.prerequisite_text).empty());
  }
  CHECK(total == 100.0);
  CHECK(day48::grading::rubric().front().check == day48::grading::Check::kBuilds);
}

TEST_CASE("docs/grading.md's Verdicts table is the rubric, row for row") {
  const std::filesystem::path doc =
      std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path() / "docs" / "grading.md";
  std::istringstream text(labrun::read_file(doc));
  std::string line;
  bool in_verdicts = false;
  std::vector<std::string> rows;
  while (std::getline(text, line)) {
    if (line.rfind("## ", 0) == 0) {
      in_verdicts = line == "## Verdicts";
      continue;
    }
    if (in_verdicts && line.rfind("| ", 0) == 0) {
      rows.push_back(line);
    }
  }
  std::vector<std::string> expected{"| check | points | passes when | counts once |",
                                    "| --- | ---: | --- | --- |"};
  for (const day48::grading::RubricRow& row : day48::grading::rubric()) {
    const std::string once = row.prerequisite_text;
    expected.push_back("| " + std::string(row.name) + " | " + labrun::fixed(row.points, 0) + " | " +
                       row.passes_when + " | " + (once.empty() ? "-" : once) + " |");
  }
  CHECK(rows == expected);
}
