#include "exercise/submission_build.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "core/install_layout.hpp"
#include "core/wall_clock.hpp"
#include "grading/compiler_messages.hpp"
#include "grading/device_image.hpp"
#include "grading/included_files.hpp"
#include "process/sandbox.hpp"

namespace labrun {
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kProcessLimit = 4096;  // processes and threads of this user, per child tree
constexpr std::size_t kDependencyListMaxBytes = std::size_t{4} * 1024 * 1024;
constexpr std::size_t kCompilerOutputMaxBytes = std::size_t{16} * 1024 * 1024;

std::vector<std::string> child_environment(const fs::path& scratch, const std::string& visible_devices) {
  // HOME and TMPDIR point into the scratch folder, so nothing is written anywhere else; no JIT cache.
  std::vector<std::string> extra{"HOME=" + scratch.string(), "TMPDIR=" + scratch.string(),
                                 "CUDA_CACHE_DISABLE=1", "LC_ALL=C"};
  if (!visible_devices.empty()) {
    extra.push_back("CUDA_VISIBLE_DEVICES=" + visible_devices);
  }
  return minimal_environment(extra);
}

// The toolkit nvcc belongs to: the folder above its bin/ (/usr/local/cuda for /usr/local/cuda/bin/nvcc).
// `nvcc` must be the toolkit's own, never a wrapper in another folder: the build defines LABRUN_NVCC
// so (cmake/toolkit_nvcc.cmake).
fs::path toolkit_root(const fs::path& nvcc) {
  return nvcc.parent_path().parent_path();
}

// `argv` in the sandbox: the toolkit, the CUDA include folder and the lab's headers read-only,
// scratch writable, under labrun-contain with the compiler's limits.
SpawnOptions sandboxed(const std::vector<std::string>& argv, const fs::path& scratch,
                       const CompilerSetup& setup) {
  SandboxView view;
  view.read_only = {toolkit_root(setup.nvcc), setup.cuda_include};
  if (!setup.lab_headers.empty()) {
    view.read_only.push_back(setup.lab_headers);
  }
  view.writable = scratch;
  const std::vector<std::string> inside{"PATH=/usr/bin:/bin", "HOME=" + scratch.string(),
                                        "TMPDIR=" + scratch.string(), "LC_ALL=C", "CUDA_CACHE_DISABLE=1"};
  SpawnOptions options;
  options.argv = sandbox_command(sandbox_program(), view, inside, argv);
  options.limit_seconds = setup.wall_seconds;
  options.working_directory = scratch;
  options.environment = minimal_environment();
  options.limits.file_size_bytes = setup.file_size_bytes;
  options.limits.processes = kProcessLimit;
  options.limits.address_space_bytes = setup.memory_bytes;
  options.limits.cpu_seconds = static_cast<std::uint64_t>(setup.cpu_seconds);
  options.limits.tree_cpu_seconds = static_cast<std::uint64_t>(setup.cpu_seconds);
  // Room for the preprocessor's trace of the headers it opens (a few thousand lines where a source
  // includes thrust), which the checks read whole.
  options.output_cap = kCompilerOutputMaxBytes;
  return options;
}

// The compile's flags, shared by the include check and the compile so that both preprocess alike
// (-O3 defines __OPTIMIZE__, which a source may test). -H makes the host preprocessor trace every
// header it opens, as it opens it (included_files.hpp).
std::vector<std::string> nvcc_flags(const CompilerSetup& setup) {
  std::vector<std::string> flags{"-std=c++17", "-O3", "-Xcompiler", "-H"};
  if (!setup.lab_headers.empty()) {
    flags.insert(flags.end(), {"-I", setup.lab_headers.string()});
  }
  flags.insert(flags.end(), {"-I", setup.cuda_include.string()});
  return flags;
}

// One device pass per architecture: "-arch=sm_90" for one, a -gencode for each of several.
std::vector<std::string> architecture_flags(const std::vector<std::string>& archs) {
  if (archs.size() == 1) {
    return {"-arch=" + archs.front()};
  }
  std::vector<std::string> flags;
  for (const std::string& arch : archs) {
    const std::string number = arch.rfind("sm_", 0) == 0 ? arch.substr(3) : arch;
    std::string gencode = "arch=compute_";
    gencode.append(number).append(",code=sm_").append(number);
    flags.insert(flags.end(), {"-gencode", gencode});
  }
  return flags;
}

// "the lab's grading/submission.cuh, stages.cuh and chain_constants.hpp, a few standard headers and
// CUDA's own": what a submission may include, in words.
std::string allowed_in_words(const IncludePolicy& policy) {
  std::string lab;
  for (std::size_t i = 0; i < policy.quoted.size(); ++i) {
    lab += (i == 0 ? "" : i + 1 == policy.quoted.size() ? " and " : ", ") + policy.quoted[i];
  }
  return (lab.empty() ? std::string() : "the lab's " + lab + ", ") + "a few standard headers and CUDA's own";
}

AllowedIncludes allowed_includes(const fs::path& scratch, const CompilerSetup& setup) {
  AllowedIncludes allowed;
  allowed.files.push_back(scratch / kSourceName);
  for (const std::string& name : setup.policy.quoted) {
    allowed.files.push_back(setup.lab_headers / name);
  }
  allowed.trees.push_back(setup.cuda_include);
  allowed.trees.push_back(toolkit_root(setup.nvcc) / "include");  // nvcc's own, which it includes itself
  return allowed;
}

// What the submission's own #include lines may open: the policy's names, as the files they are.
DirectIncludes direct_includes(const CompilerSetup& setup) {
  DirectIncludes direct;
  for (const std::string& name : setup.policy.quoted) {
    direct.files.push_back(setup.lab_headers / name);
  }
  direct.trees = setup.policy.angled_roots;
  direct.trees.push_back(toolkit_root(setup.nvcc) / "include");  // cuda_runtime.h, which nvcc includes
  direct.system_names = setup.policy.angled;
  direct.system_names.emplace_back("stdc-predef.h");  // GCC's own, before the first line
  return direct;
}

// One problem per file: its path, never its contents, and the line of the submission that names it
// where one does. `verb`: "opens" (a file outside the allowed set the preprocessor read), "tries
// to open" (a file it reached for and could not open: one that does not exist in the sandbox, as
// nothing outside the allowed set does but the system's own files, or one it may not read), or
// "includes" (a file the policy does not name, which the source's own #include opened).
std::vector<SourceProblem> describe_includes(const std::vector<fs::path>& files, const std::string& verb,
                                             const std::string& source, const IncludePolicy& policy) {
  std::vector<SourceProblem> problems;
  for (const fs::path& file : files) {
    const int line = line_including(source, file);
    problems.push_back({line,
                        "compiling it " + verb + " " + file.string() +
                            (line > 0 ? "" : " (through a macro or a header it includes)") +
                            ", which a submission may not reach: it may include only " +
                            allowed_in_words(policy),
                        kIncludeNotAllowed});
  }
  return problems;
}

// Every file a compiler run read or reached for, by its own account (its dependency list when it
// wrote one, its -H trace, the files it could not open and the files its messages are located in),
// against what the submission may reach: the allowed set, and for the submission's own includes the
// policy's names.
std::vector<SourceProblem> files_problems(const std::string& output,
                                          const std::optional<std::string>& dependencies,
                                          const std::string& source, const fs::path& scratch,
                                          const CompilerSetup& setup) {
  const CompilerFileRecord record = files_named_by_compiler(output);
  std::vector<std::string> opened = record.located;
  for (const TracedFile& traced : record.opened) {
    opened.push_back(traced.path);
  }
  if (dependencies) {
    if (const std::optional<std::vector<std::string>> listed = make_rule_prerequisites(*dependencies)) {
      opened.insert(opened.end(), listed->begin(), listed->end());
    }
  }
  std::vector<SourceProblem> problems = describe_includes(
      files_not_allowed(opened, scratch, allowed_includes(scratch, setup)), "opens", source, setup.policy);
  std::vector<fs::path> not_opened;
  for (const std::string& name : record.not_opened) {
    not_opened.emplace_back(name);
  }
  for (SourceProblem& problem : describe_includes(not_opened, "tries to open", source, setup.policy)) {
    problems.push_back(std::move(problem));
  }
  if (problems.empty()) {
    problems = describe_includes(direct_includes_not_allowed(record.opened, scratch, direct_includes(setup)),
                                 "includes", source, setup.policy);
  }
  return problems;
}

std::optional<std::string> read_dependencies(const fs::path& scratch) {
  try {
    return read_regular_file(scratch / kDependencyName, kDependencyListMaxBytes);
  } catch (const std::runtime_error&) {
    return std::nullopt;  // a run that stopped early may write none
  }
}

// Whether a compiler run ended at one of its limits rather than on an error in the source: killed
// at its wall clock, by a signal (SIGXCPU past its CPU seconds), or out of memory.
bool stopped_at_a_limit(const ProcessResult& run) {
  if (run.timed_out || run.signal != 0) {
    return true;
  }
  for (const char* said : {"died due to signal", "signal terminated program", "out of memory",
                           "memory exhausted", "std::bad_alloc"}) {
    if (run.output.find(said) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// `argv` in the sandbox, in the batch's compile turns (exercise/compile_turns.hpp): a run stopped
// at its wall clock beside other compiles runs again with none beside it, the files named in
// `leftovers` (in scratch) removed first; `again` says whether it did.
ProcessResult run_compiler(const std::vector<std::string>& argv, const fs::path& scratch,
                           const CompilerSetup& setup, std::initializer_list<const char*> leftovers,
                           bool& again) {
  return run_compiler_in_turn(
      setup.turns, [&] { return run_contained(sandboxed(argv, scratch, setup)); },
      [&] {
        std::error_code ignored;
        for (const char* name : leftovers) {
          fs::remove(scratch / name, ignored);
        }
      },
      again);
}

// "60 s of CPU, 4 GiB of memory a process": the compile's limits.
std::string compiler_limits(const CompilerSetup& setup);

// "the compile was stopped at the compiler's limits (...): ...", for `what` ("the compile"), a run
// that stopped at one of them; `again`: it was the second run, with no other compile beside it.
std::string stopped_at_limits(const std::string& what, const ProcessResult& run, const CompilerSetup& setup,
                              bool again) {
  return what + " was stopped at the compiler's limits (" + compiler_limits(setup) +
         "): " + (run.timed_out ? run.describe() : last_output_line(run.output)) +
         (again ? " (compiled again with no other compile beside it, after the first was stopped at its "
                  "wall clock beside others)"
                : "");
}

std::string compiler_limits(const CompilerSetup& setup) {
  return std::to_string(static_cast<int>(setup.cpu_seconds)) + " s of CPU, " +
         std::to_string(setup.memory_bytes >> 30) + " GiB of memory a process";
}

std::string source_in(const fs::path& scratch) {
  return read_regular_file(scratch / kSourceName, kSubmissionMaxBytes);
}

}  // namespace

ScratchFolder::ScratchFolder() {
  // Registered before it exists: no signal can leave it behind (base/temporary_files.hpp).
  try {
    CreatedTemporary created =
        create_registered_folder((fs::temp_directory_path() / "labrun-grade-").string());
    path_ = created.path;
    registered_.emplace(std::move(created.registered));
  } catch (const std::system_error& error) {
    throw std::runtime_error("cannot create a temporary folder for grading: " + error.code().message());
  }
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

SpawnOptions contained(std::vector<std::string> argv, double limit_seconds, const fs::path& scratch,
                       std::uint64_t file_size_limit, const std::string& visible_devices) {
  SpawnOptions options;
  options.argv = std::move(argv);
  options.limit_seconds = limit_seconds;
  options.working_directory = scratch;
  options.environment = child_environment(scratch, visible_devices);
  options.limits.file_size_bytes = file_size_limit;
  options.limits.processes = kProcessLimit;
  return options;
}

IncludePolicy include_policy(const std::vector<std::string>& quoted, const fs::path& cuda_include_dir) {
  IncludePolicy policy;
  policy.quoted = quoted;
  policy.angled = {"cstddef",     "cstdint", "climits",  "cfloat",   "cmath",
                   "type_traits", "limits",  "stddef.h", "stdint.h", "math.h"};
  // CUDA's own headers, and the C++ libraries it ships under include/cccl (cuda/std, cub, thrust),
  // which nvcc puts on the include path itself.
  policy.angled_roots = {cuda_include_dir, cuda_include_dir / "cccl"};
  return policy;
}

IncludePolicy exercise_include_policy(const Exercise& exercise) {
  return include_policy(exercise.quoted_headers, LABRUN_CUDA_INCLUDE_DIR);
}

CompilerSetup grader_compiler_setup(const Exercise& exercise, double cpu_seconds) {
  CompilerSetup setup;
  setup.cpu_seconds = cpu_seconds;
  setup.wall_seconds = 3.0 * cpu_seconds;
  setup.nvcc = LABRUN_NVCC;
  setup.cuda_include = LABRUN_CUDA_INCLUDE_DIR;
  if (!exercise.header_folder.empty()) {
    setup.lab_headers = find_data_file(exercise.header_folder);
  }
  setup.policy = exercise_include_policy(exercise);
  return setup;
}

SourceVerdict check_before_compiling(const std::string& source, const fs::path& scratch,
                                     const CompilerSetup& setup, const std::vector<std::string>& archs) {
  SourceVerdict verdict;
  verdict.problems = check_submission_source(source, setup.policy);
  if (!verdict.problems.empty()) {
    return verdict;
  }
  if (const SandboxAvailability& sandbox = sandbox_availability(); !sandbox.usable) {
    verdict.grader_problem = sandbox.problem;
    return verdict;
  }
  write_file_atomically(scratch / kSourceName, source, true);
  if (archs.empty()) {
    return verdict;  // the compile checks what it opens itself
  }
  std::error_code ignored;
  fs::remove(scratch / kDependencyName, ignored);
  std::vector<std::string> argv{setup.nvcc.string(), "-M"};
  for (std::string& flag : nvcc_flags(setup)) {
    argv.push_back(std::move(flag));
  }
  for (std::string& flag : architecture_flags(archs)) {
    argv.push_back(std::move(flag));
  }
  argv.insert(argv.end(), {"-MF", kDependencyName, kSourceName});
  bool again = false;
  const ProcessResult listed = run_compiler(argv, scratch, setup, {kDependencyName}, again);
  if (const std::optional<std::string> failed = sandbox_failure(listed.output)) {
    verdict.grader_problem = "the compiler sandbox did not start (" + *failed + ")";
    return verdict;
  }
  // Whether it finished or not: a file the preprocessor opened and then stopped in (a script, a
  // binary, one it was killed in) is in its trace.
  verdict.problems = files_problems(listed.output, read_dependencies(scratch), source, scratch, setup);
  if (verdict.problems.empty() && !listed.succeeded() && stopped_at_a_limit(listed)) {
    verdict.compiler_stopped = stopped_at_limits("the preprocessor", listed, setup, again);
  } else if (verdict.problems.empty() && listed.succeeded() && !read_dependencies(scratch)) {
    verdict.grader_problem = "nvcc -M wrote no dependency list that can be read";
  }
  // Otherwise a preprocessor that stopped (#error, a bad directive) stops the compile the same way,
  // and its messages say why.
  return verdict;
}

std::vector<std::string> toolkit_architectures(const CompilerSetup& setup) {
  static const std::vector<std::string> listed = [&] {
    SpawnOptions options;
    options.argv = {setup.nvcc.string(), "--list-gpu-arch"};
    options.limit_seconds = 60.0;
    options.environment = minimal_environment();
    const ProcessResult run = run_contained(options);
    std::vector<std::string> archs;
    std::istringstream lines(run.output);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("compute_", 0) == 0 && line.size() > 8 &&
          std::all_of(line.begin() + 8, line.end(),
                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
        archs.push_back("sm_" + line.substr(8));
      }
    }
    return archs;
  }();
  return listed.empty() ? std::vector<std::string>{kArchitectureWithoutGpu} : listed;
}

DeviceCompile compile_to_cubin(const fs::path& scratch, const CompilerSetup& setup, const std::string& arch) {
  std::error_code ignored;
  fs::remove(scratch / kDependencyName, ignored);
  const auto since = std::chrono::steady_clock::now();
  // Device code only (-cubin): no host code of the submission is compiled into anything that runs.
  // -lineinfo adds the line table, so that compute-sanitizer's reports name the submission's lines
  // ("in submission.cu:18"); it changes no instruction (the .text sections of every corpus
  // submission's sm_90 image are byte for byte the same with it and without it).
  std::vector<std::string> argv{setup.nvcc.string(), "-cubin", "-lineinfo"};
  for (std::string& flag : nvcc_flags(setup)) {
    argv.push_back(std::move(flag));
  }
  argv.insert(argv.end(), {"-arch=" + arch, "-MD", "-MF", kDependencyName, "-o", kImageName, kSourceName});
  bool again = false;
  const ProcessResult compile = run_compiler(argv, scratch, setup, {kDependencyName, kImageName}, again);
  DeviceCompile result;
  result.seconds = seconds_since(since);
  if (const std::optional<std::string> failed = sandbox_failure(compile.output)) {
    throw std::runtime_error("the compiler sandbox did not start (" + *failed + ")");
  }
  // Everything this compile opened or reached for, by its own account, whether it finished or not:
  // the same check as before compiling, on the compile that made the image.
  result.include_problems =
      files_problems(compile.output, read_dependencies(scratch), source_in(scratch), scratch, setup);
  if (!result.include_problems.empty()) {
    return result;  // neither its messages nor its image are used
  }
  result.compiled = compile.succeeded() && fs::is_regular_file(scratch / kImageName);
  if (!result.compiled && stopped_at_a_limit(compile)) {
    // A compile bomb, in the submission's own text or an allowed header's (a file outside them is
    // refused above).
    result.messages = stopped_at_limits("the compile", compile, setup, again);
  } else {
    result.messages = messages_about(without_include_trace(compile.output), kSourceName);
  }
  if (!result.compiled && result.messages.empty()) {
    result.messages = "the compiler " + compile.describe();
  }
  if (!result.compiled) {
    return result;
  }
  const std::uint64_t image_bytes = fs::file_size(scratch / kImageName, ignored);
  if (image_bytes > kDeviceImageMaxBytes) {
    result.compiled = false;
    result.image_refusal = "image-too-large";
    result.image_refusal_message =
        "the compiled device code is " + std::to_string(image_bytes >> 20) + " MiB, more than the " +
        std::to_string(kDeviceImageMaxBytes >> 20) +
        " MiB a submission may have: look for large initialised __device__ or __constant__ arrays and "
        "loops unrolled far beyond need";
    return result;
  }
  std::string unreadable;
  const std::optional<DeviceImageFootprint> footprint =
      device_image_footprint(read_regular_file(scratch / kImageName, kDeviceImageMaxBytes), unreadable);
  if (footprint) {
    for (const DeviceImageGlobal& global : footprint->globals) {
      result.globals.push_back({global.name, global.bytes});
    }
    result.shared_memory = footprint->any_shared_memory();
    result.synchronisation = footprint->any_synchronisation();
    result.outside_calls = footprint->outside_calls;
  }
  if (!footprint) {
    result.compiled = false;
    result.image_refusal = "image-too-large";
    result.image_refusal_message =
        "the compiled device code cannot be read as a device image (" + unreadable + ")";
  } else if (footprint->global_bytes > kStaticDeviceMemoryMaxBytes) {
    result.compiled = false;
    result.image_refusal = "device-memory-too-large";
    result.image_refusal_message =
        "the submission's global variables (__device__ and __managed__ arrays) would take " +
        std::to_string(footprint->global_bytes >> 20) + " MiB of the GPU's memory, more than the " +
        std::to_string(kStaticDeviceMemoryMaxBytes >> 20) +
        " MiB a submission may: the kernels work on the buffers the grader passes them and need no "
        "memory of their own";
  }
  return result;
}

}  // namespace labrun
