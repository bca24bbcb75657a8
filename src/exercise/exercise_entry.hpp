#pragma once
// A declared exercise (exercise.hpp) made into the entry its lab lists (registry/lab.hpp's
// LabExercise): the worked answer's correct values taken from the lab's byte models, and the
// grader, the batch's preparation, `run --submission` and the grading child bound to it. A lab's
// make_lab adds one per exercise:
//
//   lab.exercises.push_back(labrun::exercise_entry(lab, day48::grading::halfway_exercise(), ...));

#include "exercise/exercise.hpp"
#include "exercise/submission_run.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! `exercise` checked and bound to `lab`: its lab's name set, its worked answer's correct values
//! (WorkedModel, BytesHint) taken from the lab's cases. Throws std::invalid_argument when the
//! exercise names a case `lab` does not declare, declares no kernel, probe, device side or judge,
//! is not timed against the case it is measured against, or its rubric is not one row per check
//! (rubric.hpp).
[[nodiscard]] Exercise bound_exercise(const Lab& lab, Exercise exercise);

//! The entry the lab lists: bound_exercise, with its grader, batch preparation, `run --submission`
//! (where `submission_case` declares one) and grading child. Throws as bound_exercise does.
[[nodiscard]] LabExercise exercise_entry(const Lab& lab, Exercise exercise,
                                         const SubmissionCase& submission_case);

//! The declaration an entry was made from (exercise_entry), bound to its lab; nullptr for an entry
//! that exercise_entry did not make.
[[nodiscard]] const Exercise* declaration_of(const LabExercise& entry);

}  // namespace labrun
