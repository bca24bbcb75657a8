// fusion-verdicts' graded exercise, declared (src/exercise/reduction_exercise.hpp): the chapter's
// "elementwise then reduction: fuse with care", the square folded into the sum's loads, per-block
// partial sums of x[i]^2 and a finishing step, with no array of n squares ever written. A
// submission is two kernels (the skeleton, grading/skeleton/sum_of_squares.cu):
//
//   extern "C" __global__ void sum_of_squares_partials(const float* x, float* partials, std::size_t n);
//   extern "C" __global__ void sum_of_squares_finish(const float* partials, float* sum, std::size_t blocks);
//
// The first is launched with the manifest's shape over n; block b stores the sum of x[i]^2 over the
// elements it covers in partials[b] (the blocks together cover [0, n) once), and nothing else. The
// second is launched as one block of its shape's threads and stores the total of partials[0,
// blocks) in *sum, `blocks` being the first launch's grid. Everything here is the lab's: its cases,
// its folded kernel as the reference, its words, its rubric; the harness grades it.
// docs/grading.md ("The sum-of-squares exercise") says how.

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "../case_names.hpp"
#include "../constants.hpp"
#include "../declarations.hpp"
#include "../kernels.hpp"
#include "../reference.hpp"
#include "cases/fill.hpp"
#include "exercise/exercise_entry.hpp"
#include "exercise/reduction_exercise.hpp"
#include "exercise/submission_row.hpp"
#include "timing/device_buffer.hpp"

