#include "grading/grader.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/sizes.hpp"
#include "device/device_info.hpp"
#include "evidence/atomic_file.hpp"
#include "grading/child_results.hpp"
#include "grading/judge.hpp"
#include "grading/manifest.hpp"
#include "grading/process.hpp"
#include "runner/runner.hpp"

namespace day48::grading {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kCompilerOutputCap = 4000;
constexpr std::uint64_t kOddElements = 1049187;
constexpr std::uint64_t kSanitizerElements = 4099;  // small and odd
constexpr int kChildBuffers = 10;                   // buffers of the largest n the child allocates

// A temporary folder removed when it goes out of scope.
struct ScratchFolder {
  fs::path path;
  ScratchFolder() {
    std::string pattern = (fs::temp_directory_path() / "labrun-grade-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary folder for grading");
    }
    path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
};

fs::path child_program(const labrun::GradeRequest& request) {
  if (!request.child.empty()) {
    return request.child;
  }
  if (const char* from_environment = std::getenv("LABRUN_GRADE_CHILD")) {
    return from_environment;
  }
  return labrun::current_executable().parent_path() / kChildProgram;
}

// The card-scaled size if the card reports its L2 and the child's buffers fit, else the lesson's
// timed size.
std::uint64_t large_size(const labrun::DeviceSizing& sizing) {
  constexpr std::uint64_t kLessonElements = 16777216;
  if (sizing.l2_bytes == 0) {
    return kLessonElements;
  }
  const std::uint64_t card = labrun::card_scaled_elements(sizing.l2_bytes, 4, 8);
  return labrun::fits_in_device_memory(card * 4 * kChildBuffers, sizing.free_memory_bytes) ? card
                                                                                           : kLessonElements;
}

SanitizerRun sanitize(const fs::path& sanitizer, const std::string& tool, const fs::path& child,
                      const fs::path& library, double limit) {
  const labrun::ProcessResult run = labrun::run_with_limit(
      {sanitizer.string(), "--tool", tool, "--error-exitcode", "99", child.string(), "--library",
       library.string(), "--sanitize", "--odd", std::to_string(kSanitizerElements)},
      limit);
  SanitizerRun result;
  result.tool = tool;
  std::string summary;
  std::size_t at = run.output.rfind("SUMMARY:");
  if (at != std::string::npos) {
    const std::size_t end = run.output.find('\n', at);
    summary = run.output.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
  result.clean = run.succeeded() && (summary.empty() || summary.find(" 0 errors") != std::string::npos ||
                                     summary.find(" 0 hazards") != std::string::npos);
  result.summary = summary.empty() ? run.describe() : summary + " (" + run.describe() + ")";
  return result;
}

}  // namespace

labrun::GradeReport grade_submission(const labrun::GradeRequest& request,
                                     const std::function<void(const std::string&)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (!fs::is_regular_file(request.submission)) {
    throw labrun::UsageError("no submission file " + request.submission.string());
  }
  const labrun::DeviceAvailability availability = labrun::probe_devices();
  if (!availability.usable) {
    throw labrun::NoDeviceError("no usable CUDA device: " + availability.error);
  }
  const fs::path child = child_program(request);
  if (!fs::exists(child)) {
    throw std::runtime_error("the grading child " + child.string() +
                             " is missing (build the labrun target set)");
  }
  const fs::path nvcc = LABRUN_NVCC;
  const labrun::DeviceSizing sizing = labrun::read_device_sizing();

  JudgeInput input;
  input.submission = request.submission.string();
  input.run_limit_seconds = request.run_limit_seconds;
  const fs::path manifest_path =
      request.manifest.empty() ? labrun::manifest_beside(request.submission) : request.manifest;
  if (manifest_path.empty()) {
    input.manifest_problem = "none given and none beside the submission (" +
                             request.submission.stem().string() + ".json or manifest.json)";
  } else {
    try {
      input.manifest = labrun::read_manifest(manifest_path);
    } catch (const labrun::ManifestError& error) {
      input.manifest_problem = error.what();
    }
  }

  const fs::path sanitizer = labrun::find_on_path("compute-sanitizer");
  input.sanitizer_available = !sanitizer.empty();
  const ScratchFolder scratch;
  fs::copy_file(request.submission, scratch.path / "submission.cu");
  const fs::path library = scratch.path / "submission.so";
  const labrun::CudaCapability capability = labrun::read_compute_capability();
  progress("compiling " + request.submission.string() + " for sm_" + std::to_string(capability.major) +
           std::to_string(capability.minor));
  const labrun::ProcessResult compile = labrun::run_with_limit(
      {nvcc.string(), "-std=c++17", "-O3",
       "-arch=sm_" + std::to_string(capability.major) + std::to_string(capability.minor), "-Xcompiler",
       "-fPIC", "-shared", "-cudart", "shared", "-Xlinker", std::string("-rpath=") + LABRUN_CUDA_LIBRARY_DIR,
       "-I", LABRUN_DAY48_SOURCE_DIR, "-o", library.string(), "submission.cu"},
      request.compile_limit_seconds, scratch.path, kCompilerOutputCap);
  input.compiled = compile.succeeded() && fs::exists(library);
  input.compiler_output = compile.timed_out ? "the compiler " + compile.describe() : compile.output;
  if (input.compiled) {
    const fs::path results_path = scratch.path / "results.json";
    const std::uint64_t large = large_size(sizing);
    progress("running it at n = " + std::to_string(kOddElements) + " and " + std::to_string(large) +
             " in a child process (limit " + std::to_string(static_cast<int>(request.run_limit_seconds)) +
             " s)");
    input.child =
        labrun::run_with_limit({child.string(), "--library", library.string(), "--results",
                                results_path.string(), "--seed", std::to_string(request.seed), "--odd",
                                std::to_string(kOddElements), "--card", std::to_string(large)},
                               request.run_limit_seconds);
    if (fs::exists(results_path)) {
      try {
        input.results =
            child_results_from_json(nlohmann::ordered_json::parse(labrun::read_file(results_path)));
      } catch (const std::exception& error) {
        progress(std::string("the child's report could not be read: ") + error.what());
      }
    }
    if (input.sanitizer_available && input.results && input.results->completed) {
      for (const char* tool : {"memcheck", "racecheck"}) {
        progress(std::string("compute-sanitizer ") + tool + " at n = " + std::to_string(kSanitizerElements));
        input.sanitizers.push_back(sanitize(sanitizer, tool, child, library, request.run_limit_seconds));
      }
    }
  }
  input.seconds = elapsed();
  labrun::GradeReport report = judge(input);
  report.execution_seconds = elapsed();
  if (input.results) {
    report.raw = to_json(*input.results);
  }
  return report;
}

}  // namespace day48::grading
