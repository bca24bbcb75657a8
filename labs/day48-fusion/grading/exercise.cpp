#include "grading/exercise.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "base/format.hpp"
#include "case_names.hpp"
#include "exercise/exercise_entry.hpp"
#include "exercise/judge.hpp"
#include "exercise/probe_rows.hpp"
#include "grading/probe_results.hpp"
#include "submission_case.hpp"

namespace day48::grading {
namespace {

using labrun::add_mistake;
using labrun::count_of;
using labrun::GradeReport;

// The probes at each size (probe_results.hpp's ProbeResult::probe).
const std::vector<std::string> kProbes{"alone", "after-staged", "planted"};

using Records = std::vector<ProbeResult>;

std::string first_bad(const OutputInspection& o) {
  if (!o.first_bad_index) {
    return "";
  }
  const double got = o.first_bad_got.value_or(0.0);
  return "; first bad element " + std::to_string(*o.first_bad_index) + ": got " +
         (std::isnan(got) ? std::string("NaN") : labrun::scientific(got)) + ", expected " +
         labrun::scientific(o.first_bad_expected.value_or(0.0));
}

std::string where(const ProbeResult& p) {
  const std::string how = p.probe == "alone"          ? "run alone"
                          : p.probe == "after-staged" ? "run after the staged chain"
                          : p.probe == "timed"        ? "a timed call"
                                                      : "second kernel on a planted intermediate";
  return "n = " + std::to_string(p.elements) + ", " + how + " (call " + std::to_string(p.call) + ")";
}

// Whether y followed the x that replaced the call's own before its second kernel ran.
bool follows_replaced_x(const ProbeResult& p) {
  return static_cast<double>(p.matches_chain_of_x) >=
         kCompositionMatchShare * static_cast<double>(p.output.elements);
}

// Names what is wrong with an output that failed its check, from what the grader's kernels counted.
void diagnose_output(GradeReport& report, const OutputInspection& o, const std::string& at) {
  const std::uint64_t n = o.elements;
  if (o.unwritten == n) {
    add_mistake(report, "output-unwritten",
                "no element of y was written (" + at +
                    "): the second kernel must store its result in y[i] for every i in [0, n)");
    return;
  }
  if (o.unwritten > 0 && o.unwritten == o.trailing_unwritten && o.mismatches == o.unwritten) {
    add_mistake(report, "tail-missed",
                "the last " + std::to_string(o.unwritten) + " of " + std::to_string(n) +
                    " elements were never written (" + at +
                    "): the grid must cover every element; at an odd n the last block is a partial one");
    return;
  }
  if (o.non_finite > 0) {
    add_mistake(report, "nan-output",
                std::to_string(o.non_finite) +
                    " outputs are NaN or infinite although every reference value is finite (" + at +
                    "): look for a division by zero, or a read of memory the kernel did not write");
    return;
  }
  const CompositionMatch* best = nullptr;
  for (const CompositionMatch& m : o.compositions) {
    if (best == nullptr || m.matching > best->matching) {
      best = &m;
    }
  }
  if (best != nullptr &&
      static_cast<double>(best->matching) >= kCompositionMatchShare * static_cast<double>(n)) {
    const std::string& c = best->composition;
    if (c == "gelu-twice") {
      add_mistake(
          report, "stage-2-applied-twice",
          "the output is clamp(gelu(gelu(x * g + b)) + r): the second kernel applies GELU again to the "
          "intermediate, which already holds gelu(x * g + b); it should only add the residual and clamp");
    } else if (c.rfind("skip-", 0) == 0) {
      add_mistake(report, "stage-skipped",
                  "the output matches the chain without its " + c.substr(5) +
                      " stage: every one of the four stages must be applied once, two in each kernel");
    } else {
      add_mistake(report, "stages-out-of-order",
                  "the output matches the stages applied in the wrong order (" + c +
                      "): the order is scale and bias, GELU, add the residual, clamp");
    }
    return;
  }
  add_mistake(report, "wrong-output",
              count_of(o.mismatches, "element") + " of y differ from the float64 reference (" + at + ")" +
                  first_bad(o));
}

struct SizeVerdict {
  bool measured = false;  // both standard probes ran
  bool correct = false;
  std::string summary;
};

// Correctness at one size: the run alone and the run after the staged chain must both be right;
// names the mistake when they are not.
SizeVerdict judge_size(GradeReport& report, const Records& results, const std::string& size,
                       bool first_call_right) {
  SizeVerdict verdict;
  const ProbeResult* alone = labrun::record_at(results, size, "alone");
  const ProbeResult* after = labrun::record_at(results, size, "after-staged");
  if (alone == nullptr || after == nullptr) {
    return verdict;
  }
  verdict.measured = true;
  const bool alone_right = alone->output.passed();
  const bool after_right = after->output.passed();
  verdict.correct = alone_right && after_right;
  const auto line = [](const ProbeResult& p) {
    return (p.probe == "alone" ? std::string("alone: ") : std::string("after the staged chain: ")) +
           count_of(p.output.mismatches, "element") + " wrong, max abs error " +
           labrun::scientific(p.output.max_abs_error) + first_bad(p.output);
  };
  verdict.summary = "n = " + std::to_string(alone->elements) + ", " + line(*alone) + "; " + line(*after);
  if (!alone_right && after_right) {
    add_mistake(
        report, "depends-on-staged-chain",
        "the output is right only after the staged chain has run: run alone, with the staged chain's buffers "
        "poisoned, " +
            count_of(alone->output.mismatches, "element") + " were wrong (" + where(*alone) +
            "). Something is read that the staged chain left behind, not the intermediate the first kernel "
            "wrote");
  } else if (alone_right && !after_right) {
    add_mistake(
        report, "wrong-on-later-calls",
        "the first run at this size was right, a later one on new inputs was wrong (" + where(*after) + ", " +
            count_of(after->output.mismatches, "element") +
            " wrong): the kernels must compute from their inputs on every call and keep nothing between "
            "calls");
  } else if (!alone_right && follows_replaced_x(*alone)) {
    // the structure's mistake says why: the second kernel reads x
  } else if (!alone_right) {
    if (size != "odd" && first_call_right) {
      add_mistake(
          report, "wrong-at-large-size",
          "right at the odd size but wrong at n = " + std::to_string(alone->elements) +
              ": look at index arithmetic that overflows and at a grid that does not cover every element");
    }
    diagnose_output(report, alone->output, where(*alone));
  }
  return verdict;
}

// Structure: two kernels with one intermediate between them, measured, never declared: in every
// probe, and in the first timed call that did not leave stage 2's output in the intermediate (last
// in `records`, where labrun::timed_record_to_judge admits it).
bool judge_structure(GradeReport& report, const Records& records, std::string& output) {
  bool good = true;
  for (const ProbeResult& p : records) {
    if (p.intermediate) {
      if (p.intermediate->unwritten > 0) {
        good = false;
        add_mistake(
            report, "intermediate-unwritten",
            "the first kernel left " + count_of(p.intermediate->unwritten, "element") +
                " of the intermediate unwritten (" + where(p) +
                "): it must store stage 2's result for every element, and the second kernel must read it "
                "from "
                "there");
      } else if (p.intermediate->mismatches > 0) {
        good = false;
        add_mistake(report, "intermediate-not-stage-2",
                    "after the first kernel, " + count_of(p.intermediate->mismatches, "element") +
                        " of the intermediate are not gelu(x * g + b) (" + where(p) +
                        "): stages 1 and 2 belong in the first kernel, stages 3 and 4 in the second");
      }
    }
    if (!p.staged_buffers_written.empty()) {
      good = false;
      std::string names;
      for (const std::string& t : p.staged_buffers_written) {
        names += (names.empty() ? "" : ", ") + t;
      }
      add_mistake(report, "uses-staged-buffer",
                  "the submission wrote the staged chain's buffer " + names + " (" + where(p) +
                      "): the half-way pair has its own intermediate and touches nothing else");
    }
  }
  // x is replaced before every probe's second kernel: y that follows the replaced x was read from
  // it, in any probe.
  for (const ProbeResult& p : records) {
    if (p.probe != "timed" && !p.output.passed() && follows_replaced_x(p)) {
      good = false;
      add_mistake(
          report, "second-kernel-reads-x",
          "with x replaced by other inputs after the first kernel ran, y followed x, not the intermediate (" +
              where(p) +
              "): the second kernel reads x, which only the first kernel may read; compute y from the "
              "intermediate and the residual");
    }
  }
  for (const std::string size : {"odd", "card-scaled"}) {
    const ProbeResult* planted = labrun::record_at(records, size, "planted");
    const ProbeResult* alone = labrun::record_at(records, size, "alone");
    if (planted == nullptr || alone == nullptr || planted->output.passed()) {
      continue;
    }
    good = false;
    if (!alone->output.passed() || follows_replaced_x(*planted)) {
      continue;  // already wrong on its own, or reading x: the mistakes above say why
    }
    add_mistake(report, "second-kernel-ignores-intermediate",
                "with the intermediate replaced by stage 2's output of other inputs, y did not follow it (" +
                    where(*planted) + ", " + count_of(planted->output.mismatches, "element") +
                    " wrong): the second kernel must compute y from the intermediate and the residual");
  }
  output = good ? "the first kernel writes stage 2's output to every element of the intermediate, the second "
                  "computes y from it and the residual alone, and no staged buffer is touched"
                : "see the mistakes above";
  return good;
}

bool judge_buffers(GradeReport& report, const Records& results, std::string& output) {
  bool inside = true;
  bool inputs = true;
  const auto outside = [&](std::uint64_t changed, const char* buffer, const std::string& at) {
    if (changed > 0) {
      inside = false;
      add_mistake(
          report, "write-past-n",
          count_of(changed, "word") + " outside elements [0, n) of " + buffer + " changed (" + at +
              "): every index a kernel stores to must lie in [0, n); check the bounds test, i < n, in both "
              "kernels");
    }
  };
  for (const ProbeResult& p : results) {
    outside(p.guards.y, "y", where(p));
    outside(p.guards.intermediate, "the intermediate", where(p));
    if (p.input_elements_changed > 0 || p.guards.x > 0 || p.guards.residual > 0) {
      inputs = false;
      add_mistake(report, "input-modified",
                  "x or the residual changed during the run (" + where(p) + "): the inputs are read-only");
    }
  }
  // Everything else the grading child owns (its other buffers, their guards, its counters),
  // digested before and after each launch: a store far past every guard lands there.
  const auto elsewhere = [&](std::uint64_t launches, const std::string& at) {
    if (launches > 0) {
      inside = false;
      add_mistake(
          report, "write-outside-buffers",
          "device memory the kernels were not given changed (" + at +
              "): a store landed outside every buffer passed to them, past their guards; every index a "
              "kernel stores to must lie in [0, n) of its own output");
    }
  };
  for (const ProbeResult& p : results) {
    elsewhere(p.launches_writing_outside, where(p));
  }
  output = std::string(inside ? "nothing written outside [0, n)" : "a write outside [0, n)") + ", inputs " +
           (inputs ? "unchanged" : "modified");
  return inside && inputs;
}

// The output at both sizes in the calls that are not timed (the card size's "wrong at the large
// size" needs the odd size's first call right), the structure and the buffers.
void judge_probes(labrun::ProbeJudging& in) {
  labrun::ProbeRowJudges<ProbeResult> judges;
  judges.read = probe_from_json;
  judges.output_wrong = [](const ProbeResult& p) { return !p.output.passed(); };
  judges.size = [](GradeReport& report, const Records& records, const std::string& size, bool /*odd_right*/,
                   std::string& finding) {
    const ProbeResult* first = labrun::record_at(records, "odd", "alone");
    const SizeVerdict verdict = judge_size(report, records, size, first != nullptr && first->output.passed());
    if (verdict.measured) {
      finding = verdict.summary;
    }
    return verdict.correct;
  };
  judges.structure = judge_structure;
  judges.buffers = judge_buffers;
  labrun::judge_probe_rows(kProbes, in, judges);
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
  ex.default_seed = 48;
  ex.probes = kProbes;
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
  ex.judge_probes = judge_probes;
  ex.record_checks.probe = [](const nlohmann::ordered_json& probe) {
    static_cast<void>(probe_from_json(probe));
  };
  ex.record_checks.inspection = ex.record_checks.probe;
  ex.child = halfway_child;
  return ex;
}

labrun::LabExercise halfway_entry(const labrun::Lab& lab) {
  return labrun::exercise_entry(lab, halfway_exercise(), halfway_submission_case());
}

}  // namespace day48::grading
