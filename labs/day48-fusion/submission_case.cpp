#include "submission_case.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "case_names.hpp"
#include "cases/fill.hpp"
#include "chain_constants.hpp"
#include "declarations.hpp"
#include "exercise/submission_row.hpp"
#include "lab.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace day48 {
namespace {

// Both kernels' grids at one n.
struct PlannedPair {
  labrun::LaunchPlan first;
  labrun::LaunchPlan second;
};

// Enqueues stage 1-2 (x -> intermediate) then stage 3-4 (intermediate, residual -> y) on `stream`,
// as the grading child does, without synchronising.
void launch_pair(const labrun::StudentKernels& kernels, const PlannedPair& plans, const float* x,
                 float* intermediate, const float* residual, float* y, std::size_t n, cudaStream_t stream) {
  std::size_t count = n;
  void* first[] = {&x, &intermediate, &count};
  kernels.launch(0, first, plans.first, stream);
  void* second[] = {&intermediate, &residual, &y, &count};
  kernels.launch(1, second, plans.second, stream);
}

// The student's pair joins the lab's declaration: checked against the float64 chain, compared bit
// for bit with the staged chain, and timed at part 2's sizes with the manifest's bytes.
labrun::Lab declare(const labrun::SubmissionDeclaration& submission) {
  ChainDeclaration chain = declare_chain();
  const ChainIds ids = chain.ids;
  const std::shared_ptr<labrun::StudentKernels> kernels = submission.kernels;
  const labrun::RegionBuilder region = [kernels, ids](labrun::RegionContext& ctx,
                                                      std::uint64_t n) -> std::function<void()> {
    const ChainBuffers b = ids.on(ctx);
    const cudaStream_t s = ctx.stream();
    const PlannedPair plans{kernels->planned(0, n), kernels->planned(1, n)};  // refuses a shape it cannot run
    return [kernels, plans, b, n, s] { launch_pair(*kernels, plans, b.x, b.halfway, b.residual, b.y, n, s); };
  };
  const labrun::CheckId check = chain.lab.check(chain.chain_check(kSubmissionCheck, region));
  chain.lab.compare_bitwise(check, chain.staged);
  labrun::CaseSpec spec;
  spec.name = cases::kSubmission;
  spec.part = "part2";
  spec.label = "yours: the submission's half-way pair";
  spec.model = submission.model;
  spec.sizes = {{"lesson", kLessonElements}, {"card-scaled", 0}};
  chain.lab.add_case(labrun::CaseDeclaration{spec, check, region,
                                             [kernels](std::uint64_t n) { return kernels->attributes(n); }});
  return labrun::lab_with_submission_row(
      submission, chain.lab,
      {{"staged over yours (submission)", cases::kStagedChain, cases::kSubmission},
       {"yours over fused (submission)", cases::kSubmission, cases::kFusedChain}});
}

// Runs the pair once at each size on seeded inputs, each within kTrialSeconds, before the harness
// relies on it.
void trial(const labrun::StudentKernels& kernels, const std::vector<std::uint64_t>& sizes,
           std::uint64_t seed) {
  const std::uint64_t capacity = *std::max_element(sizes.begin(), sizes.end());
  const labrun::DeviceBuffer<float> x(capacity);
  const labrun::DeviceBuffer<float> residual(capacity);
  const labrun::DeviceBuffer<float> intermediate(capacity);
  const labrun::DeviceBuffer<float> y(capacity);
  labrun::fill_seeded_uniform(x.data(), capacity, seed, kInputStream, kInputLow, kInputHigh, nullptr);
  labrun::fill_seeded_uniform(residual.data(), capacity, seed, kResidualStream, -kResidualSpan, kResidualSpan,
                              nullptr);
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  labrun::trial_at_sizes(sizes, "the submission's pair", [&](std::uint64_t n) {
    const PlannedPair plans{kernels.planned(0, n), kernels.planned(1, n)};
    launch_pair(kernels, plans, x.data(), intermediate.data(), residual.data(), y.data(), n, nullptr);
  });
}

}  // namespace

labrun::SubmissionCase halfway_submission_case() {
  return labrun::SubmissionCase{declare, trial};
}

}  // namespace day48
