#include "exercise/submission_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <utility>

#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "device/device_info.hpp"
#include "exercise/submission_build.hpp"
#include "grading/device_image.hpp"
#include "grading/manifest.hpp"
#include "grading/source_check.hpp"
#include "grading/utf8.hpp"
#include "runner/runner.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

namespace fs = std::filesystem;

// The folder's source and manifest, read and checked on the host.
struct Submission {
  fs::path source_path;
  std::string source;
  fs::path manifest_path;
  Manifest manifest;
  std::vector<LaunchShape> shapes;  // per kernel of the contract
};

fs::path single_source(const fs::path& folder) {
  std::vector<fs::path> sources;
  try {
    sources = submission_sources(folder);
  } catch (const fs::filesystem_error& error) {
    throw SubmissionError("cannot list the submission folder " + folder.string() + ": " +
                          error.code().message());
  }
  if (sources.size() == 1) {
    return sources.front();
  }
  if (sources.empty()) {
    throw SubmissionError("the submission folder " + folder.string() +
                          " holds no .cu file: a submission is one .cu file of device code and its manifest "
                          "(docs/grading.md)");
  }
  std::vector<std::string> names;
  names.reserve(sources.size());
  for (const fs::path& source : sources) {
    names.push_back(source.filename().string());
  }
  throw SubmissionError("the submission folder " + folder.string() + " holds " +
                        std::to_string(sources.size()) + " .cu files (" + join(names, ", ") +
                        "): a submission is one .cu file");
}

// The manifest's worked answer gives the row its bytes and launches, so both must be usable; its
// other problems are reported and the run goes on.
Manifest read_worked_answer(const Exercise& ex, const fs::path& source, const fs::path& manifest_path,
                            const std::function<void(const std::string&)>& progress) {
  if (manifest_path.empty()) {
    throw SubmissionError("no manifest beside " + source.string() + " (" + source.stem().string() +
                          ".json or manifest.json): its " + ex.bytes_key + " and " + ex.launches_key +
                          " are the row's byte model");
  }
  Manifest manifest;
  try {
    manifest = read_manifest(manifest_path, ex.manifest_schema());
  } catch (const ManifestError& error) {
    throw SubmissionError(valid_utf8(error.what()));
  }
  if (!manifest.answer(ex.bytes_key) || !manifest.answer(ex.launches_key)) {
    throw SubmissionError("the manifest " + manifest_path.string() + " needs a usable " + ex.bytes_key +
                          " and " + ex.launches_key +
                          " (the row's byte model): " + valid_utf8(join(manifest.problems, "; ")));
  }
  for (const std::string& problem : manifest.problems) {
    progress("the manifest: " + valid_utf8(problem) + " (left out)");
  }
  return manifest;
}

// Ends the run with the source check's problems, each with its line, when there are any.
void refuse_if_any(const fs::path& source_path, const std::vector<SourceProblem>& problems) {
  if (problems.empty()) {
    return;
  }
  std::vector<std::string> lines;
  lines.reserve(problems.size());
  for (const SourceProblem& problem : problems) {
    lines.push_back((problem.line > 0 ? "line " + std::to_string(problem.line) + ": " : "") +
                    valid_utf8(problem.message));
  }
  throw SubmissionError("the grader's source check refuses " + source_path.string() + ": " +
                        join(lines, "; "));
}

Submission read_submission(const Exercise& ex, const fs::path& folder,
                           const std::function<void(const std::string&)>& progress) {
  Submission submission;
  submission.source_path = single_source(folder);
  submission.manifest_path = manifest_beside(submission.source_path);
  submission.manifest = read_worked_answer(ex, submission.source_path, submission.manifest_path, progress);
  for (const ContractKernel& kernel : ex.kernels) {
    const auto found = submission.manifest.kernels.find(kernel.name);
    if (found != submission.manifest.kernels.end()) {
      submission.shapes.push_back(found->second);
      continue;
    }
    progress("the manifest gives no usable launch shape for " + kernel.name + ": launched with " +
             ex.default_shape.describe());
    submission.shapes.push_back(ex.default_shape);
  }
  std::error_code error;
  if (fs::is_symlink(submission.source_path, error)) {
    throw SubmissionError(submission.source_path.string() +
                          " is a symbolic link, which the grader does not follow (it could name any file): "
                          "put the source file itself in the folder");
  }
  try {
    submission.source = read_regular_file(submission.source_path, kSubmissionMaxBytes);
  } catch (const std::exception& failure) {
    throw SubmissionError(valid_utf8(failure.what()));
  }
  refuse_if_any(submission.source_path,
                check_submission_source(submission.source, exercise_include_policy(ex)));
  return submission;
}

