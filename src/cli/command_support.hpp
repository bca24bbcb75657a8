#pragma once
// What several commands share: finding a lab by name, choosing a device, and the one-line error.

#include <filesystem>
#include <ostream>
#include <string>

#include "registry/lab.hpp"

namespace labrun {

//! The registered labs (registry/registry.hpp) as a lookup, for the transcript readers.
[[nodiscard]] LabLookup registered_lab_lookup();

//! The registered lab of that name; throws UsageError naming the known labs when there is none.
[[nodiscard]] const Lab& find_lab_or_throw(const std::string& name);

//! Which exercise a submission is for, or why that cannot be told.
struct ExerciseChoice {
  const LabExercise* exercise = nullptr;
  std::string problem;  //!< why none was chosen; empty when one was
};

//! The exercise of `submission` (a .cu file, its manifest beside it): `named` when given (--exercise:
//! NAME or LAB/NAME; one that does not exist is a UsageError); else the manifest's "exercise"; else
//! the one exercise whose contract names every kernel the manifest gives a shape for; else the one
//! whose every kernel name the source mentions; else, with `lab`, that lab's only exercise. Among
//! `lab`'s exercises only, when `lab` is given.
[[nodiscard]] ExerciseChoice choose_exercise(const std::filesystem::path& submission,
                                             const std::filesystem::path& manifest, const std::string& named,
                                             const Lab* lab);

//! `run LAB --submission FOLDER`: the exercise of `lab` the folder's submission is for, one that gives a
//! row of the lab. Throws UsageError when the lab has none or the folder's manifest names another.
[[nodiscard]] const LabExercise* submission_exercise(const Lab& lab, const std::filesystem::path& folder);

//! "day48-fusion/halfway-pair, fusion-verdicts/sum-of-squares": every exercise this build grades.
[[nodiscard]] std::string known_exercises();

//! `--device N`: narrows CUDA_VISIBLE_DEVICES to that device before anything initialises CUDA;
//! throws UsageError when there is no device N.
void choose_device_or_throw(int index);

//! Prints "labrun: error: MESSAGE" as one line on `err` and returns `status`.
int report_error(std::ostream& err, int status, const std::string& message);

}  // namespace labrun
