#pragma once
// The build's graded exercises as the grader has them (each bound to its lab: its worked answer's
// values the lab's byte models), for the tests of their judges and rubrics.

#include "exercise/exercise.hpp"
#include "exercise/exercise_entry.hpp"
#include "fusion-verdicts/grading/exercise.hpp"
#include "grading/exercise.hpp"
#include "registry/registry.hpp"

namespace labrun::testing {

//! Day 48's half-way pair.
inline const Exercise& halfway_exercise() {
  static const Exercise exercise =
      bound_exercise(*registered_labs().find("day48-fusion"), day48::grading::halfway_exercise());
  return exercise;
}

//! fusion-verdicts' sum of squares.
inline const Exercise& sum_of_squares_exercise() {
  static const Exercise exercise = bound_exercise(*registered_labs().find("fusion-verdicts"),
                                                  verdicts::grading::sum_of_squares_exercise());
  return exercise;
}

}  // namespace labrun::testing