namespace verdicts::grading {
namespace {

//! Relative tolerance of `labrun run fusion-verdicts --submission`'s row, whose inputs are the lab's
//! own (uniform): the grader's calls get counted inputs, whose sums are exact (docs/grading.md, "The
//! tolerance").
constexpr double kSumTolerance = 1e-3;

// The lab's buffers for its timed cases, in lab_buffers' order: the squares (mid), the copy's
// output (y), the partial sums and the sum.
Workspace workspace(const float* x, const labrun::LabBufferPointers& lab) {
  static const unsigned blocks = reduction_grid().blocks;
  Workspace w;
  w.x = const_cast<float*>(x);  // the lab's cases read x and never write it
  w.mid = lab[0];
  w.y = lab[1];
  w.partials = lab[2];
  w.sum = lab[3];
  w.reduction_blocks = blocks;
  return w;
}

std::size_t reduction_blocks(std::size_t /*n*/) {
  return std::max(reduction_grid().blocks, 1u);
}

labrun::ReductionDeclaration declaration() {
  labrun::ReductionDeclaration d;
  d.term = labrun::CountedTerm::kSquare;
  d.words = {"x", "partials", "partial sum", "sum", "squares"};
  // The reference is the lab's folded kernel, exact on the grader's counted inputs.
  d.reference = [](const float* x, float* sum, float* partials, std::size_t n, cudaStream_t stream) {
    launch_sum_folded(workspace(x, {nullptr, nullptr, partials, sum}), n, stream);
  };
  d.reference_scratch = reduction_blocks;
  d.lab_inputs = [](float* x, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
    labrun::fill_seeded_uniform(x, n, seed, kInputStream, kInputLow, kInputHigh, stream);
  };
  const auto per_element = [](std::size_t n) { return n; };
  d.lab_buffers = {{"squares", per_element},
                   {"copy", per_element},
                   {"partials", reduction_blocks},
                   {"sum", [](std::size_t) { return std::size_t{1}; }}};
  // Exercise::lab_cases' order: two kernels, the lab's folded kernel, the copy floor.
  d.launch_lab_case = [](std::size_t index, const float* x, const labrun::LabBufferPointers& lab,
                         std::size_t n, cudaStream_t stream) {
    const Workspace w = workspace(x, lab);
    if (index == 0) {
      launch_sum_two_kernels(w, n, stream);
    } else if (index == 1) {
      launch_sum_folded(w, n, stream);
    } else {
      launch_copy_floor(w, n, stream);
    }
  };
  d.after_lab_case = 0;
  return d;
}

// `labrun run fusion-verdicts --submission DIR`: the submission beside the lab's own cases.
void launch_pair(const labrun::StudentKernels& kernels, const labrun::LaunchPlan& first,
                 const labrun::LaunchPlan& second, const float* x, float* partials, float* sum, std::size_t n,
                 cudaStream_t stream) {
  std::size_t elements = n;
  std::size_t blocks = first.blocks;
  void* first_arguments[] = {&x, &partials, &elements};
  void* second_arguments[] = {&partials, &sum, &blocks};
  kernels.launch(0, first_arguments, first, stream);
  kernels.launch(1, second_arguments, second, stream);
}

labrun::Lab declare_submission(const labrun::SubmissionDeclaration& submission) {
  labrun::LabDeclaration lab = declare_lab();
  const std::shared_ptr<labrun::StudentKernels> kernels = submission.kernels;
  const labrun::BufferId x = lab.input("submission-x", kInputStream, kInputLow, kInputHigh);
  const labrun::BufferId partials = lab.output("submission-partials", [kernels] {
    return std::size_t{kernels->planned(0, kernels->capacity).blocks};
  });
  const labrun::BufferId sum = lab.output("submission-sum", [] { return std::size_t{1}; });
  const labrun::RegionBuilder region = [kernels, x, partials, sum](labrun::RegionContext& ctx,
                                                                   std::uint64_t n) {
    const labrun::LaunchPlan first = kernels->planned(0, n);
    const labrun::LaunchPlan second = kernels->planned(1, n);
    const float* in = ctx[x];
    float* partial_sums = ctx[partials];
    float* total = ctx[sum];
    const cudaStream_t s = ctx.stream();
    return std::function<void()>([kernels, first, second, in, partial_sums, total, n, s] {
      launch_pair(*kernels, first, second, in, partial_sums, total, n, s);
    });
  };
  const labrun::CheckId check = lab.check({"submission-sum-of-squares", region, sum,
                                           [x](const labrun::HostInputs& inputs, std::uint64_t) {
                                             return std::vector<double>{sum_of_squares_reference(inputs[x])};
                                           },
                                           labrun::Tolerance{0.0, kSumTolerance}});
  const std::string name = case_name(kSumPart, "submission");
  lab.add_case({labrun::CaseSpec{name,
                                 kSumPart,
                                 "yours: the submission's sum of squares",
                                 submission.model,
                                 "",
                                 {{"lesson", kLessonElements}, {"card-scaled", 0}}},
                check, region, [kernels](std::uint64_t n) { return kernels->attributes(n); }});
  labrun::Lab derived =
      labrun::lab_with_submission_row(submission, lab,
                                      {{"two kernels over yours (submission)", cases::kSumTwoKernels, name},
                                       {"yours over folded (submission)", name, cases::kSumFolded}});
  derived.buffers_at_max_size += 1;  // the submission's own x
  return derived;
}

void trial(const labrun::StudentKernels& kernels, const std::vector<std::uint64_t>& sizes,
           std::uint64_t seed) {
  const std::uint64_t capacity = *std::max_element(sizes.begin(), sizes.end());
  const labrun::DeviceBuffer<float> x(capacity), partials(kernels.planned(0, capacity).blocks), sum(1);
  labrun::fill_seeded_uniform(x.data(), capacity, seed, kInputStream, kInputLow, kInputHigh, nullptr);
  labrun::trial_at_sizes(sizes, "the submission's kernels", [&](std::uint64_t n) {
    launch_pair(kernels, kernels.planned(0, n), kernels.planned(1, n), x.data(), partials.data(), sum.data(),
                n, nullptr);
  });
}

labrun::Exercise sum_of_squares() {
  labrun::Exercise ex;
  ex.name = "sum-of-squares";
  ex.title =
      "elementwise then reduction, fused with care: the sum of x squared, the square folded into the loads";
  ex.summary =
      "two kernels of device code, the partial sums and the finish, and a manifest with the worked answer";
  ex.kernels = {
      {"sum_of_squares_partials",
       {labrun::pointer_parameter("x", "const float*"), labrun::pointer_parameter("partials", "float*"),
        labrun::scalar_parameter<std::size_t>("n", "std::size_t")},
       false},
      {"sum_of_squares_finish",
       {labrun::pointer_parameter("partials", "const float*"), labrun::pointer_parameter("sum", "float*"),
        labrun::scalar_parameter<std::size_t>("blocks", "std::size_t")},
       true}};
  ex.skeleton = "labs/fusion-verdicts/grading/skeleton/sum_of_squares.cu";
  ex.answers = {{"bytes_per_element", false, 1000.0}, {"launches", true, 64.0}};
  ex.model_case = cases::kSumFolded;
  // Slow is over 4 times the lab's folded kernel, not day 48's 1.5: a reduction's speed depends on
  // its grid and its finish as well as its bytes, and the lab's kernel is a tuned one (about 4.1 TB/s
  // on the H200 at 2^27). On the H200 (2026-12-02) a grid-stride pair with warp shuffles took 1.62
  // times its time and a float4 one 2.76, while one element per thread with a one-block finish over
  // 2^19 partials took 10.2 and a shared atomic per element 49.
  ex.slow_factor = 4.0;
  ex.predictions = {{"predicted_ratio_vs_two_kernels", "the two kernels", cases::kSumTwoKernels, "",
                     "two kernels / yours"}};
  ex.lab_cases = {{"two_kernels_ms", "lab's two kernels", cases::kSumTwoKernels, false},
                  {"folded_ms", "lab's folded kernel", cases::kSumFolded, false},
                  {"copy_floor_ms", "copy floor", cases::kCopy, true}};
  ex.reference_case_key = "folded_ms";
  // x guarded, the lab's squares and its copy's output: 3 buffers of the largest n (the partial
  // sums, the sum and the reference's are small). A correct submission reads 4 bytes per element and writes
  // none, so the card's read-only stream, not its copy, bounds how fast it can be (judge.hpp).
  ex.child_buffers = 3;
  ex.timed_call_buffers = 2;  // x with its guards (the rest of a timed call's is small), rounded up
  ex.default_seed = 2;

  labrun::ExerciseWording& w = ex.wording;
  w.contract = "the contract (docs/grading.md, the skeleton sum_of_squares.cu)";
  w.parameters = "two pointers and a std::size_t each";
  w.submit = "the two kernels' device code";
  w.includes = "a few standard headers and CUDA's own";
  w.submission_noun = "pair";
  w.reference_name = "the lab's own folded kernel";
  w.slow_hint = "Look at the loads (consecutive threads should read consecutive elements) and the grid";
  w.timed_hint = "compute the whole sum from x on every call";
  w.bytes_breakdown = "(x read once; the partial sums are one float per block, not per element)";
  w.bytes_hint = "count what is read and written per element: x is read once and no square is stored";
  w.bytes_hints = {
      {cases::kSumTwoKernels, 0.0,
       "12 is the two-kernel version's: the square written and read back is what folding removes"}};
  w.launches_sentence = "the pair is 2 kernels: the partial sums and the finish";
  w.correct_summary =
      "right at both sizes, one partial sum per block and a finish, nothing outside the buffers "
      "changed";
  w.structure_part = "the partial sums and the finish";
  ex.rubric = labrun::exercise_rubric(
      {{"Correct at the odd size 1,049,187: alone, after the lab's version, and again", 10.0,
        "the sum exact on counted inputs drawn anew for each call, alone, after the lab's two kernels, and "
        "on "
        "the first call's inputs again"},
       {"Correct at the card-scaled size, likewise", 5.0,
        "the same at the card-scaled size (calls that are not timed)"},
       {"Partial sums and a finishing step, no array of squares", 5.0,
        "every block writes its partial sum, the partials add up to the sum in every call, timed ones "
        "included, no n words of the kernels' own memory written, the finish follows planted partials with x "
        "replaced"},
       {"Writes only its partials and its sum, leaves x alone", 5.0,
        "in every call, timed ones included: guards intact around x, the partials and the sum, nothing else "
        "the grader owns changed, x unchanged"}},
      ex.wording.reference_name, ex.slow_factor, ex.predictions.size());
  return labrun::reduction_exercise(std::move(ex), declaration());
}

}  // namespace

labrun::LabExercise sum_of_squares_entry(const labrun::Lab& lab) {
  return labrun::exercise_entry(lab, sum_of_squares(), labrun::SubmissionCase{declare_submission, trial});
}

}  // namespace verdicts::grading
