#include "grading/judge.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/format.hpp"
#include "grading/contract.hpp"
#include "grading/rubric.hpp"

namespace day48::grading {
namespace {

using labrun::fixed;
using labrun::GradeReport;
using labrun::GradeTest;

void add(GradeReport& report, const std::string& id, const std::string& explanation) {
  if (!report.has_mistake(id)) {
    report.mistakes.push_back({id, explanation});
  }
}

std::string count_of(std::uint64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

const ProbeResult* probe_of(const ChildResults& results, const std::string& size, const std::string& probe) {
  for (const ProbeResult& p : results.probes) {
    if (p.size_label == size && p.probe == probe) {
      return &p;
    }
  }
  return nullptr;
}

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
                                                      : "second kernel on a planted intermediate";
  return "n = " + std::to_string(p.elements) + ", " + how + " (call " + std::to_string(p.call) + ")";
}

// Names what is wrong with an output that failed its check, from what the grader's kernels counted.
void diagnose_output(GradeReport& report, const OutputInspection& o, const std::string& at) {
  const std::uint64_t n = o.elements;
  if (o.unwritten == n) {
    add(report, "output-unwritten",
        "no element of y was written (" + at +
            "): the second kernel must store its result in y[i] for every i in [0, n)");
    return;
  }
  if (o.unwritten > 0 && o.unwritten == o.trailing_unwritten && o.mismatches == o.unwritten) {
    add(report, "tail-missed",
        "the last " + std::to_string(o.unwritten) + " of " + std::to_string(n) +
            " elements were never written (" + at +
            "): the grid must cover every element; at an odd n the last block is a partial one");
    return;
  }
  if (o.non_finite > 0) {
    add(report, "nan-output",
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
      add(report, "stage-2-applied-twice",
          "the output is clamp(gelu(gelu(x * g + b)) + r): the second kernel applies GELU again to the "
          "intermediate, which already holds gelu(x * g + b); it should only add the residual and clamp");
    } else if (c.rfind("skip-", 0) == 0) {
      add(report, "stage-skipped",
          "the output matches the chain without its " + c.substr(5) +
              " stage: every one of the four stages must be applied once, two in each kernel");
    } else {
      add(report, "stages-out-of-order",
          "the output matches the stages applied in the wrong order (" + c +
              "): the order is scale and bias, GELU, add the residual, clamp");
    }
    return;
  }
  add(report, "wrong-output",
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
SizeVerdict judge_size(GradeReport& report, const ChildResults& results, const std::string& size,
                       bool first_call_right) {
  SizeVerdict verdict;
  const ProbeResult* alone = probe_of(results, size, "alone");
  const ProbeResult* after = probe_of(results, size, "after-staged");
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
    add(report, "depends-on-staged-chain",
        "the output is right only after the staged chain has run: run alone, with the staged chain's buffers "
        "poisoned, " +
            count_of(alone->output.mismatches, "element") + " were wrong (" + where(*alone) +
            "). Something is read that the staged chain left behind, not the intermediate the first kernel "
            "wrote");
  } else if (alone_right && !after_right) {
    add(report, "wrong-on-later-calls",
        "the first run at this size was right, a later one on new inputs was wrong (" + where(*after) + ", " +
            count_of(after->output.mismatches, "element") +
            " wrong): the kernels must compute from their inputs on every call and keep nothing between "
            "calls");
  } else if (!alone_right) {
    if (size != "odd" && first_call_right) {
      add(report, "wrong-at-large-size",
          "right at the odd size but wrong at n = " + std::to_string(alone->elements) +
              ": look at index arithmetic that overflows and at a grid that does not cover every element");
    }
    diagnose_output(report, alone->output, where(*alone));
  }
  return verdict;
}

// Structure: two kernels with one intermediate between them, measured, never declared.
bool judge_structure(GradeReport& report, const ChildResults& results, std::string& output) {
  bool good = true;
  std::vector<std::string> found;
  for (const ProbeResult& p : results.probes) {
    if (p.intermediate) {
      if (p.intermediate->unwritten > 0) {
        good = false;
        add(report, "intermediate-unwritten",
            "the first kernel left " + count_of(p.intermediate->unwritten, "element") +
                " of the intermediate unwritten (" + where(p) +
                "): it must store stage 2's result for every element, and the second kernel must read it "
                "from "
                "there");
      } else if (p.intermediate->mismatches > 0) {
        good = false;
        add(report, "intermediate-not-stage-2",
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
      add(report, "uses-staged-buffer",
          "the submission wrote the staged chain's buffer " + names + " (" + where(p) +
              "): the half-way pair has its own intermediate and touches nothing else");
    }
  }
  for (const std::string size : {"odd", "card-scaled"}) {
    const ProbeResult* planted = probe_of(results, size, "planted");
    const ProbeResult* alone = probe_of(results, size, "alone");
    if (planted == nullptr || alone == nullptr || planted->output.passed()) {
      continue;
    }
    good = false;
    if (!alone->output.passed()) {
      continue;  // already wrong on its own: the output's mistake says why
    }
    if (static_cast<double>(planted->matches_chain_of_x) >=
        kCompositionMatchShare * static_cast<double>(planted->output.elements)) {
      add(report, "second-kernel-reads-x",
          "with x replaced by other inputs after the first kernel ran, y followed x, not the intermediate (" +
              where(*planted) +
              "): the second kernel reads x, which only the first kernel may read; compute y from the "
              "intermediate and the residual");
    } else {
      add(report, "second-kernel-ignores-intermediate",
          "with the intermediate replaced by stage 2's output of other inputs, y did not follow it (" +
              where(*planted) + ", " + count_of(planted->output.mismatches, "element") +
              " wrong): the second kernel must compute y from the intermediate and the residual");
    }
  }
  output = good ? "the first kernel writes stage 2's output to every element of the intermediate, the second "
                  "computes y from it and the residual alone, and no staged buffer is touched"
                : "see the mistakes above";
  return good;
}

bool judge_buffers(GradeReport& report, const ChildResults& results, std::string& output) {
  bool inside = true;
  bool inputs = true;
  const auto outside = [&](std::uint64_t changed, const char* buffer, const std::string& at) {
    if (changed > 0) {
      inside = false;
      add(report, "write-past-n",
          count_of(changed, "word") + " outside elements [0, n) of " + buffer + " changed (" + at +
              "): every index a kernel stores to must lie in [0, n); check the bounds test, i < n, in both "
              "kernels");
    }
  };
  for (const ProbeResult& p : results.probes) {
    outside(p.guards.y, "y", where(p));
    outside(p.guards.intermediate, "the intermediate", where(p));
    if (p.input_elements_changed > 0 || p.guards.x > 0 || p.guards.residual > 0) {
      inputs = false;
      add(report, "input-modified",
          "x or the residual changed during the run (" + where(p) + "): the inputs are read-only");
    }
  }
  if (results.timing) {
    outside(results.timing->guard_words_changed, "y or the intermediate", "during timing");
  }
  // Everything else the grading child owns (its other buffers, their guards, its counters),
  // digested before and after each launch: a store far past every guard lands there.
  const auto elsewhere = [&](std::uint64_t launches, const std::string& at) {
    if (launches > 0) {
      inside = false;
      add(report, "write-outside-buffers",
          "device memory the kernels were not given changed (" + at +
              "): a store landed outside every buffer passed to them, past their guards; every index a "
              "kernel stores to must lie in [0, n) of its own output");
    }
  };
  for (const ProbeResult& p : results.probes) {
    elsewhere(p.launches_writing_outside, where(p));
  }
  if (results.timing) {
    elsewhere(results.timing->samples_writing_outside,
              "in " + std::to_string(results.timing->samples_writing_outside) + " timed calls");
  }
  output = std::string(inside ? "nothing written outside [0, n)" : "a write outside [0, n)") + ", inputs " +
           (inputs ? "unchanged" : "modified");
  return inside && inputs;
}

// The mistake a refused source is named by: its first problem's kind (source_check.hpp), with a
// sentence that says what happened.
void add_source_refusal(GradeReport& report, const std::vector<labrun::SourceProblem>& problems) {
  const std::string& kind = problems.front().kind;
  if (kind == labrun::kSourceTooLarge) {
    add(report, kind, problems.front().message + ": submit the two kernels' device code alone");
  } else if (kind == labrun::kSourceNotText) {
    add(report, kind, problems.front().message + " (a NUL byte): submit the .cu file as text");
  } else if (kind == labrun::kSourceIsLink || kind == labrun::kSourceUnreadable) {
    add(report, kind, problems.front().message);
  } else {
    add(report, labrun::kIncludeNotAllowed,
        "the source pulls in something a submission may not (details under the first check): a submission is "
        "device code that includes only grading/submission.cuh, the lab's headers and CUDA's headers");
  }
}

// Why the grading run stopped early, as a named mistake; empty when it did not.
std::string judge_stop(GradeReport& report, const JudgeInput& in) {
  const ChildResults* r = in.results ? &*in.results : nullptr;
  const std::string step = r != nullptr && !r->failed_step.empty() ? r->failed_step : in.last_step;
  if (r != nullptr && !r->error_kind.empty()) {
    const std::string& kind = r->error_kind;
    if (kind == "kernel-missing") {
      std::string found;
      for (const std::string& name : r->kernels_found) {
        found += (found.empty() ? "" : ", ") + name;
      }
      add(report, "kernel-missing",
          r->error + (found.empty() ? "" : " (it defines: " + found + ")") +
              ": define both kernels with the names and signatures of grading/submission.cuh, as extern "
              "\"C\" "
              "__global__ functions (a C++ name is mangled and cannot be found)");
    } else if (kind == "wrong-signature") {
      add(report, "wrong-signature",
          r->error +
              ": the parameters must be exactly those of grading/submission.cuh, pointers and std::size_t n");
    } else if (kind == "launch-shape") {
      add(report, "launch-shape-invalid", r->error);
    } else if (kind == "local-memory-too-large") {
      add(report, "local-memory-too-large",
          r->error +
              ": the GPU reserves that much for every thread it can hold, memory the submissions graded "
              "beside it need; keep arrays in registers (index them with constants) or in shared memory");
    } else if (kind == "hang") {
      add(report, "timeout",
          r->error + ": a kernel that never ends (look for a loop whose condition never changes)");
    } else if (kind == "load") {
      add(report, "load-error", r->error);
    } else {
      add(report, "cuda-error",
          "the run stopped with " + r->error + " in " + step +
              ": look for an out-of-bounds access, a misaligned vector access or a trap");
    }
    return r->error;
  }
  if (in.child && in.child->timed_out) {
    add(report, "timeout",
        "the grading run did not finish within " + fixed(in.run_limit_seconds, 0) + " s and was killed" +
            (step.empty() ? "" : " while in " + step) + ": a kernel that never ends");
    return "the run did not finish";
  }
  if (in.child && (!in.child->succeeded() || r == nullptr || !r->completed)) {
    add(report, "early-exit",
        "the grading run ended before it finished (" + in.child->describe() + ")" +
            (step.empty() ? "" : " while in " + step) + "; nothing after that point was measured");
    return "the grading run ended early";
  }
  return "";
}

// The worked answer, graded as an answer: each half right or not, and what to tell the student.
struct WorkedAnswer {
  bool declared_right = false;
  bool predicted_right = false;
  std::string declared_output;
  std::string predicted_output;
};

WorkedAnswer judge_manifest(GradeReport& report, const JudgeInput& in) {
  WorkedAnswer answer;
  if (!in.manifest) {
    answer.declared_output = answer.predicted_output = "no manifest: " + in.manifest_problem;
    add(report, in.manifest_missing ? "manifest-missing" : "manifest-invalid",
        (in.manifest_missing ? "no manifest: " : "the manifest cannot be read: ") + in.manifest_problem);
    return answer;
  }
  const labrun::Manifest& m = *in.manifest;
  if (!m.problems.empty()) {
    std::string listed;
    for (std::size_t i = 0; i < m.problems.size() && i < 6; ++i) {
      listed += (listed.empty() ? "" : "; ") + m.problems[i];
    }
    if (m.problems.size() > 6) {
      listed += "; and " + std::to_string(m.problems.size() - 6) + " more";
    }
    add(report, "manifest-invalid", "the manifest has fields that cannot be used: " + listed);
  }
  const bool bytes_ok = m.bytes_per_element && std::fabs(*m.bytes_per_element - kModelBytesPerElement) < 0.01;
  const bool launches_ok = m.launches && *m.launches == kModelLaunches;
  answer.declared_right = bytes_ok && launches_ok;
  answer.declared_output =
      "declared " + (m.bytes_per_element ? fixed(*m.bytes_per_element, 1) : std::string("no")) +
      " bytes and " + (m.launches ? std::to_string(*m.launches) : std::string("no")) +
      " launches; the model is 20 bytes (x, the intermediate written and read back, the residual, "
      "y: five floats) and 2 launches";
  if (m.bytes_per_element && !bytes_ok) {
    const double b = *m.bytes_per_element;
    std::string hint =
        "count the floats each kernel reads and writes: the first reads x and writes the intermediate, the "
        "second reads the intermediate and the residual and writes y";
    if (std::fabs(b - 36.0) < 0.01) {
      hint = "36 is the staged chain's count, not the half-way pair's";
    } else if (std::fabs(b - 12.0) < 0.01) {
      hint =
          "12 is the fully fused chain's count: the half-way pair still stores and reloads one intermediate";
    } else if (std::fabs(b - 16.0) < 0.01) {
      hint = "16 leaves out the residual, the second kernel's second input";
    }
    add(report, "wrong-declared-bytes",
        "declared " + fixed(b, 1) + " bytes per element, the model is 20: " + hint);
  }
  if (m.launches && !launches_ok) {
    add(report, "wrong-declared-launches",
        "declared " + std::to_string(*m.launches) + " launches; the half-way pair is 2 kernels");
  }
  const bool staged_ok =
      m.predicted_ratio_vs_staged &&
      std::fabs(*m.predicted_ratio_vs_staged - kModelRatioVsStaged) <= kPredictionTolerance;
  const bool fused_ok = m.predicted_ratio_vs_fused &&
                        std::fabs(*m.predicted_ratio_vs_fused - kModelRatioVsFused) <= kPredictionTolerance;
  answer.predicted_right = staged_ok && fused_ok;
  const auto ratio = [](const std::optional<double>& r) { return r ? fixed(*r, 2) : std::string("nothing"); };
  answer.predicted_output = "predicted " + ratio(m.predicted_ratio_vs_staged) + " against staged and " +
                            ratio(m.predicted_ratio_vs_fused) +
                            " against fused; the byte model gives 36/20 = 1.80 and 20/12 = 1.67";
  if (!answer.predicted_right && m.predicted_ratio_vs_staged && m.predicted_ratio_vs_fused) {
    std::string hint = "divide the bytes of the slower version by the bytes of the faster one";
    if (std::fabs(*m.predicted_ratio_vs_staged - 2.0) < 0.01 ||
        std::fabs(*m.predicted_ratio_vs_fused - 2.0) < 0.01) {
      hint =
          "2.00 is the launch ratio (4/2 and 2/1): at the sizes that matter the time follows bytes, not "
          "launches";
    }
    add(report, "wrong-predictions", answer.predicted_output + ": " + hint);
  }
  return answer;
}

// The speed of a pair that was right in every timed call, against the lab's own pair and the copies
// measured beside it; names slow and impossible-time. Fills the report's figures.
SpeedVerdict judge_speed(GradeReport& report, const TimingResult& t, std::string& output) {
  const auto gbps = [&](double bytes, double ms) {
    return bytes * static_cast<double>(t.elements) / (ms * 1e6);
  };
  const double yours = gbps(kModelBytesPerElement, t.pair_ms);
  const double best_copy = std::max(
      {gbps(8.0, t.lab.copy_floor_ms), gbps(8.0, t.lab.copy_vectorized_ms), gbps(8.0, t.lab.copy_memcpy_ms)});
  const double against_lab = t.pair_ms / t.lab.lab_halfway_ms;
  report.figures = {{"n timed (cold, fresh inputs every sample)", std::to_string(t.elements)},
                    {"your pair (ms, median of " + std::to_string(t.samples) + ")", fixed(t.pair_ms, 4)},
                    {std::string("lab's half-way pair (ms") +
                         (t.lab_times_shared ? ", timed once for the batch on this GPU)" : ")"),
                     fixed(t.lab.lab_halfway_ms, 4)},
                    {"staged chain (ms)", fixed(t.lab.staged_ms, 4)},
                    {"fused chain (ms)", fixed(t.lab.fused_ms, 4)},
                    {"copy floor / vectorised copy / cudaMemcpy (ms)",
                     fixed(t.lab.copy_floor_ms, 4) + " / " + fixed(t.lab.copy_vectorized_ms, 4) + " / " +
                         fixed(t.lab.copy_memcpy_ms, 4)},
                    {"staged / yours", fixed(t.lab.staged_ms / t.pair_ms, 2) + " (model 1.80)"},
                    {"yours / fused", fixed(t.pair_ms / t.lab.fused_ms, 2) + " (model 1.67)"},
                    {"your GB/s at 20 B/element", fixed(yours, 1)},
                    {"best copy's GB/s here (8 B/element)", fixed(best_copy, 1)}};
  output = fixed(t.pair_ms, 4) + " ms at n = " + std::to_string(t.elements) + ", " + fixed(against_lab, 2) +
           "x the lab's own half-way pair; " + fixed(yours, 1) +
           " GB/s at 20 B/element against the best copy's " + fixed(best_copy, 1) + " GB/s";
  if (yours > kImpossibleMargin * best_copy) {
    add(report, "impossible-time",
        "the pair would have moved its 20 bytes per element at " + fixed(yours, 1) + " GB/s, more than " +
            fixed(kImpossibleMargin, 1) + " times the best copy measured beside it (" + fixed(best_copy, 1) +
            " GB/s): no correct pair can, so the time is not counted");
    return SpeedVerdict::kImpossible;
  }
  if (against_lab > kSlowFactor) {
    add(report, "slow",
        "correct but slow: " + fixed(against_lab, 2) +
            "x the time of the lab's own half-way pair. Look at the access pattern (consecutive threads "
            "should touch consecutive elements) and the launch shape");
    return SpeedVerdict::kSlow;
  }
  return SpeedVerdict::kFast;
}

GradeReport grader_problem_report(const JudgeInput& in) {
  GradeReport report;
  report.lab = "day48-fusion";
  report.submission = in.submission;
  report.student_id = in.manifest && !in.manifest->student_id.empty() ? in.manifest->student_id : "unknown";
  report.execution_seconds = in.seconds;
  report.tests.push_back(
      {"Grading", false, 0.0, 100.0,
       "This submission was not graded: " + in.grader_problem +
           ". This is not a mistake in the submission; course staff must fix the grader and grade it "
           "again.",
       "visible"});
  add(report, "grader-error", "not graded: " + in.grader_problem);
  return report;
}

// Whether the grading run stopped in a timed call: it did not finish, and the step it was in (the
// child's own record of where it stopped, else its phase file) is one of the timing steps ("timing at
// n = ...", "timing the lab's kernels at n = ..."): a failure, a hang past a launch's limit (the
// child's error kind "hang"), or a kill by the run's limit while timed.
bool stopped_while_timed(const JudgeInput& in) {
  if (!in.child || !in.results || in.results->completed) {
    return false;
  }
  const std::string& step = !in.results->failed_step.empty() ? in.results->failed_step : in.last_step;
  return step.rfind("timing", 0) == 0;
}

// The probes the child runs when nothing stops it: three at each of the two sizes.
bool every_probe_ran(const ChildResults& results) {
  for (const char* size : {"odd", "card-scaled"}) {
    for (const char* probe : {"alone", "after-staged", "planted"}) {
      if (probe_of(results, size, probe) == nullptr) {
        return false;
      }
    }
  }
  return true;
}

// Why a row earned nothing although its own check may have passed.
std::string not_earned(const RubricRow& row, const Outcome& outcome) {
  if (outcome.escape_attempt) {
    return "nothing is earned: the source tries to include a file a submission may not (include-not-allowed)";
  }
  return std::string("not earned yet: it counts once ") + row.prerequisite_text;
}

// What judge() has found so far: the verdicts the rubric reads, and what each row found, for the
// student.
struct Judgement {
  Outcome outcome;
  std::map<Check, std::string> output;
  std::string stopped;  // why the grading run stopped early, "" when it did not
  std::string not_run;  // what a row that was never measured says
};

// Builds as the contract asks: the source check, the compiler, the load and the contract's kernels.
void judge_builds(GradeReport& report, const JudgeInput& in, const ChildResults& results, Judgement& j) {
  std::string& builds = j.output[Check::kBuilds];
  if (!in.source_problems.empty()) {
    std::string listed;
    for (const labrun::SourceProblem& p : in.source_problems) {
      listed += (listed.empty() ? "" : "\n") + (p.line > 0 ? "line " + std::to_string(p.line) + ": " : "") +
                p.message;
    }
    builds = "not compiled:\n" + listed;
    add_source_refusal(report, in.source_problems);
  } else if (!in.image_refusal.empty()) {
    builds = "compiled, but not loaded: " + in.image_refusal_message;
    add(report, in.image_refusal, in.image_refusal_message);
  } else if (!in.compiled) {
    builds = "nvcc refused it:\n" + in.compiler_messages;
    add(report, "compile-error",
        "the submission does not compile; the compiler's messages are under the first check");
  } else {
    builds = "compiled to device code for this GPU";
  }
  j.stopped = in.compiled ? judge_stop(report, in) : "";
  j.not_run = !in.compiled         ? "not measured: it did not compile"
              : !j.stopped.empty() ? "not measured: " + j.stopped
                                   : "not measured";
  const bool loaded = in.compiled && (results.error_kind.empty() || results.error_kind == "cuda-error" ||
                                      results.error_kind == "hang");
  j.outcome.builds = loaded && !results.kernels.empty();
  if (j.outcome.builds) {
    builds += "; both kernels found with the contract's signatures";
    for (const KernelInfo& k : results.kernels) {
      builds += "; " + k.name + ": " + std::to_string(k.registers) + " registers" +
                (k.local_bytes > 0 ? ", " + std::to_string(k.local_bytes) + " bytes of local memory" : "") +
                (k.launch.empty() ? "" : ", launched as " + k.launch);
    }
    if (in.default_launch_shapes) {
      builds +=
          "; launched with the default shape (256 threads, 1 element per thread): the manifest gives "
          "none that can be used";
    }
  } else if (in.compiled && !j.stopped.empty()) {
    builds += "; " + j.stopped;
  }
}

// The output at both sizes in the calls that are not timed, the structure and the buffers. The
// structure and the buffers are measured in every probe, and judged right only once every probe ran.
void judge_probes(GradeReport& report, const ChildResults& results, Judgement& j) {
  const ProbeResult* first = probe_of(results, "odd", "alone");
  const bool first_call_right = first != nullptr && first->output.passed();
  const SizeVerdict odd = judge_size(report, results, "odd", first_call_right);
  const SizeVerdict card = judge_size(report, results, "card-scaled", first_call_right);
  j.outcome.odd_right = odd.correct;
  j.outcome.card_right = card.correct;
  j.output[Check::kOddSize] = odd.measured ? odd.summary : j.not_run;
  j.output[Check::kCardSize] = card.measured ? card.summary : j.not_run;
  const bool probes_complete = every_probe_ran(results);
  const std::string partly =
      "not all measured: " + (j.stopped.empty() ? std::string("a probe is missing") : j.stopped);
  const auto shown = [&](bool good, const std::string& found) {
    return results.probes.empty() ? j.not_run : !probes_complete && good ? partly : found;
  };
  std::string structure;
  const bool structure_good = !results.probes.empty() && judge_structure(report, results, structure);
  j.outcome.structure_right = probes_complete && structure_good;
  j.output[Check::kStructure] = shown(structure_good, structure);
  std::string buffers;
  const bool buffers_good = !results.probes.empty() && judge_buffers(report, results, buffers);
  j.outcome.buffers_right = probes_complete && buffers_good;
  j.output[Check::kBuffers] = shown(buffers_good, buffers);
}

void judge_sanitizers(GradeReport& report, const JudgeInput& in, Judgement& j) {
  std::string& sanitizer = j.output[Check::kSanitizer];
  if (!in.sanitizer_available) {
    j.outcome.sanitizer = SanitizerVerdict::kAbsent;
    sanitizer = "skipped: compute-sanitizer is not on this machine's PATH";
    return;
  }
  if (in.sanitizers.empty()) {
    j.outcome.sanitizer = SanitizerVerdict::kNotRun;
    sanitizer = j.not_run;
    return;
  }
  const bool clean =
      std::all_of(in.sanitizers.begin(), in.sanitizers.end(), [](const SanitizerRun& r) { return r.clean; });
  for (const SanitizerRun& r : in.sanitizers) {
    sanitizer += (sanitizer.empty() ? "" : "; ") + r.tool + ": " + r.summary;
  }
  j.outcome.sanitizer = clean ? SanitizerVerdict::kClean : SanitizerVerdict::kErrors;
  if (!clean) {
    add(report, "sanitizer-errors",
        "compute-sanitizer found errors in a run at n = 4099 with no guard around any buffer: " + sanitizer);
  }
}

// The timed calls: every one is checked, and the timing must finish.
void judge_timed(GradeReport& report, const JudgeInput& in, const ChildResults& results, Judgement& j) {
  std::string& timed = j.output[Check::kTimed];
  if (!results.timing) {
    const bool failed = stopped_while_timed(in);
    j.outcome.timed = failed ? TimedVerdict::kFailed : TimedVerdict::kNotReached;
    timed = failed ? "the run stopped while timed: " +
                         (j.stopped.empty() ? std::string("it did not finish") : j.stopped)
                   : j.not_run;
    return;
  }
  const TimingResult& t = *results.timing;
  const bool all_right = t.wrong_samples == 0;
  j.outcome.timed = all_right && results.completed ? TimedVerdict::kRight : TimedVerdict::kFailed;
  timed = all_right
              ? "all " + std::to_string(t.samples) + " timed calls right, each on new inputs"
              : std::to_string(t.wrong_samples) + " of " + std::to_string(t.samples) + " timed calls wrong";
  if (!all_right && j.outcome.card_right) {
    add(report, "wrong-when-timed",
        std::to_string(t.wrong_samples) + " of the " + std::to_string(t.samples) +
            " timed runs, each on new inputs, gave a wrong output although the checked runs were right: the "
            "kernels must compute the whole chain on every call");
  }
  if (all_right && !results.completed) {
    timed += "; " + (j.stopped.empty() ? std::string("the run did not finish") : j.stopped);
  }
}

// The correct row's finding: the whole contract held, or which parts of it failed.
std::string describe_correct(const Outcome& o, bool compiled, const std::string& not_run) {
  if (rubric_row(Check::kCorrect).own(o)) {
    return std::string(
               "right at both sizes, two kernels joined by the intermediate, nothing outside the buffers "
               "changed, compute-sanitizer ") +
           (o.sanitizer == SanitizerVerdict::kClean    ? "clean"
            : o.sanitizer == SanitizerVerdict::kAbsent ? "not on this machine"
                                                       : "not run: the run stopped in a timed call");
  }
  if (!o.builds) {
    return "not correct: " + (compiled ? not_run : std::string("it did not compile"));
  }
  std::vector<std::string> failed;
  for (const auto& [held, part] :
       {std::pair{o.odd_right, "the output at the odd size"},
        std::pair{o.card_right, "the output at the card-scaled size"},
        std::pair{o.structure_right, "the two kernels' structure"}, std::pair{o.buffers_right, "the buffers"},
        std::pair{o.sanitizer != SanitizerVerdict::kErrors, "compute-sanitizer"}}) {
    if (!held) {
      failed.emplace_back(part);
    }
  }
  return "not correct: see " + labrun::join(failed, ", ") + " (the mistakes above say why)";
}

// One test per row of the rubric, in its order, with its points where it is earned.
void apply_rubric(GradeReport& report, const Judgement& j) {
  for (const RubricRow& row : rubric()) {
    const auto found = j.output.find(row.check);
    GradeTest test{row.name,
                   earned(row, j.outcome),
                   0.0,
                   max_points(row, j.outcome),
                   found == j.output.end() ? std::string() : found->second,
                   "visible"};
    test.score = test.passed ? test.max_score : 0.0;
    const bool prerequisite_missing = j.outcome.escape_attempt || !row.prerequisite(j.outcome);
    if (!test.passed && prerequisite_missing && row.check != Check::kBuilds) {
      test.output = not_earned(row, j.outcome) + (test.output.empty() ? "" : " (" + test.output + ")");
    }
    report.tests.push_back(test);
  }
}

}  // namespace

labrun::GradeReport judge(const JudgeInput& in) {
  if (!in.grader_problem.empty()) {
    return grader_problem_report(in);
  }
  GradeReport report;
  report.lab = "day48-fusion";
  report.submission = in.submission;
  report.student_id = in.manifest && !in.manifest->student_id.empty() ? in.manifest->student_id : "unknown";
  report.execution_seconds = in.seconds;
  const ChildResults empty;
  const ChildResults& results = in.results ? *in.results : empty;
  Judgement j;
  judge_builds(report, in, results, j);
  judge_probes(report, results, j);
  judge_sanitizers(report, in, j);
  judge_timed(report, in, results, j);
  // The speed counts only for a pair that is correct and right in every timed call.
  if (rubric_row(Check::kCorrect).own(j.outcome) && j.outcome.timed == TimedVerdict::kRight) {
    j.outcome.speed = results.timing ? judge_speed(report, *results.timing, j.output[Check::kSpeed])
                                     : SpeedVerdict::kNotMeasured;
  }
  const WorkedAnswer answer = judge_manifest(report, in);
  j.outcome.declared_right = answer.declared_right;
  j.outcome.predicted_right = answer.predicted_right;
  j.output[Check::kDeclared] = answer.declared_output;
  j.output[Check::kPredicted] = answer.predicted_output;
  j.output[Check::kCorrect] = describe_correct(j.outcome, in.compiled, j.not_run);
  // include-not-allowed is named above wherever the source was refused for it, by whichever check.
  // Reaching for a file the submission may not (an include, or a source that is a link to one).
  j.outcome.escape_attempt =
      report.has_mistake(labrun::kIncludeNotAllowed) || report.has_mistake(labrun::kSourceIsLink);
  apply_rubric(report, j);
  return report;
}

}  // namespace day48::grading
