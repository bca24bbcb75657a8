#pragma once
// Building a submission the grader's way: a private scratch folder, every program started through
// labrun-contain with a clean environment (process/process.hpp), the compiler inside a sandbox in
// which only the allowed files exist (process/sandbox.hpp), the preprocessor's own list of the
// files it opened checked against the allowed set (grading/included_files.hpp), and nvcc compiling
// the source to device code only (-cubin), so no host code of the submission is compiled into
// anything that runs. `labrun grade` (grader.cpp) and `labrun run LAB --submission DIR`
// (submission_run.cpp) both build through here, for any exercise. docs/grading.md states the
// threat model.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/temporary_files.hpp"
#include "exercise/compile_turns.hpp"
#include "exercise/exercise.hpp"
#include "grading/source_check.hpp"
#include "process/process.hpp"

namespace labrun {

//! The source's, the image's and the dependency list's names inside the scratch folder.
inline constexpr const char* kSourceName = "submission.cu";
inline constexpr const char* kImageName = "submission.cubin";
inline constexpr const char* kDependencyName = "submission.d";

//! The device architecture assumed when nvcc does not list those it builds: the oldest CUDA 13 builds.
inline constexpr const char* kArchitectureWithoutGpu = "sm_75";

//! A private temporary folder (mode 0700), removed with everything in it when it goes out of scope,
//! and by labrun's signal handlers should a signal end labrun first (base/temporary_files.hpp).
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
  std::optional<RegisteredTemporary> registered_;
};

//! How labrun starts a program on a submission's behalf: in `scratch`, with a minimal environment
//! (HOME and TMPDIR inside `scratch`, no JIT cache, CUDA_VISIBLE_DEVICES when given), a time limit
//! (seconds), a file-size limit (bytes) and a process limit.
[[nodiscard]] SpawnOptions contained(std::vector<std::string> argv, double limit_seconds,
                                     const std::filesystem::path& scratch, std::uint64_t file_size_limit,
                                     const std::string& visible_devices = {});

//! What compiling a submission reads, and its limits. The defaults are the grader's.
struct CompilerSetup {
  std::filesystem::path nvcc;  //!< nvcc (its toolkit is bound into the sandbox)
  //! The lab's headers a submission compiles against (staged: find_data_file of the exercise's
  //! header_folder); empty when it has none.
  std::filesystem::path lab_headers;
  std::filesystem::path cuda_include;  //!< CUDA's include folder
  //! The text check's policy (include_policy for cuda_include); its quoted names, found under
  //! lab_headers, are the lab's files preprocessing may open.
  IncludePolicy policy;
  //! CPU seconds of one compiler run: of each of its processes (RLIMIT_CPU) and of all of them
  //! together (ChildLimits::tree_cpu_seconds), so that a compile's stages cannot add up to more
  double cpu_seconds = 60.0;
  //! wall clock of one compiler run, the whole tree killed past it. Nothing in the sandbox can make a
  //! compiler wait, so a run alone ends at its CPU seconds first; only a run starved of the CPU by
  //! others reaches its wall clock (compile_turns.hpp)
  double wall_seconds = 180.0;
  std::uint64_t memory_bytes = std::uint64_t{4} << 30;       //!< address space of each compiler process
  std::uint64_t file_size_bytes = std::uint64_t{256} << 20;  //!< largest file the compiler may write
  //! Batch grading: the batch's compile turns (exercise/compile_turns.hpp): a compiler run stopped
  //! at its wall clock beside other compiles runs again with none beside it; null when alone.
  CompileTurns* turns = nullptr;
};

//! What a submission may include: the lab's headers named in `quoted`, a few standard headers that
//! device code needs (cstddef, cstdint, climits, cfloat, cmath, type_traits, limits and their C
//! forms), and any header under CUDA's include folder or its include/cccl (cuda/std, cub, thrust).
[[nodiscard]] IncludePolicy include_policy(const std::vector<std::string>& quoted,
                                           const std::filesystem::path& cuda_include_dir);

//! The include policy of `exercise` with this build's CUDA include folder.
[[nodiscard]] IncludePolicy exercise_include_policy(const Exercise& exercise);