// The current device's architecture ("sm_90"). Throws NoDeviceError.
std::string device_architecture() {
  const DeviceAvailability availability = probe_devices();
  if (!availability.usable) {
    throw NoDeviceError("no usable CUDA device to compile and load the submission for: " +
                        availability.error);
  }
  int device = 0;
  cudaDeviceProp properties{};
  if (const cudaError_t error = cudaGetDevice(&device); error != cudaSuccess) {
    throw NoDeviceError("no usable CUDA device: " + describe_cuda_error(error));
  }
  if (const cudaError_t error = cudaGetDeviceProperties(&properties, device); error != cudaSuccess) {
    throw NoDeviceError("no usable CUDA device: " + describe_cuda_error(error));
  }
  return "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
}

// "first_kernel_", "second_kernel_", then "kernel_3_" and on.
std::string kernel_prefix(std::size_t k) {
  return k == 0 ? "first_kernel_" : k == 1 ? "second_kernel_" : "kernel_" + std::to_string(k + 1) + "_";
}

std::vector<Fact> submission_facts(const Exercise& ex, const Submission& submission) {
  const Manifest& m = submission.manifest;
  std::vector<Fact> facts{
      Fact::known("submission_source", valid_utf8(submission.source_path.string())),
      m.student_id.empty() ? Fact::unknown("submission_student_id", "the manifest gives no usable student_id")
                           : Fact::known("submission_student_id", m.student_id),
      Fact::known("submission_" + ex.bytes_key, *m.answer(ex.bytes_key)),
      Fact::known("submission_" + ex.launches_key, static_cast<std::int64_t>(*m.answer(ex.launches_key)))};
  for (const PredictedRatio& ratio : ex.predictions) {
    const std::optional<double> value = m.answer(ratio.key);
    facts.push_back(
        value ? Fact::known("submission_" + ratio.key, *value)
              : Fact::unknown("submission_" + ratio.key, "the manifest gives no usable prediction"));
  }
  for (std::size_t k = 0; k < submission.shapes.size(); ++k) {
    facts.push_back(
        Fact::known("submission_" + kernel_prefix(k) + "launch", submission.shapes[k].describe()));
  }
  return facts;
}

}  // namespace

StudentKernels::StudentKernels(const Exercise& exercise, std::string image, std::vector<LaunchShape> shapes)
    : exercise_(exercise), image_(std::move(image)), shapes_(std::move(shapes)) {}

StudentKernels::~StudentKernels() {
  if (loaded_.library != nullptr) {
    LABRUN_CUDA_NOTHROW(cudaLibraryUnload(loaded_.library));
  }
}

void StudentKernels::load() {
  if (loaded_.library != nullptr) {
    return;
  }
  loaded_ = load_submission_kernels(image_, exercise_.kernels);
  if (!loaded_.problem_kind.empty()) {
    std::string message = "the submission's kernels cannot be used (" + loaded_.problem_kind +
                          "): " + valid_utf8(loaded_.problem);
    if (!loaded_.kernels_found.empty()) {
      message += "; the image defines " + valid_utf8(join(loaded_.kernels_found, ", "));
    }
    throw SubmissionError(message);
  }
  int device = 0;
  LABRUN_CUDA_CHECK(cudaGetDevice(&device));
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
}

LaunchPlan StudentKernels::planned(std::size_t kernel, std::uint64_t n) const {
  LaunchPlan plan = plan_kernel_launch(loaded_.handles.at(kernel), exercise_.kernels.at(kernel),
                                       shapes_.at(kernel), n, sm_count_);
  if (!plan.problem.empty()) {
    throw SubmissionError(exercise_.kernels.at(kernel).name + " at n = " + std::to_string(n) + ": " +
                          plan.problem);
  }
  return plan;
}

void StudentKernels::launch(std::size_t kernel, void** arguments, std::uint64_t n,
                            cudaStream_t stream) const {
  launch(kernel, arguments, planned(kernel, n), stream);
}

void StudentKernels::launch(std::size_t kernel, void** arguments, const LaunchPlan& plan,
                            cudaStream_t stream) const {
  LABRUN_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(loaded_.handles.at(kernel)),
                                     dim3(plan.blocks, plan.blocks_y), dim3(plan.threads, plan.threads_y),
                                     arguments, 0, stream));
}

