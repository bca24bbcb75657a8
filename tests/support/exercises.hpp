#pragma once
// The build's graded exercises as the grader has them (each bound to its lab: its worked answer's
// values the lab's byte models), found in the registry: a new exercise's tests need no line here.

#include <stdexcept>
#include <string>
#include <vector>

#include "exercise/exercise.hpp"
#include "exercise/exercise_entry.hpp"
#include "registry/registry.hpp"

namespace labrun::testing {

//! Every exercise the build registered, in lab order.
inline std::vector<const Exercise*> registered_exercises() {
  std::vector<const Exercise*> exercises;
  for (const LabExercise* entry : registered_labs().exercises()) {
    if (const Exercise* declared = declaration_of(*entry)) {
      exercises.push_back(declared);
    }
  }
  return exercises;
}

//! The registered exercise "LAB/NAME". Throws std::out_of_range when the build has none.
inline const Exercise& registered_exercise(const std::string& full_name) {
  const LabExercise* entry = registered_labs().find_exercise(full_name);
  if (entry == nullptr || declaration_of(*entry) == nullptr) {
    throw std::out_of_range("no registered exercise " + full_name);
  }
  return *declaration_of(*entry);
}

}  // namespace labrun::testing
