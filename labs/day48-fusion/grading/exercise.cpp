// The day-48 exercise, declared (exercise.hpp): everything here is the lab's (its chain's wrong
// compositions and their words, its staged chain and other cases, its rubric); the harness grades it
// (exercise/chain_pair_exercise.hpp).

#include "grading/exercise.hpp"

#include <string>
#include <utility>
#include <vector>

#include "case_names.hpp"
#include "exercise/chain_pair_exercise.hpp"
#include "exercise/exercise_entry.hpp"
#include "grading/checks.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "submission_case.hpp"

namespace day48::grading {
namespace {

// The mistake each wrong composition of the stages makes (reference.hpp's kWrongCompositions).
labrun::ChainComposition named(Composition c) {
  const std::string name = composition_name(c);
  if (c == Composition::kGeluTwice) {
    return {name, "stage-2-applied-twice",
            "the output is clamp(gelu(gelu(x * g + b)) + r): the second kernel applies GELU again to the "
            "intermediate, which already holds gelu(x * g + b); it should only add the residual and clamp"};
  }
  if (name.rfind("skip-", 0) == 0) {
    return {name, "stage-skipped",
            "the output matches the chain without its " + name.substr(5) +
                " stage: every one of the four stages must be applied once, two in each kernel"};
  }
  return {name, "stages-out-of-order",
          "the output matches the stages applied in the wrong order (" + name +
              "): the order is scale and bias, GELU, add the residual, clamp"};
}

labrun::ChainPairDeclaration chain_declaration() {
  labrun::ChainPairDeclaration d;
  d.checks = halfway_checks();
  d.words = {"x",
             "the residual",
             "the intermediate",
             "y",
             "stage 2",
             "gelu(x * g + b)",
             "stages 1 and 2 belong in the first kernel, stages 3 and 4 in the second",
             "the half-way pair"};
  for (const Composition c : kWrongCompositions) {
    d.compositions.push_back(named(c));
  }
  d.tolerance = kTolerance;
  d.staged_buffers = {"t1", "t2", "t3"};
  d.lab_buffers = {"y", "halfway", "copy"};
  // Exercise::lab_cases' order: staged, fused, the lab's own pair, the three copies.
  d.launch_lab_case = [](std::size_t index, const float* x, const float* residual,
                         const std::vector<float*>& lab, std::size_t n, cudaStream_t stream) {
    // The lab's kernels read x and the residual and never write them.
    const ChainBuffers b{
        const_cast<float*>(x), const_cast<float*>(residual), lab[0], lab[1], lab[2], lab[3], lab[4], lab[5]};
    switch (index) {
      case 0: launch_staged_chain(b, n, stream); break;
      case 1: launch_fused_chain(b, n, stream); break;
      case 2: launch_halfway_pair(b, n, stream); break;
      case 3: launch_copy_floor(b.x, b.copy_out, n, stream); break;
      case 4: launch_copy_vectorized(b.x, b.copy_out, n, stream); break;
      default: launch_copy_memcpy(b.x, b.copy_out, n, stream); break;
    }
  };
  d.staged_case = 0;
  return d;
}

}  // namespace

labrun::Exercise halfway_exercise() {
  labrun::Exercise ex;
  ex.name = kExerciseName;
  ex.title =
      "the half-way fusion: stages 1 and 2 in one kernel, 3 and 4 in a second, one intermediate between";
  ex.summary = "two kernels of device code (grading/submission.cuh) and a manifest with the worked answer";
  const labrun::ContractParameter n = labrun::scalar_parameter<std::size_t>("n", "std::size_t");
  ex.kernels = {
      {kFirstKernel,
       {labrun::pointer_parameter("x", "const float*"), labrun::pointer_parameter("intermediate", "float*"),
        n},
       false},
      {kSecondKernel,
       {labrun::pointer_parameter("intermediate", "const float*"),
        labrun::pointer_parameter("residual", "const float*"), labrun::pointer_parameter("y", "float*"), n},
       false}};
  ex.default_shape = labrun::LaunchShape{256, 1, false};
  ex.header_folder = "labs/day48-fusion";
  ex.quoted_headers = {"grading/submission.cuh", "stages.cuh", "chain_constants.hpp"};
  ex.skeleton = "labs/day48-fusion/grading/skeleton/halfway.cu";
  ex.answers = {{"bytes_per_element", false, 1000.0}, {"launches", true, 64.0}};
  ex.model_case = cases::kHalfwayPair;
  ex.predictions = {{"predicted_ratio_vs_staged", "staged", cases::kStagedChain, "", "staged / yours"},
                    {"predicted_ratio_vs_fused", "fused", "", cases::kFusedChain, "yours / fused"}};
  ex.lab_cases = {{"staged_ms", "staged chain", cases::kStagedChain, false},
                  {"fused_ms", "fused chain", cases::kFusedChain, false},
                  {"lab_halfway_ms", "lab's half-way pair", cases::kHalfwayPair, false},
                  {"copy_floor_ms", "copy floor", cases::kCopyFloor, true},
                  {"copy_vectorized_ms", "vectorised copy", cases::kCopyVectorized, true},
                  {"copy_memcpy_ms", "cudaMemcpy", cases::kCopyMemcpy, true}};
  ex.reference_case_key = "lab_halfway_ms";
  // A correct pair reads 12 bytes per element and writes 8. Faster than 1/1.5 of the least time the
  // card's memory needs for that traffic (judge.hpp: at the read-only stream's and the copy's
  // bandwidths measured beside it) it would beat the memory by more than the L2 and the streams'
  // distance from the peak can explain: on the H200 the peak is 1.16 times the best copy, and the L2
  // holds under 5% of the pair's traffic at the card-scaled size.
  ex.slow_factor = 1.5;
  ex.impossible_margin = 1.5;
  // x, the residual, the intermediate and y (each guarded), the staged chain's t1, t2 and t3, the
  // lab's y, half-way output and copy: 11 buffers of the largest n, guards included.
  ex.child_buffers = 11;
  // A timed call's: x, the residual, the intermediate and y, with their guards and y's slots.
  ex.timed_call_buffers = 5;
  ex.default_seed = 48;
  labrun::ExerciseWording& w = ex.wording;
  w.contract = "grading/submission.cuh";
  w.parameters = "pointers and std::size_t n";
  w.submit = "the two kernels' device code";
  w.includes = "grading/submission.cuh, the lab's headers and CUDA's headers";
  w.submission_noun = "pair";
  w.reference_name = "the lab's own half-way pair";
  w.slow_hint =
      "Look at the access pattern (consecutive threads should touch consecutive elements) and the launch "
      "shape";
  w.timed_hint = "the kernels must compute the whole chain on every call";
  w.bytes_breakdown = "(x, the intermediate written and read back, the residual, y: five floats)";
  w.bytes_hint =
      "count the floats each kernel reads and writes: the first reads x and writes the intermediate, the "
      "second reads the intermediate and the residual and writes y";
  w.bytes_hints = {{cases::kStagedChain, 0.0, "36 is the staged chain's count, not the half-way pair's"},
                   {cases::kFusedChain, 0.0,
                    "12 is the fully fused chain's count: the half-way pair still stores and reloads one "
                    "intermediate"},
                   {"", 16.0, "16 leaves out the residual, the second kernel's second input"}};
  w.launches_sentence = "the half-way pair is 2 kernels";
  w.correct_summary =
      "right at both sizes, two kernels joined by the intermediate, nothing outside the buffers changed";
  w.structure_part = "the two kernels' structure";
  ex.rubric = labrun::exercise_rubric(
      {{"Correct at the odd size 1,049,187, alone and after the staged chain", 10.0,
        "y right at n = 1,049,187, run alone and run after the staged chain"},
       {"Correct at the card-scaled size, alone and after the staged chain", 5.0,
        "y right at the card-scaled size, run alone and run after the staged chain (calls that are not "
        "timed)"},
       {"Two kernels with one intermediate between them", 5.0,
        "the first kernel writes stage 2's output to every element of the intermediate in every call, timed "
        "ones included, the second follows a planted intermediate with x replaced, no staged buffer is "
        "touched"},
       {"Writes only inside its buffers, leaves its inputs alone", 5.0,
        "in every call, timed ones included: guards intact around every buffer, x and the residual "
        "unchanged, "
        "nothing else the grader owns changed"}},
      ex.wording.reference_name, ex.slow_factor, ex.predictions.size());
  return labrun::chain_pair_exercise(std::move(ex), chain_declaration());
}

labrun::LabExercise halfway_entry(const labrun::Lab& lab) {
  return labrun::exercise_entry(lab, halfway_exercise(), halfway_submission_case());
}

}  // namespace day48::grading
