// Every exercise's rubric as a table: it orders every possible outcome the way an instructor would
// (each tier strictly above the next, whatever else it got right or wrong), an escape attempt earns
// nothing, and docs/grading.md's Verdicts table for the exercise is its table. The labs' judge
// tests prove the same ordering from what the grading child measured.

#include "exercise/rubric.hpp"

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "exercise/exercise.hpp"
#include "exercise/exercise_entry.hpp"
#include "registry/registry.hpp"
#include "support/exercises.hpp"
#include "support/test_data.hpp"

using labrun::SanitizerVerdict;
using labrun::SpeedVerdict;
using labrun::TimedVerdict;

namespace {

// Not Outcome: cli tests share a unity file with this one and name their own.
using RubricOutcome = labrun::Outcome;

// Every exercise of the build (the registry's: an exercise added in its lab's folder is found), bound
// to its lab, with the heading of its Verdicts table: "### Verdicts of NAME", in docs/grading.md or in
// its lab's README.md.
std::vector<std::pair<labrun::Exercise, std::string>> every_exercise() {
  std::vector<std::pair<labrun::Exercise, std::string>> all;
  for (const labrun::Exercise* exercise : labrun::testing::registered_exercises()) {
    all.emplace_back(*exercise, "### Verdicts of " + exercise->name);
  }
  REQUIRE(all.size() >= 2);
  return all;
}

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

TEST_CASE(
    "every exercise's rubric puts every tier strictly above the next, for every outcome, and an escape at "
    "0") {
  for (const auto& [exercise, heading] : every_exercise()) {
    INFO(exercise.name);
    // Machines with and without compute-sanitizer are ranked apart: their maximum scores differ.
    std::map<bool, std::map<int, Range>> tiers;
    int outcomes = 0;
    every_outcome([&](const RubricOutcome& o) {
      const double score = labrun::score(exercise.rubric, o);
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
}

TEST_CASE("every exercise's rubric rows add up to 100, and each row's prerequisite is named") {
  for (const auto& [exercise, heading] : every_exercise()) {
    INFO(exercise.name);
    double total = 0.0;
    for (const labrun::RubricRow& row : exercise.rubric) {
      INFO(row.name);
      total += row.points;
      CHECK(row.passes_when.size() > 10);
      RubricOutcome all;
      all.builds = all.odd_right = all.card_right = all.structure_right = all.buffers_right = true;
      all.declared_right = all.predicted_right = true;
      all.sanitizer = SanitizerVerdict::kClean;
      all.timed = TimedVerdict::kRight;
      all.speed = SpeedVerdict::kFast;
      CHECK(labrun::earned(row, all));
      CHECK(labrun::prerequisite_met(row, all));
      RubricOutcome none;
      CHECK(labrun::prerequisite_met(row, none) == row.needs_text.empty());
    }
    CHECK(total == 100.0);
    CHECK(exercise.rubric.front().check == labrun::Check::kBuilds);
  }
}

namespace {

// The rows of the table under `heading` in the Markdown file `doc`; empty when it has none.
std::vector<std::string> table_under(const std::filesystem::path& doc, const std::string& heading) {
  std::vector<std::string> rows;
  if (!std::filesystem::exists(doc)) {
    return rows;
  }
  std::istringstream text(labrun::read_file(doc));
  std::string line;
  bool in_verdicts = false;
  while (std::getline(text, line)) {
    if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0) {
      in_verdicts = line == heading;
      continue;
    }
    if (in_verdicts && line.rfind("| ", 0) == 0) {
      rows.push_back(line);
    }
  }
  return rows;
}

}  // namespace

TEST_CASE("each exercise's Verdicts table, in docs/grading.md or its lab's README.md, is its rubric") {
  const std::filesystem::path root = labrun::testing::repository_root();
  for (const auto& [exercise, heading] : every_exercise()) {
    INFO(heading);
    std::vector<std::string> rows = table_under(root / "docs" / "grading.md", heading);
    if (rows.empty()) {
      rows = table_under(root / "labs" / exercise.lab / "README.md", heading);
    }
    std::vector<std::string> expected{"| check | points | passes when | counts once |",
                                      "| --- | ---: | --- | --- |"};
    for (const labrun::RubricRow& row : exercise.rubric) {
      expected.push_back("| " + row.name + " | " + labrun::fixed(row.points, 0) + " | " + row.passes_when +
                         " | " + (row.needs_text.empty() ? "-" : row.needs_text) + " |");
    }
    CHECK(rows == expected);
  }
}
