#pragma once
// `labrun run LAB --submission DIR`: a student's submission as one more timed row of the lab, built
// the grader's way for any exercise. The folder holds one .cu file and its manifest, as
// `labrun grade` takes them (docs/grading.md). The source passes the grader's source check and the
// checks before compiling, is compiled to device code only (-cubin) in the sandbox, and its kernels
// are loaded with the CUDA library API and launched by the harness with the manifest's launch
// shapes (exercise/submission_build.hpp, exercise/submission_kernels.hpp): no host code of the
// submission runs. The row's byte model is the manifest's worked answer. Where the kernels go in
// the lab's declaration is the exercise's SubmissionCase.
//
// It runs the kernels in labrun's own process, so it trusts the student not to attack their own
// run, and checks far less than `grade`: it gives a student their row, not a grade.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "exercise/exercise.hpp"
#include "exercise/submission_kernels.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! Seconds the trial run of the submission's kernels may take at one size before the run is ended.
inline constexpr double kTrialSeconds = 10.0;

//! The submission's compiled kernels: loaded when the run's session opens (a context exists then),
//! kept loaded until the lab that declared them is destroyed.
class StudentKernels {
 public:
  StudentKernels(const Exercise& exercise, std::string image, std::vector<LaunchShape> shapes);
  ~StudentKernels();
  StudentKernels(const StudentKernels&) = delete;
  StudentKernels& operator=(const StudentKernels&) = delete;

  //! Loads the image in the current context (once). Throws SubmissionError for a kernel that is
  //! missing or breaks the contract.
  void load();
  //! The grid of kernel `k` at n from the manifest's shape. Throws SubmissionError for a shape the
  //! kernel cannot run.
  [[nodiscard]] LaunchPlan planned(std::size_t kernel, std::uint64_t n) const;
  //! Enqueues kernel `k` with `arguments` at n on `stream`, without synchronising. Throws CudaError.
  void launch(std::size_t kernel, void** arguments, std::uint64_t n, cudaStream_t stream) const;
  //! The same with its grid planned already (a timed region plans once, not per launch).
  void launch(std::size_t kernel, void** arguments, const LaunchPlan& plan, cudaStream_t stream) const;
  //! Waits for the legacy stream at most kTrialSeconds. A CUDA error is a SubmissionError; work that
  //! does not finish ends the process with exit status 7 (a kernel that never ends cannot be unwound:
  //! freeing its buffers would wait for it).
  static void wait_for(const std::string& where);
  //! The grids and resources of every kernel at n, as a case's attributes: "first_kernel_blocks",
  //! "first_kernel_threads_per_block", "first_kernel_registers", "first_kernel_local_bytes_per_thread",
  //! then "second_kernel_..." and so on.
  [[nodiscard]] std::map<std::string, double> attributes(std::uint64_t n) const;
  [[nodiscard]] const LoadedKernels& loaded() const { return loaded_; }
  //! The largest n the run times it at (set as the session opens, for buffers sized by the grid).
  std::uint64_t capacity = 0;

 private:
  const Exercise& exercise_;
  std::string image_;
  std::vector<LaunchShape> shapes_;
  LoadedKernels loaded_;
  int sm_count_ = 0;
};

//! What the exercise's SubmissionCase is given: the lab, the kernels, the manifest's worked answer
//! (bytes per element and launches usable), and the facts the transcript records about it.
struct SubmissionDeclaration {
  const Lab& lab;
  std::shared_ptr<StudentKernels> kernels;
  const Manifest& manifest;
  std::vector<Fact> facts;
  //! The row's byte model: the manifest's bytes per element (recorded as read) and launches.
  ByteModel model;
};

//! How an exercise's submission becomes a case of its lab.
struct SubmissionCase {
  //! The lab with the submission declared as one more case, its check, predictions and facts.
  std::function<Lab(const SubmissionDeclaration&)> declare;
  //! One call of the kernels at each of `sizes` on buffers of its own, each waited on with
  //! StudentKernels::wait_for (the trial run before the harness relies on it).
  std::function<void(const StudentKernels&, const std::vector<std::uint64_t>& sizes, std::uint64_t seed)>
      trial;
};

//! Lab::exercises' with_submission for `exercise`: `lab` with the submission in `folder` declared as
//! one more case by `submission_case`. Source, manifest and folder problems are found before any GPU
//! is touched. Throws SubmissionError, NoDeviceError, std::runtime_error (a missing compiler or
//! header folder). The returned lab's session loads the kernels and runs the trial at the correctness
//! size and at the run's largest size before anything else.
[[nodiscard]] Lab lab_with_submission(const Exercise& exercise, const SubmissionCase& submission_case,
                                      const Lab& lab, const std::filesystem::path& folder,
                                      const std::function<void(const std::string&)>& progress);

}  // namespace labrun
