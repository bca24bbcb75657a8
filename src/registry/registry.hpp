#pragma once
// The labs this build knows. Each lab registers itself with one line in its folder's CMakeLists.txt
// (labrun_add_lab or labrun_register_lab, labs/CMakeLists.txt), from which the build generates
// registered_labs.cpp. A lab is checked as it registers (check_lab): a lab with a mistake in its
// declaration is left out of the build's registry with the reason, and every other lab still works.

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "registry/lab.hpp"

namespace labrun {

//! A mistake in a lab's declaration, found when it registers: "lab 'day20-sobel-threshold':
//! claims[1] 'speedup-follows-traffic': size label 'card-scale' is not a size of ...".
class LabDeclarationError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

//! Checks everything a lab declares that a run would otherwise find late or never, and throws
//! LabDeclarationError naming the lab and the field for the first mistake:
//! - its name (lower-case letters, digits, '-'), its correctness size (odd; an image of odd width
//!   and height whose area it is, when correctness_shape is set);
//! - every case: named "<lab>/<part>/<name>" and declared once; its byte model (bytes per element
//!   finite and >= 0, at least one launch per execution, flops finite and >= 0 when declared) and
//!   launches per sample (>= 1); at least one size, each labelled (lower-case letters, digits, '-'),
//!   the card-scaled one labelled "card-scaled"; an image size's width x height its elements, and a
//!   case's sizes all images or none;
//! - every case's declared figures: each named once, with a unit, and a finite value or a formula;
//! - every claim: its id once, its cases declared (a bitwise claim: its versions are correctness
//!   versions of the lab's cases), its bound (a low or a high end, finite, >= 0 and in order; a
//!   not-faster claim's a low end only), its size label one that each case it reads declares (a
//!   claim at every size: its cases share a size), its ratio's expectation the byte ratio of the two
//!   cases' models where it is derived from them (byte_ratio_claim), no placeholder left in its
//!   statement;
//! - every prediction's cases declared, the faster one moving bytes and launching; the stability
//!   case, card figures and roofline cases declared, the roofline's compute case declaring flops.
void check_lab(const Lab& lab);

//! A lab, or one exercise of a lab, the registry left out, and why.
struct LeftOutLab {
  std::string name;    //!< the lab's name as registered (its folder)
  std::string reason;  //!< what was wrong, naming the field: a LabDeclarationError's message
  //! Empty: the whole lab. Otherwise the exercise left out (as its registration or declaration
  //! names it); its lab and the lab's other exercises are kept.
  std::string exercise;
};

//! "labrun: lab 'day20-sobel-threshold' left out of this build: <reason>" (or "labrun: exercise
//! 'E' of lab 'L' left out of this build: <reason>"): the one line every command prints (to standard
//! error) for each lab or exercise the registry left out.
[[nodiscard]] std::string left_out_line(const LeftOutLab& left_out);

class LabRegistry {
 public:
  //! Adds a lab after check_lab; throws LabDeclarationError for a mistake in it, and for a lab
  //! registered twice. An exercise of it that cannot be graded (no grader, another lab's, a name
  //! registered twice) is left out alone, recorded in left_out(), as are the lab's
  //! left_out_exercises.
  void add(Lab lab);
  //! Builds a lab with `make` and adds it; whatever `make` or `add` throws (a declaration that
  //! repeats a case, a mistake check_lab finds) leaves this lab out, recorded in left_out(), and
  //! throws nothing. `name` is the lab's registered name, for the record when `make` throws.
  void add_or_leave_out(const std::string& name, const std::function<Lab()>& make);
  [[nodiscard]] const Lab* find(const std::string& name) const;
  //! The exercise named "LAB/NAME", or "NAME" alone when one lab has it; nullptr when none does.
  [[nodiscard]] const LabExercise* find_exercise(const std::string& name) const;
  //! Every exercise of every lab, in lab order.
  [[nodiscard]] std::vector<const LabExercise*> exercises() const;
  [[nodiscard]] const std::vector<Lab>& labs() const { return labs_; }
  //! The labs add_or_leave_out left out, and the exercises add left out, in registration order.
  [[nodiscard]] const std::vector<LeftOutLab>& left_out() const { return left_out_; }

 private:
  std::vector<Lab> labs_;
  std::vector<LeftOutLab> left_out_;
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
