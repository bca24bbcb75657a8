#pragma once
// What `labrun grade` asks a lab's grader to do with one submission.

#include <cstdint>
#include <filesystem>

namespace labrun {

struct GradeRequest {
  std::filesystem::path submission;  //!< the student's source file
  std::filesystem::path manifest;    //!< empty: the manifest beside the submission
  std::uint64_t seed = 48;           //!< inputs' seed (a secret one for graders)
  double compile_limit_seconds = 120.0;
  double run_limit_seconds = 60.0;  //!< for the grading child; a hung kernel is killed at this limit
  std::filesystem::path child;      //!< the grading child program; empty: beside this executable
};

}  // namespace labrun
