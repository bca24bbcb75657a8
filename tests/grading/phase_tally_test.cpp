#include "grading/phase_tally.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;

TEST_CASE("the grader's phases fall into compile, check, wait, time and sanitize") {
  using labrun::PhaseClass;
  CHECK(labrun::phase_class("compiling") == PhaseClass::kCompile);
  CHECK(labrun::phase_class("checking") == PhaseClass::kCheck);
  CHECK(labrun::phase_class("child") == PhaseClass::kCheck);
  CHECK(labrun::phase_class("waiting to check") == PhaseClass::kWait);
  CHECK(labrun::phase_class("waiting to time") == PhaseClass::kWait);
  CHECK(labrun::phase_class("waiting to sanitize") == PhaseClass::kWait);
  CHECK(labrun::phase_class("waiting for a worker") == PhaseClass::kWait);
  CHECK(labrun::phase_class("timing") == PhaseClass::kTime);
  CHECK(labrun::phase_class("sanitizing") == PhaseClass::kSanitize);
  // A tool's own seconds lie inside "sanitizing": counted once.
  CHECK(labrun::phase_class("sanitizing: memcheck") == PhaseClass::kOther);
}

TEST_CASE("the batch's line gives each class's median seconds per grading") {
  labrun::PhaseTally tally;
  CHECK(tally.line().empty());
  tally.add({{"compiling", 0.5},
             {"checking", 0.7},
             {"waiting to time", 0.1},
             {"timing", 0.3},
             {"sanitizing", 0.4}});
  tally.add({{"compiling", 0.7},
             {"checking", 0.9},
             {"waiting to check", 0.2},
             {"waiting to time", 0.2},
             {"timing", 0.3},
             {"sanitizing", 0.2}});
  tally.add({{"compiling", 0.6}, {"child", 2.0}});
  CHECK(tally.gradings() == 3);
  CHECK(tally.median(labrun::PhaseClass::kCompile) == Catch::Approx(0.6));
  CHECK(tally.median(labrun::PhaseClass::kCheck) == Catch::Approx(0.9));
  CHECK(tally.median(labrun::PhaseClass::kWait) == Catch::Approx(0.1));  // 0.1, 0.4, 0
  CHECK(tally.median(labrun::PhaseClass::kTime) == Catch::Approx(0.3));
  tally.add({{"compiling", 0.8}});
  CHECK(tally.median(labrun::PhaseClass::kCompile) == Catch::Approx(0.65));
  CHECK_THAT(tally.line(), ContainsSubstring("compile 0.65 · check"));
  CHECK_THAT(tally.line(), ContainsSubstring("sanitize"));
}
