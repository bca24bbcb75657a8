#pragma once
// The day-48 exercise, declared (exercise/exercise.hpp): fuse the chain half way, one kernel for
// stages 1 and 2 and a second for stages 3 and 4, with one intermediate between them, and work out
// the pair's bytes per element and both ratios. Its contract for students is grading/submission.cuh;
// docs/grading.md says how it is graded. Host code only; its device side is child.cpp and checks.cu.

#include <memory>

#include "exercise/child_session.hpp"
#include "exercise/exercise.hpp"
#include "registry/lab.hpp"

namespace day48::grading {

inline constexpr const char* kExerciseName = "halfway-pair";
//! Stages 1 and 2: (const float* x, float* intermediate, std::size_t n).
inline constexpr const char* kFirstKernel = "halfway_stages_1_2";
//! Stages 3 and 4: (const float* intermediate, const float* residual, float* y, std::size_t n).
inline constexpr const char* kSecondKernel = "halfway_stages_3_4";
//! Absolute and relative tolerance of every output against its float64 reference, as in the lab.
inline constexpr double kTolerance = 1e-5;
//! A wrong composition is named when it matches at least this share of the elements.
inline constexpr double kCompositionMatchShare = 0.999;

//! The exercise: contract, manifest, sizes, rubric, wording, judge, lab cases.
[[nodiscard]] labrun::Exercise halfway_exercise();

//! The exercise as day48-fusion lists it (labrun_register_exercise in the lab's CMakeLists.txt).
[[nodiscard]] labrun::LabExercise halfway_entry(const labrun::Lab& lab);

//! Its device side in the grading child: the pair's buffers, the three probes, the timed calls.
[[nodiscard]] std::unique_ptr<labrun::ExerciseChild> halfway_child(labrun::ChildSession& session);

}  // namespace day48::grading
