#pragma once
// `labrun grade`: one submission or a folder of them, with reports written for every one.

#include <functional>
#include <ostream>
#include <string>

#include "grading/grade_request.hpp"
#include "registry/lab.hpp"

namespace labrun {

struct GradeCommand {
  std::string submission;  //!< one .cu file, or empty with `batch`
  std::string batch;       //!< a folder of submission folders
  std::string manifest;
  std::string out;            //!< where results.json, report.json and report.md go
  std::string format = "md";  //!< what to print: md, json or gradescope
  bool secret_seed = false;   //!< a fresh seed from /dev/urandom per submission, kept out of reports
  bool seed_given = false;    //!< --seed was on the command line
  bool force = false;
  GradeRequest request;
};

//! Checks the command's usage before anything touches a device: throws UsageError.
void check_grade_usage(const GradeCommand& command);

//! Grades and writes the reports. Exit status: 0 graded (whatever the score); 3 no usable GPU (the
//! reports are still written, scoring 0 with a message for staff); 1 the grader could not run; 4 a
//! report file exists and --force was not given.
int run_grade_command(const Lab& lab, GradeCommand command,
                      const std::function<void(const std::string&)>& progress, std::ostream& out);

}  // namespace labrun
