#pragma once
// The labs this build knows. Each lab registers itself with one line in its folder's CMakeLists.txt
// (labrun_register_lab, labs/CMakeLists.txt), from which the build generates registered_labs.cpp.

#include <string>
#include <vector>

#include "registry/lab.hpp"

namespace labrun {

class LabRegistry {
 public:
  //! Adds a lab; throws std::invalid_argument on a duplicate lab or case name, a case whose name
  //! does not start with "<lab>/", or a claim (other than a bitwise one, which names versions),
  //! prediction, stability case or card figure that names a case the lab does not declare.
  void add(Lab lab);
  [[nodiscard]] const Lab* find(const std::string& name) const;
  //! The exercise named "LAB/NAME", or "NAME" alone when one lab has it; nullptr when none does.
  [[nodiscard]] const LabExercise* find_exercise(const std::string& name) const;
  //! Every exercise of every lab, in lab order.
  [[nodiscard]] std::vector<const LabExercise*> exercises() const;
  [[nodiscard]] const std::vector<Lab>& labs() const { return labs_; }

 private:
  std::vector<Lab> labs_;
};

//! The cases of `lab` selected by any of the patterns (all cases when there are none), in the
//! lab's declared order.
[[nodiscard]] std::vector<const CaseSpec*> select_cases(const Lab& lab,
                                                        const std::vector<std::string>& patterns);

//! The patterns that select no case of `lab`, in the order given.
[[nodiscard]] std::vector<std::string> patterns_matching_nothing(const Lab& lab,
                                                                 const std::vector<std::string>& patterns);

//! Every lab linked into this build. Defined in the generated registered_labs.cpp (labs/CMakeLists.txt), so
//! only code linked with the labs (the command line, tests) may call it; the harness itself takes a Lab.
[[nodiscard]] const LabRegistry& registered_labs();

}  // namespace labrun
