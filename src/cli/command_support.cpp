#include "cli/command_support.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/bounded_read.hpp"
#include "device/visible_devices.hpp"
#include "grading/manifest.hpp"
#include "grading/source_check.hpp"
#include "grading/utf8.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"

namespace labrun {

LabLookup registered_lab_lookup() {
  return [](const std::string& name) { return registered_labs().find(name); };
}

const Lab& find_lab_or_throw(const std::string& name) {
  const Lab* lab = registered_labs().find(name);
  if (lab == nullptr) {
    std::string known;
    for (const Lab& candidate : registered_labs().labs()) {
      known += (known.empty() ? "" : ", ") + candidate.name;
    }
    throw UsageError("unknown lab '" + name + "' (known: " + known + ")");
  }
  return *lab;
}

std::string known_exercises() {
  std::string known;
  for (const LabExercise* exercise : registered_labs().exercises()) {
    known += (known.empty() ? "" : ", ") + exercise->full_name();
  }
  return known;
}

ExerciseChoice choose_exercise(const std::filesystem::path& submission, const std::filesystem::path& manifest,
                               const std::string& named, const Lab* lab) {
  std::vector<const LabExercise*> candidates;
  if (lab != nullptr) {
    for (const LabExercise& exercise : lab->exercises) {
      candidates.push_back(&exercise);
    }
  } else {
    candidates = registered_labs().exercises();
  }
  const auto named_one = [&](const std::string& name) -> const LabExercise* {
    for (const LabExercise* exercise : candidates) {
      if (exercise->name == name || exercise->full_name() == name) {
        return exercise;
      }
    }
    return nullptr;
  };
  if (!named.empty()) {
    const LabExercise* exercise = named_one(named);
    if (exercise == nullptr) {
      throw UsageError("--exercise " + named + ": no such exercise (known: " + known_exercises() + ")");
    }
    return {exercise, ""};
  }
  const ManifestHint hint = read_manifest_hint(manifest.empty() ? manifest_beside(submission) : manifest);
  if (!hint.exercise.empty()) {
    if (const LabExercise* exercise = named_one(hint.exercise)) {
      return {exercise, ""};
    }
    return {nullptr, "the manifest names the exercise '" + inert_text(hint.exercise) +
                         "', which this grader does not know (known: " + known_exercises() + ")"};
  }
  std::vector<const LabExercise*> matching;
  for (const LabExercise* exercise : candidates) {
    const bool named_kernels =
        !hint.kernels.empty() &&
        std::all_of(hint.kernels.begin(), hint.kernels.end(), [&](const std::string& k) {
          return std::find(exercise->kernel_names.begin(), exercise->kernel_names.end(), k) !=
                 exercise->kernel_names.end();
        });
    if (named_kernels) {
      matching.push_back(exercise);
    }
  }
  if (matching.size() == 1) {
    return {matching.front(), ""};
  }
  // The source's text, where the manifest says nothing usable (it may be unreadable): the exercise
  // whose every kernel name it mentions. This only picks the grader; the grader checks the rest.
  std::string source;
  std::error_code link;
  if (!std::filesystem::is_symlink(submission, link)) {
    try {
      source = read_regular_file(submission, kSubmissionMaxBytes);
    } catch (const std::exception&) {
      source.clear();
    }
  }
  matching.clear();
  for (const LabExercise* exercise : candidates) {
    if (!source.empty() &&
        std::all_of(exercise->kernel_names.begin(), exercise->kernel_names.end(),
                    [&](const std::string& k) { return source.find(k) != std::string::npos; })) {
      matching.push_back(exercise);
    }
  }
  if (matching.size() == 1) {
    return {matching.front(), ""};
  }
  if (lab != nullptr && candidates.size() == 1) {
    return {candidates.front(), ""};
  }
  return {nullptr,
          "the manifest does not say which exercise this is: give \"exercise\" in it (or --exercise NAME); "
          "known: " +
              known_exercises()};
}

const LabExercise* submission_exercise(const Lab& lab, const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> sources;
  try {
    sources = submission_sources(folder);
  } catch (const std::filesystem::filesystem_error&) {
    sources.clear();  // the lab's own reading of the folder says why
  }
  const LabExercise* exercise = nullptr;
  if (sources.size() == 1) {
    exercise = choose_exercise(sources.front(), {}, "", &lab).exercise;
  } else if (lab.exercises.size() == 1) {
    exercise = &lab.exercises.front();  // its with_submission names what is wrong with the folder
  }
  if (exercise == nullptr || !exercise->with_submission) {
    std::string names;
    for (const LabExercise& e : lab.exercises) {
      names += (names.empty() ? "" : ", ") + e.name;
    }
    throw UsageError("--submission: " + lab.name + " takes no submission" +
                     (names.empty() ? std::string(" (it has no exercise to grade)")
                                    : " for this folder's manifest (its exercises: " + names + ")"));
  }
  return exercise;
}

void choose_device_or_throw(int index) {
  try {
    choose_device(index);
  } catch (const std::out_of_range& error) {
    throw UsageError(error.what());
  }
}

int report_error(std::ostream& err, int status, const std::string& message) {
  err << "labrun: error: " << message << "\n";
  return status;
}

}  // namespace labrun
