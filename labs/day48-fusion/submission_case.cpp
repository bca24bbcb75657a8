#include "submission_case.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "case_names.hpp"
#include "cases/fill.hpp"
#include "chain_constants.hpp"
#include "core/install_layout.hpp"
#include "declarations.hpp"
#include "device/device_info.hpp"
#include "grading/contract.hpp"
#include "grading/device_image.hpp"
#include "grading/manifest.hpp"
#include "grading/source_check.hpp"
#include "grading/submission_build.hpp"
#include "grading/submission_kernels.hpp"
#include "grading/utf8.hpp"
#include "lab.hpp"
#include "runner/runner.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace day48 {
namespace {

namespace fs = std::filesystem;
using labrun::SubmissionError;

// The folder's source and manifest, read and checked on the host.
struct Submission {
  fs::path source_path;
  std::string source;
  fs::path manifest_path;
  labrun::Manifest manifest;
  labrun::LaunchShape first_shape;
  labrun::LaunchShape second_shape;
};

fs::path single_source(const fs::path& folder) {
  std::vector<fs::path> sources;
  try {
    sources = labrun::submission_sources(folder);
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
                        std::to_string(sources.size()) + " .cu files (" + labrun::join(names, ", ") +
                        "): a submission is one .cu file");
}

// The manifest's worked answer gives the row its bytes and launches, so both must be usable; its
// other problems are reported and the run goes on.
labrun::Manifest read_worked_answer(const fs::path& source, const fs::path& manifest_path,
                                    const std::function<void(const std::string&)>& progress) {
  if (manifest_path.empty()) {
    throw SubmissionError(
        "no manifest beside " + source.string() + " (" + source.stem().string() +
        ".json or manifest.json): its bytes_per_element and launches are the row's byte model");
  }
  labrun::Manifest manifest;
  try {
    manifest = labrun::read_manifest(manifest_path, grading::kernel_names());
  } catch (const labrun::ManifestError& error) {
    throw SubmissionError(labrun::valid_utf8(error.what()));
  }
  if (!manifest.bytes_per_element || !manifest.launches) {
    throw SubmissionError("the manifest " + manifest_path.string() +
                          " needs a usable bytes_per_element and launches (the row's byte model): " +
                          labrun::valid_utf8(labrun::join(manifest.problems, "; ")));
  }
  for (const std::string& problem : manifest.problems) {
    progress("the manifest: " + labrun::valid_utf8(problem) + " (left out)");
  }
  return manifest;
}

// Ends the run with the source check's problems, each with its line, when there are any.
void refuse_if_any(const fs::path& source_path, const std::vector<labrun::SourceProblem>& problems) {
  if (problems.empty()) {
    return;
  }
  std::vector<std::string> lines;
  lines.reserve(problems.size());
  for (const labrun::SourceProblem& problem : problems) {
    lines.push_back((problem.line > 0 ? "line " + std::to_string(problem.line) + ": " : "") +
                    labrun::valid_utf8(problem.message));
  }
  throw SubmissionError("the grader's source check refuses " + source_path.string() + ": " +
                        labrun::join(lines, "; "));
}

Submission read_submission(const fs::path& folder, const std::function<void(const std::string&)>& progress) {
  Submission submission;
  submission.source_path = single_source(folder);
  submission.manifest_path = labrun::manifest_beside(submission.source_path);
  submission.manifest = read_worked_answer(submission.source_path, submission.manifest_path, progress);
  const auto shape_of = [&](const char* kernel) {
    const auto found = submission.manifest.kernels.find(kernel);
    if (found != submission.manifest.kernels.end()) {
      return found->second;
    }
    const labrun::LaunchShape fallback = grading::default_launch_shape();
    progress(std::string("the manifest gives no usable launch shape for ") + kernel + ": launched with " +
             fallback.describe());
    return fallback;
  };
  submission.first_shape = shape_of(grading::kFirstKernel);
  submission.second_shape = shape_of(grading::kSecondKernel);
  std::error_code error;
  if (fs::is_symlink(submission.source_path, error)) {
    throw SubmissionError(submission.source_path.string() +
                          " is a symbolic link, which the grader does not follow (it could name any file): "
                          "put the source file itself in the folder");
  }
  try {
    submission.source = labrun::read_regular_file(submission.source_path, labrun::kSubmissionMaxBytes);
  } catch (const std::exception& failure) {
    throw SubmissionError(labrun::valid_utf8(failure.what()));
  }
  refuse_if_any(
      submission.source_path,
      labrun::check_submission_source(submission.source, grading::include_policy(LABRUN_CUDA_INCLUDE_DIR)));
  return submission;
}

// The current device's architecture ("sm_90"). Throws labrun::NoDeviceError.
std::string device_architecture() {
  const labrun::DeviceAvailability availability = labrun::probe_devices();
  if (!availability.usable) {
    throw labrun::NoDeviceError("no usable CUDA device to compile and load the submission for: " +
                                availability.error);
  }
  int device = 0;
  cudaDeviceProp properties{};
  if (const cudaError_t error = cudaGetDevice(&device); error != cudaSuccess) {
    throw labrun::NoDeviceError("no usable CUDA device: " + labrun::describe_cuda_error(error));
  }
  if (const cudaError_t error = cudaGetDeviceProperties(&properties, device); error != cudaSuccess) {
    throw labrun::NoDeviceError("no usable CUDA device: " + labrun::describe_cuda_error(error));
  }
  return "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
}

// Both kernels' grids at one n.
struct PlannedPair {
  cudaKernel_t first = nullptr;
  cudaKernel_t second = nullptr;
  grading::LaunchPlan first_plan;
  grading::LaunchPlan second_plan;

