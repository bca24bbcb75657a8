#include "registry/lab.hpp"

namespace labrun {

std::string CaseSpec::describe_sizes() const {
  std::string text;
  for (const SizeRequest& size : sizes) {
    text += (text.empty() ? "" : ", ") + (size.elements == 0 ? size.label : std::to_string(size.elements));
  }
  return text;
}

const CaseSpec* Lab::find_case(const std::string& case_name) const {
  for (const CaseSpec& spec : cases) {
    if (spec.name == case_name) {
      return &spec;
    }
  }
  return nullptr;
}

Lab with_exercises(Lab lab, const std::vector<LabExercise (*)(const Lab&)>& factories) {
  for (LabExercise (*const factory)(const Lab&) : factories) {
    lab.exercises.push_back(factory(lab));
  }
  return lab;
}

const LabExercise* Lab::find_exercise(const std::string& exercise_name) const {
  for (const LabExercise& exercise : exercises) {
    if (exercise.name == exercise_name) {
      return &exercise;
    }
  }
  return nullptr;
}

}  // namespace labrun
