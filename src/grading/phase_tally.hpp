#pragma once
// Where a batch's time goes: each grading's phases (GradeReport::phase_seconds) in five classes,
// compile, check, wait, time and sanitize, summarised as medians over the gradings so far, for the
// batch's progress line. Host logic only; not thread-safe (the batch guards it).

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace labrun {

enum class PhaseClass : std::size_t { kCompile, kCheck, kWait, kTime, kSanitize, kOther };
inline constexpr std::size_t kPhaseClasses = 6;

//! The class of a phase as grader.cpp names them: "compiling"; "checking", "child" (a run with no
//! turns), "grading alone"; "waiting ..." of every kind; "timing"; "sanitizing" (a tool's own
//! "sanitizing: memcheck" is inside "sanitizing" and is kOther, as are "timing: sampling" and the
//! other parts of "timing" (worker_pool.hpp's add_timing_phases), and "finishing after timing": a grading
//! worker writing the results and checking its context once the timing turn is given back).
[[nodiscard]] PhaseClass phase_class(const std::string& phase);

class PhaseTally {
 public:
  //! One grading's phases, seconds each.
  void add(const std::vector<std::pair<std::string, double>>& phases);
  //! The median over the gradings added of each class's seconds per grading.
  [[nodiscard]] double median(PhaseClass phase) const;
  [[nodiscard]] std::size_t gradings() const { return per_grading_[0].size(); }
  //! "compile 0.57 · check 0.74 · wait 0.20 · time 0.30 · sanitize 0.44 s per grading (medians)";
  //! empty before any grading.
  [[nodiscard]] std::string line() const;

 private:
  std::array<std::vector<double>, kPhaseClasses> per_grading_;
};

}  // namespace labrun
