#pragma once
// Building a submission the grader's way: a private scratch folder, every program started through
// labrun-contain with a clean environment (process/process.hpp), and nvcc compiling the source to
// device code only (-cubin), so no host code of the submission is compiled into anything that
// runs. `labrun grade` (grader.cpp) and `labrun run day48-fusion --submission DIR`
// (submission_case.cpp) both build through here. docs/grading.md states the threat model.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "process/process.hpp"

namespace day48::grading {

//! The source's and the image's names inside the scratch folder.
inline constexpr const char* kSourceName = "submission.cu";
inline constexpr const char* kImageName = "submission.cubin";
//! Largest file nvcc may write (bytes).
inline constexpr std::uint64_t kCompilerFileSizeLimit = 512ull * 1024 * 1024;

//! A private temporary folder (mode 0700), removed with everything in it when it goes out of scope.
//! Throws std::runtime_error when it cannot be created.
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

//! How labrun starts a program on a submission's behalf: in `scratch`, with a minimal environment
//! (HOME and TMPDIR inside `scratch`, no JIT cache, CUDA_VISIBLE_DEVICES when given), a time limit
//! (seconds), a file-size limit (bytes) and a process limit.
[[nodiscard]] labrun::SpawnOptions contained(std::vector<std::string> argv, double limit_seconds,
                                             const std::filesystem::path& scratch,
                                             std::uint64_t file_size_limit,
                                             const std::string& visible_devices = {});

struct DeviceCompile {
  bool compiled = false;  //!< nvcc succeeded and wrote scratch/kImageName
  //! The compiler's messages about the submission's own lines (or how the compiler ended when it
  //! said nothing about them); empty when it compiled cleanly.
  std::string messages;
  double seconds = 0.0;  //!< wall time of the compile
};

//! Writes `source` (which has passed the source check) to scratch/kSourceName and compiles it with
//! this build's nvcc to scratch/kImageName for `arch` ("sm_90"), against the lab's staged headers
//! (`headers`), within `limit_seconds`. Throws only when the compiler cannot be started.
[[nodiscard]] DeviceCompile compile_to_cubin(const std::string& source, const std::filesystem::path& scratch,
                                             const std::filesystem::path& headers, const std::string& arch,
                                             double limit_seconds);

}  // namespace day48::grading
