#pragma once
// What `labrun grade` asks a lab's grader to do with one submission.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "grading/batch_slots.hpp"
#include "grading/gpu_turns.hpp"

namespace labrun {

class GradingWorkers;   // exercise/worker_pool.hpp
class SanitizerScreen;  // exercise/sanitizer_screen.hpp
class CompileTurns;     // exercise/compile_turns.hpp

//! What the grader needs to know of a GPU before it creates any context on it.
struct GradingGpu {
  int major = 0;  //!< compute capability
  int minor = 0;
  std::uint64_t l2_bytes = 0;
  std::uint64_t memory_bytes = 0;
  int multiprocessors = 0;
  int max_threads_per_multiprocessor = 0;
};

struct GradeRequest {
  std::filesystem::path submission;  //!< the student's source file
  std::filesystem::path manifest;    //!< empty: the manifest beside the submission
  std::uint64_t seed = 48;           //!< inputs' seed (a secret one for graders)
  //! The compiler's limits: CPU seconds of each of its processes, and the wall clock of one compile
  //! (three times that: a compile waiting for a core behind others' is not at fault).
  double compile_limit_seconds = 60.0;
  //! The grading child's wall clock while it works; the time it waits for a turn on the GPU is not
  //! counted. A hung kernel is killed at this limit at the latest.
  double run_limit_seconds = 60.0;
  //! One launch of the submission's kernels longer than this is a hang, while checked and while timed.
  double kernel_time_limit_seconds = 2.0;
  //! The whole timing phase, while the grading holds the GPU to itself, longer than this is a hang.
  double timing_limit_seconds = 15.0;
  std::filesystem::path child;  //!< the grading child program; empty: beside this executable
  int device = 0;               //!< the GPU, as labrun numbers them (after CUDA_VISIBLE_DEVICES)
  //! CUDA_VISIBLE_DEVICES for the programs grading runs, naming that one GPU; empty: labrun's own.
  std::string visible_devices;
  //! Batch grading: the turns on that GPU shared with submissions graded beside this one (a
  //! submission's timing never overlaps their GPU work); null when it is graded alone.
  GpuTurns* turns = nullptr;
  //! Batch grading: that GPU's grading workers, which keep their CUDA contexts from one submission
  //! to the next (exercise/worker_pool.hpp); null: a one-shot child per grading.
  GradingWorkers* workers = nullptr;
  //! Batch grading: compute-sanitizer's screening of groups of submissions on that GPU
  //! (exercise/sanitizer_screen.hpp); null: every submission's tools run alone.
  SanitizerScreen* sanitizer_screen = nullptr;
  //! Batch grading: the batch's compile turns (exercise/compile_turns.hpp): a compile stopped at its
  //! wall clock beside others is compiled again with none beside it; null when graded alone.
  CompileTurns* compile_turns = nullptr;
  //! Batch grading: the batch's slots (grading/batch_slots.hpp); the grading holds one, and gives
  //! it up while it only waits for compute-sanitizer's verdict; null when it is graded alone.
  BatchSlots* slots = nullptr;
  //! What the lab's prepare_grading measured once for the batch on that GPU; empty when alone.
  nlohmann::ordered_json shared;
  //! Tests of the grading pipeline on a machine with no GPU: grade as if on this GPU, without asking
  //! CUDA, with `child` a stand-in for the grading child, and without compute-sanitizer (which needs
  //! the real GPU). The command line never sets it.
  std::optional<GradingGpu> simulated_gpu;
};

}  // namespace labrun