  // Enqueues stage 1-2 (x -> intermediate) then stage 3-4 (intermediate, residual -> y) on
  // `stream`, as the grading child does, without synchronising.
  void launch(const float* x, float* intermediate, const float* residual, float* y, std::size_t n,
              cudaStream_t stream) const {
    std::size_t count = n;
    const float* first_in = x;
    float* first_out = intermediate;
    void* first_arguments[] = {&first_in, &first_out, &count};
    LABRUN_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(first), dim3(first_plan.blocks),
                                       dim3(first_plan.threads), first_arguments, 0, stream));
    const float* second_in = intermediate;
    const float* second_residual = residual;
    float* second_out = y;
    void* second_arguments[] = {&second_in, &second_residual, &second_out, &count};
    LABRUN_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(second), dim3(second_plan.blocks),
                                       dim3(second_plan.threads), second_arguments, 0, stream));
  }
};

// The student's compiled pair: loaded when the run's session opens (a context exists then), kept
// loaded until the lab that declared it is destroyed.
class StudentPair {
 public:
  StudentPair(std::string image, labrun::LaunchShape first_shape, labrun::LaunchShape second_shape)
      : image_(std::move(image)), first_shape_(first_shape), second_shape_(second_shape) {}
  ~StudentPair() {
    if (loaded_.library != nullptr) {
      LABRUN_CUDA_NOTHROW(cudaLibraryUnload(loaded_.library));
    }
  }
  StudentPair(const StudentPair&) = delete;
  StudentPair& operator=(const StudentPair&) = delete;