void StudentKernels::wait_for(const std::string& where) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kTrialSeconds);
  while (true) {
    const cudaError_t state = cudaStreamQuery(nullptr);
    if (state == cudaSuccess) {
      return;
    }
    if (state != cudaErrorNotReady) {
      throw SubmissionError(where + " failed: " + describe_cuda_error(state) +
                            " (`labrun grade` names out-of-bounds accesses)");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      std::cerr << "labrun: error: " << where << " had not finished after " << static_cast<int>(kTrialSeconds)
                << " s: the run ends here\n";
      std::cerr.flush();
      std::_Exit(kSubmissionExitStatus);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

std::map<std::string, double> StudentKernels::attributes(std::uint64_t n) const {
  std::map<std::string, double> values;
  for (std::size_t k = 0; k < loaded_.kernels.size(); ++k) {
    const LaunchPlan plan = planned(k, n);
    const std::string prefix = kernel_prefix(k);
    values[prefix + "blocks"] = plan.blocks;
    values[prefix + "threads_per_block"] = plan.threads;
    values[prefix + "registers"] = loaded_.kernels[k].registers;
    values[prefix + "local_bytes_per_thread"] = static_cast<double>(loaded_.kernels[k].local_bytes);
  }
  return values;
}

Lab lab_with_submission(const Exercise& ex, const SubmissionCase& submission_case, const Lab& lab,
                        const fs::path& folder, const std::function<void(const std::string&)>& progress) {
  progress("checking the submission in " + folder.string() + " as `labrun grade` does");
  const Submission submission = read_submission(ex, folder, progress);
  const std::string arch = device_architecture();
  const ScratchFolder scratch;
  const CompilerSetup setup = grader_compiler_setup(ex);
  const SourceVerdict verdict = check_before_compiling(submission.source, scratch.path(), setup, {});
  if (!verdict.grader_problem.empty()) {
    throw SubmissionError(submission.source_path.string() +
                          " cannot be compiled safely here: " + verdict.grader_problem);
  }
  refuse_if_any(submission.source_path, verdict.problems);
  if (!verdict.compiler_stopped.empty()) {
    throw SubmissionError(submission.source_path.string() + " does not compile: " + verdict.compiler_stopped);
  }
  progress("compiling " + submission.source_path.string() + " to device code only for " + arch);
  const DeviceCompile compile = compile_to_cubin(scratch.path(), setup, arch);
  refuse_if_any(submission.source_path, compile.include_problems);
  if (!compile.image_refusal.empty()) {
    throw SubmissionError(submission.source_path.string() + " compiles, but its image is refused (" +
                          compile.image_refusal + "): " + compile.image_refusal_message);
  }
  if (!compile.compiled) {
    throw SubmissionError(submission.source_path.string() + " does not compile for " + arch + ": " +
                          valid_utf8(compile.messages));
  }
  auto kernels = std::make_shared<StudentKernels>(
      ex, read_regular_file(scratch.path() / kImageName, kDeviceImageMaxBytes), submission.shapes);
  // The manifest gives the traffic as one total; it is recorded as read bytes.
  const ByteModel model{*submission.manifest.answer(ex.bytes_key), 0.0,
                        static_cast<int>(*submission.manifest.answer(ex.launches_key))};
  Lab derived = submission_case.declare(
      SubmissionDeclaration{lab, kernels, submission.manifest, submission_facts(ex, submission), model});
  const auto open_declared = derived.open_session;
  const std::uint64_t correctness_elements = lab.correctness_elements;
  const auto trial = submission_case.trial;
  const std::string noun = ex.wording.submission_noun;
  derived.open_session = [kernels, open_declared, correctness_elements, trial, noun,
                          progress](const SessionConfig& config) {
    kernels->load();
    kernels->capacity = std::max(config.max_elements, correctness_elements);
    const std::vector<std::uint64_t> sizes{correctness_elements, kernels->capacity};
    progress("trying the submission's " + noun + " at n = " + std::to_string(sizes[0]) + " and " +
             std::to_string(sizes[1]) + " (at most " + std::to_string(static_cast<int>(kTrialSeconds)) +
             " s each)");
    trial(*kernels, sizes, config.seed);
    return open_declared(config);
  };
  return derived;
}

}  // namespace labrun