//! The grader's setup for `exercise`: this build's nvcc and CUDA include folder, the lab's staged
//! headers and the exercise's include policy; a compile's processes may use `cpu_seconds` of CPU
//! together, and a compile three times that of wall clock. Throws labrun::DataFileNotFound when the headers
//! are not found.
[[nodiscard]] CompilerSetup grader_compiler_setup(const Exercise& exercise, double cpu_seconds = 60.0);

//! The checks before any compile, none of which needs a GPU: the text check (source_check.hpp),
//! then, where `archs` names any architecture ("sm_90"), `nvcc -M` in the sandbox with the compile's
//! own flags, one device pass per architecture, and every file the preprocessor opened or reached
//! for by its own account (its dependency list, its trace of the headers it opens, the files it
//! could not open, the files its messages are located in), whether it finished or not, against the
//! allowed set; the files the source's own #include lines opened against the policy's names. With
//! no architecture, only the text check: compile_to_cubin makes the same checks on the compile.
//! Writes `source` to scratch/kSourceName. Every problem names what happened and, where it can, the
//! submission's line, never the contents of a file it reached.
struct SourceVerdict {
  std::vector<SourceProblem> problems;  //!< empty: it may be compiled
  //! Non-empty when a check could not run (no sandbox: it names what to install or enable); the
  //! submission must not be compiled, and is not at fault.
  std::string grader_problem;
  //! Non-empty when the preprocessor was stopped at one of the compiler's limits (CPU time, memory,
  //! wall clock: a compile bomb) in a file it may open: how it ended. The compile would end the same
  //! way, so it does not run, and this is the submission's compile error.
  std::string compiler_stopped;
};
[[nodiscard]] SourceVerdict check_before_compiling(const std::string& source,
                                                   const std::filesystem::path& scratch,
                                                   const CompilerSetup& setup,
                                                   const std::vector<std::string>& archs);

//! Every architecture this toolkit builds code for (`nvcc --list-gpu-arch`), as "sm_75": where no
//! GPU says which one a submission will be compiled for, the checks before compiling preprocess for
//! all of them, since a source may test __CUDA_ARCH__. Read once; kArchitectureWithoutGpu alone
//! when nvcc does not say.
[[nodiscard]] std::vector<std::string> toolkit_architectures(const CompilerSetup& setup);

struct DeviceCompile {
  bool compiled = false;  //!< nvcc succeeded, wrote scratch/kImageName, and the image may be loaded
  //! The compiler's messages about the submission's own lines (or how the compiler ended when it
  //! said nothing about them); empty when it compiled cleanly.
  std::string messages;
  //! Files the compile opened or reached for outside what a submission may reach, by the compile's
  //! own account (the same checks as before compiling, on the compile that made the image): the
  //! image is not used.
  std::vector<SourceProblem> include_problems;
  //! Why the image may not be loaded although it compiled ("image-too-large",
  //! "device-memory-too-large"), with the sentence for the student; empty when it may.
  std::string image_refusal;
  std::string image_refusal_message;
  //! The image's named global variables (grading/device_image.hpp), for an exercise that watches them.
  std::vector<ImageGlobal> globals;
  //! What compute-sanitizer's tools have to check in the image (grading/device_image.hpp): static
  //! shared memory (racecheck's), and barriers or warp-synchronous instructions (synccheck's).
  //! True where the image does not say.
  bool shared_memory = true;
  bool synchronisation = true;
  //! The driver's device-side calls the image makes (DeviceImageFootprint::outside_calls: malloc,
  //! vprintf, __assertfail...); nullopt where the image was not read. A grading worker is reused
  //! only after an image known to make none (exercise/worker_pool.hpp).
  std::optional<std::vector<std::string>> outside_calls;
  double seconds = 0.0;  //!< wall time of the compile
};

//! Compiles scratch/kSourceName (written by check_before_compiling, which it must have passed) in
//! the sandbox with nvcc to scratch/kImageName for `arch` ("sm_90"), checks every file it opened or
//! reached for (as check_before_compiling does, whether it finished or not), and reads the image:
//! its size, the device memory its variables take, and what its functions give compute-sanitizer's
//! tools to check (grading/device_image.hpp). Throws only when the compiler cannot be started (the sandbox
//! did not start: a grader's problem, not the submission's).
[[nodiscard]] DeviceCompile compile_to_cubin(const std::filesystem::path& scratch, const CompilerSetup& setup,
                                             const std::string& arch);

}  // namespace labrun