  // Loads the image in the current context (once). Throws SubmissionError for a kernel that is
  // missing or breaks the contract.
  void load() {
    if (loaded_.library != nullptr) {
      return;
    }
    loaded_ = grading::load_submission_kernels(image_);
    if (!loaded_.problem_kind.empty()) {
      std::string message = "the submission's kernels cannot be used (" + loaded_.problem_kind +
                            "): " + labrun::valid_utf8(loaded_.problem);
      if (!loaded_.kernels_found.empty()) {
        message += "; the image defines " + labrun::valid_utf8(labrun::join(loaded_.kernels_found, ", "));
      }
      throw SubmissionError(message);
    }
    int device = 0;
    LABRUN_CUDA_CHECK(cudaGetDevice(&device));
    LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, device));
  }

  // The grids at n from the manifest's shapes. Throws SubmissionError for a shape the kernel
  // cannot run.
  [[nodiscard]] PlannedPair planned(std::uint64_t n) const {
    PlannedPair pair{loaded_.first, loaded_.second,
                     grading::plan_kernel_launch(loaded_.first, first_shape_, n, sm_count_),
                     grading::plan_kernel_launch(loaded_.second, second_shape_, n, sm_count_)};
    for (const auto& [kernel, plan] : {std::pair{grading::kFirstKernel, pair.first_plan},
                                       std::pair{grading::kSecondKernel, pair.second_plan}}) {
      if (!plan.problem.empty()) {
        throw SubmissionError(std::string(kernel) + " at n = " + std::to_string(n) + ": " + plan.problem);
      }
    }
    return pair;
  }

  // Runs the pair once at each size on seeded inputs, each within kTrialSeconds, before the
  // harness relies on it. A CUDA error is a SubmissionError; a pair that does not finish ends the
  // process (a kernel that never ends cannot be unwound: freeing its buffers would wait for it).
  void trial(const std::vector<std::uint64_t>& sizes, std::uint64_t seed) const {
    const std::uint64_t capacity = *std::max_element(sizes.begin(), sizes.end());
    const labrun::DeviceBuffer<float> x(capacity);
    const labrun::DeviceBuffer<float> residual(capacity);
    const labrun::DeviceBuffer<float> intermediate(capacity);
    const labrun::DeviceBuffer<float> y(capacity);
    labrun::fill_seeded_uniform(x.data(), capacity, seed, kInputStream, kInputLow, kInputHigh, nullptr);
    labrun::fill_seeded_uniform(residual.data(), capacity, seed, kResidualStream, -kResidualSpan,
                                kResidualSpan, nullptr);
    LABRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    for (const std::uint64_t n : sizes) {
      const std::string where = "the submission's pair at n = " + std::to_string(n);
      try {
        planned(n).launch(x.data(), intermediate.data(), residual.data(), y.data(), n, nullptr);
      } catch (const labrun::CudaError& error) {
        throw SubmissionError(where + " could not be launched: " + error.what());
      }
      wait_for(where);
    }
  }

  [[nodiscard]] const grading::LoadedKernels& loaded() const { return loaded_; }

 private:
  static void wait_for(const std::string& where) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kTrialSeconds);
    while (true) {
      const cudaError_t state = cudaStreamQuery(nullptr);
      if (state == cudaSuccess) {
        return;
      }
      if (state != cudaErrorNotReady) {
        throw SubmissionError(where + " failed: " + labrun::describe_cuda_error(state) +
                              " (`labrun grade` names out-of-bounds accesses)");
      }
      if (std::chrono::steady_clock::now() > deadline) {
        std::cerr << "labrun: error: " << where << " had not finished after "
                  << static_cast<int>(kTrialSeconds) << " s: the run ends here\n";
        std::cerr.flush();
        std::_Exit(labrun::kSubmissionExitStatus);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

  std::string image_;
  labrun::LaunchShape first_shape_;
  labrun::LaunchShape second_shape_;
  grading::LoadedKernels loaded_;
  int sm_count_ = 0;
};

std::vector<labrun::Fact> submission_facts_of(const Submission& submission) {
  namespace facts = submission_facts;
  const labrun::Manifest& m = submission.manifest;
  std::vector<labrun::Fact> known{
      labrun::Fact::known(facts::kSource, labrun::valid_utf8(submission.source_path.string())),
      m.student_id.empty()
          ? labrun::Fact::unknown(facts::kStudentId, "the manifest gives no usable student_id")
          : labrun::Fact::known(facts::kStudentId, m.student_id),
      labrun::Fact::known(facts::kBytesPerElement, *m.bytes_per_element),
      labrun::Fact::known(facts::kLaunches, std::int64_t{*m.launches}),
      m.predicted_ratio_vs_staged
          ? labrun::Fact::known(facts::kPredictedVsStaged, *m.predicted_ratio_vs_staged)
          : labrun::Fact::unknown(facts::kPredictedVsStaged, "the manifest gives no usable prediction"),
      m.predicted_ratio_vs_fused
          ? labrun::Fact::known(facts::kPredictedVsFused, *m.predicted_ratio_vs_fused)
          : labrun::Fact::unknown(facts::kPredictedVsFused, "the manifest gives no usable prediction"),
      labrun::Fact::known(facts::kFirstLaunch, submission.first_shape.describe()),
      labrun::Fact::known(facts::kSecondLaunch, submission.second_shape.describe())};
  return known;
}

}  // namespace

