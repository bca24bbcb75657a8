#pragma once
// What `labrun grade` asks a lab's grader to do with one submission.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "grading/gpu_turns.hpp"

namespace labrun {

struct GradeRequest {
  std::filesystem::path submission;  //!< the student's source file
  std::filesystem::path manifest;    //!< empty: the manifest beside the submission
  std::uint64_t seed = 48;           //!< inputs' seed (a secret one for graders)
  double compile_limit_seconds = 120.0;
  double run_limit_seconds = 60.0;  //!< for the grading child; a hung kernel is killed at this limit
  std::filesystem::path child;      //!< the grading child program; empty: beside this executable
  int device = 0;                   //!< the GPU, as labrun numbers them (after CUDA_VISIBLE_DEVICES)
  //! CUDA_VISIBLE_DEVICES for the programs grading runs, naming that one GPU; empty: labrun's own.
  std::string visible_devices;
  //! Batch grading: the turns on that GPU shared with submissions graded beside this one (a
  //! submission's timing never overlaps their GPU work); null when it is graded alone.
  GpuTurns* turns = nullptr;
  //! What the lab's prepare_grading measured once for the batch on that GPU; empty when alone.
  nlohmann::ordered_json shared;
};

}  // namespace labrun