labrun::Lab with_submission(const labrun::Lab& lab, const fs::path& folder,
                            const std::function<void(const std::string&)>& progress) {
  progress("checking the submission in " + folder.string() + " as `labrun grade` does");
  const Submission submission = read_submission(folder, progress);
  const std::string arch = device_architecture();
  const grading::ScratchFolder scratch;
  const grading::CompilerSetup setup = grading::grader_compiler_setup();
  const grading::SourceVerdict verdict =
      grading::check_before_compiling(submission.source, scratch.path(), setup, arch);
  if (!verdict.grader_problem.empty()) {
    throw SubmissionError(submission.source_path.string() +
                          " cannot be compiled safely here: " + verdict.grader_problem);
  }
  refuse_if_any(submission.source_path, verdict.problems);
  if (!verdict.compiler_stopped.empty()) {
    throw SubmissionError(submission.source_path.string() + " does not compile: " + verdict.compiler_stopped);
  }
  progress("compiling " + submission.source_path.string() + " to device code only for " + arch);
  const grading::DeviceCompile compile = grading::compile_to_cubin(scratch.path(), setup, arch);
  refuse_if_any(submission.source_path, compile.include_problems);
  if (!compile.image_refusal.empty()) {
    throw SubmissionError(submission.source_path.string() + " compiles, but its image is refused (" +
                          compile.image_refusal + "): " + compile.image_refusal_message);
  }
  if (!compile.compiled) {
    throw SubmissionError(submission.source_path.string() + " does not compile for " + arch + ": " +
                          labrun::valid_utf8(compile.messages));
  }
  auto pair = std::make_shared<StudentPair>(
      labrun::read_regular_file(scratch.path() / grading::kImageName, labrun::kDeviceImageMaxBytes),
      submission.first_shape, submission.second_shape);

  // The student's pair joins the lab's declaration: checked against the float64 chain, compared bit
  // for bit with the staged chain, and timed at part 2's sizes with the manifest's bytes.
  ChainDeclaration chain = declare_chain();
  const ChainIds ids = chain.ids;
  const labrun::RegionBuilder region = [pair, ids](labrun::RegionContext& ctx,
                                                   std::uint64_t n) -> std::function<void()> {
    const ChainBuffers b = ids.on(ctx);
    const PlannedPair planned = pair->planned(n);
    const cudaStream_t s = ctx.stream();
    return [planned, b, n, s] { planned.launch(b.x, b.halfway, b.residual, b.y, n, s); };
  };
  const labrun::CheckId check = chain.lab.check(chain.chain_check(kSubmissionCheck, region));
  chain.lab.compare_bitwise(check, chain.staged);
  labrun::CaseSpec spec;
  spec.name = cases::kSubmission;
  spec.part = "part2";
  spec.label = "yours: the submission's half-way pair";
  // The manifest gives the pair's traffic as one total; it is recorded as read bytes.
  spec.model = labrun::ByteModel{*submission.manifest.bytes_per_element, 0.0, *submission.manifest.launches};
  spec.sizes = {{"lesson", kLessonElements}, {"card-scaled", 0}};
  const labrun::AttributesBuilder attributes = [pair](std::uint64_t n) {
    const PlannedPair planned = pair->planned(n);
    std::map<std::string, double> values{{"first_kernel_blocks", planned.first_plan.blocks},
                                         {"first_kernel_threads_per_block", planned.first_plan.threads},
                                         {"second_kernel_blocks", planned.second_plan.blocks},
                                         {"second_kernel_threads_per_block", planned.second_plan.threads}};
    const std::vector<grading::KernelInfo>& kernels = pair->loaded().kernels;
    for (std::size_t k = 0; k < kernels.size() && k < 2; ++k) {
      const std::string prefix = k == 0 ? "first_kernel_" : "second_kernel_";
      values[prefix + "registers"] = kernels[k].registers;
      values[prefix + "local_bytes_per_thread"] = static_cast<double>(kernels[k].local_bytes);
    }
    return values;
  };
  chain.lab.add_case(labrun::CaseDeclaration{spec, check, region, attributes});
  const std::function<std::vector<labrun::Fact>()> lab_facts = chain.lab.lab_facts();
  const std::vector<labrun::Fact> added = submission_facts_of(submission);
  chain.lab.facts([lab_facts, added] {
    std::vector<labrun::Fact> all = lab_facts ? lab_facts() : std::vector<labrun::Fact>{};
    all.insert(all.end(), added.begin(), added.end());
    return all;
  });

  labrun::Lab derived = lab;
  derived.cases = chain.lab.case_specs();
  derived.predictions.push_back({"staged over yours (submission)", cases::kStagedChain, cases::kSubmission});
  derived.predictions.push_back({"yours over fused (submission)", cases::kSubmission, cases::kFusedChain});
  const auto open_declared = chain.lab.session_factory();
  const std::uint64_t correctness_elements = lab.correctness_elements;
  derived.open_session = [pair, open_declared, correctness_elements,
                          progress](const labrun::SessionConfig& config) {
    pair->load();
    const std::vector<std::uint64_t> sizes{correctness_elements,
                                           std::max(config.max_elements, correctness_elements)};
    progress("trying the submission's pair at n = " + std::to_string(sizes[0]) + " and " +
             std::to_string(sizes[1]) + " (at most " + std::to_string(static_cast<int>(kTrialSeconds)) +
             " s each)");
    pair->trial(sizes, config.seed);
    return open_declared(config);
  };
  return derived;
}

}  // namespace day48
