#include "grading/judge.hpp"

#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "grading/contract.hpp"

namespace day48::grading {
namespace {

using labrun::fixed;
using labrun::GradeReport;
using labrun::GradeTest;

constexpr const char* kNotEarned = "not earned yet: it counts once the output is correct at both sizes";

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
    elsewhere(results.timing->samples_writing_outside, "in " + std::to_string(results.timing->samples_writing_outside) +
                                                           " timed calls");
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
          r->error + ": the GPU reserves that much for every thread it can hold, memory the submissions graded "
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

void judge_manifest(GradeReport& report, const JudgeInput& in) {
  GradeTest declared{"Worked answer: bytes per element and launches", false, 0.0, 5.0, "", "visible"};
  GradeTest predicted{"Worked answer: predicted ratios", false, 0.0, 5.0, "", "visible"};
  if (!in.manifest) {
    declared.output = predicted.output = "no manifest: " + in.manifest_problem;
    add(report, in.manifest_missing ? "manifest-missing" : "manifest-invalid",
        (in.manifest_missing ? "no manifest: " : "the manifest cannot be read: ") + in.manifest_problem);
  } else {
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
    const bool bytes_ok =
        m.bytes_per_element && std::fabs(*m.bytes_per_element - kModelBytesPerElement) < 0.01;
    const bool launches_ok = m.launches && *m.launches == kModelLaunches;
    declared.passed = bytes_ok && launches_ok;
    declared.output =
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
            "12 is the fully fused chain's count: the half-way pair still stores and reloads one "
            "intermediate";
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
    predicted.passed = staged_ok && fused_ok;
    const auto ratio = [](const std::optional<double>& r) {
      return r ? fixed(*r, 2) : std::string("nothing");
    };
    predicted.output = "predicted " + ratio(m.predicted_ratio_vs_staged) + " against staged and " +
                       ratio(m.predicted_ratio_vs_fused) +
                       " against fused; the byte model gives 36/20 = 1.80 and 20/12 = 1.67";
    if (!predicted.passed && m.predicted_ratio_vs_staged && m.predicted_ratio_vs_fused) {
      std::string hint = "divide the bytes of the slower version by the bytes of the faster one";
      if (std::fabs(*m.predicted_ratio_vs_staged - 2.0) < 0.01 ||
          std::fabs(*m.predicted_ratio_vs_fused - 2.0) < 0.01) {
        hint =
            "2.00 is the launch ratio (4/2 and 2/1): at the sizes that matter the time follows bytes, not "
            "launches";
      }
      add(report, "wrong-predictions", predicted.output + ": " + hint);
    }
  }
  declared.score = declared.passed ? declared.max_score : 0.0;
  predicted.score = predicted.passed ? predicted.max_score : 0.0;
  report.tests.push_back(declared);
  report.tests.push_back(predicted);
}

GradeTest judge_speed(GradeReport& report, const ChildResults& results, bool correct) {
  GradeTest speed{"Runs at the speed its bytes allow", false, 0.0, 15.0, "", "visible"};
  if (!correct) {
    speed.output = kNotEarned;
    return speed;
  }
  if (!results.timing) {
    speed.output = "not measured";
    return speed;
  }
  const TimingResult& t = *results.timing;
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
  speed.output = fixed(t.pair_ms, 4) + " ms at n = " + std::to_string(t.elements) + ", " +
                 fixed(against_lab, 2) + "x the lab's own half-way pair; " + fixed(yours, 1) +
                 " GB/s at 20 B/element against the best copy's " + fixed(best_copy, 1) + " GB/s";
  if (yours > kImpossibleMargin * best_copy) {
    add(report, "impossible-time",
        "the pair would have moved its 20 bytes per element at " + fixed(yours, 1) + " GB/s, more than " +
            fixed(kImpossibleMargin, 1) + " times the best copy measured beside it (" + fixed(best_copy, 1) +
            " GB/s): no correct pair can, so the time is not counted");
  } else if (against_lab > kSlowFactor) {
    add(report, "slow",
        "correct but slow: " + fixed(against_lab, 2) +
            "x the time of the lab's own half-way pair. Look at the access pattern (consecutive threads "
            "should touch "
            "consecutive elements) and the launch shape");
  } else {
    speed.passed = true;
  }
  speed.score = speed.passed ? speed.max_score : 0.0;
  return speed;
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

  // Builds as the contract asks: a gate worth no points of its own.
  GradeTest builds{"Builds as the exercise's contract asks", false, 0.0, 0.0, "", "visible"};
  if (!in.source_problems.empty()) {
    std::string listed;
    for (const labrun::SourceProblem& p : in.source_problems) {
      listed += (listed.empty() ? "" : "\n") + (p.line > 0 ? "line " + std::to_string(p.line) + ": " : "") +
                p.message;
    }
    builds.output = "not compiled:\n" + listed;
    add_source_refusal(report, in.source_problems);
  } else if (!in.image_refusal.empty()) {
    builds.output = "compiled, but not loaded: " + in.image_refusal_message;
    add(report, in.image_refusal, in.image_refusal_message);
  } else if (!in.compiled) {
    builds.output = "nvcc refused it:\n" + in.compiler_messages;
    add(report, "compile-error",
        "the submission does not compile; the compiler's messages are under the first check");
  } else {
    builds.output = "compiled to device code for this GPU";
  }
  const ChildResults empty;
  const ChildResults& results = in.results ? *in.results : empty;
  const std::string stopped = in.compiled ? judge_stop(report, in) : "";
  const bool loaded = in.compiled && (results.error_kind.empty() || results.error_kind == "cuda-error" ||
                                      results.error_kind == "hang");
  builds.passed = loaded && !results.kernels.empty();
  if (builds.passed) {
    builds.output += "; both kernels found with the contract's signatures";
    for (const KernelInfo& k : results.kernels) {
      builds.output +=
          "; " + k.name + ": " + std::to_string(k.registers) + " registers" +
          (k.local_bytes > 0 ? ", " + std::to_string(k.local_bytes) + " bytes of local memory" : "") +
          (k.launch.empty() ? "" : ", launched as " + k.launch);
    }
    if (in.default_launch_shapes) {
      builds.output +=
          "; launched with the default shape (256 threads, 1 element per thread): the manifest gives "
          "none that can be used";
    }
  } else if (in.compiled && !stopped.empty()) {
    builds.output += "; " + stopped;
  }
  report.tests.push_back(builds);

  const std::string not_run = !in.compiled       ? "not measured: it did not compile"
                              : !stopped.empty() ? "not measured: " + stopped
                                                 : "not measured";
  const ProbeResult* first = probe_of(results, "odd", "alone");
  const bool first_call_right = first != nullptr && first->output.passed();
  SizeVerdict odd = judge_size(report, results, "odd", first_call_right);
  SizeVerdict card = judge_size(report, results, "card-scaled", first_call_right);
  if (card.correct && results.timing && results.timing->wrong_samples > 0) {
    card.correct = false;
    card.summary += "; " + std::to_string(results.timing->wrong_samples) + " of " +
                    std::to_string(results.timing->samples) + " timed runs wrong";
    add(report, "wrong-when-timed",
        std::to_string(results.timing->wrong_samples) + " of the " + std::to_string(results.timing->samples) +
            " timed runs, each on new inputs, gave a wrong output although the checked runs were right: the "
            "kernels must compute the whole chain on every call");
  }
  GradeTest odd_test{"Correct at the odd size 1,049,187, alone and after the staged chain",
                     odd.correct,
                     0.0,
                     25.0,
                     odd.measured ? odd.summary : not_run,
                     "visible"};
  GradeTest card_test{"Correct at the card-scaled size, alone, after the staged chain and in every timed run",
                      card.correct,
                      0.0,
                      15.0,
                      card.measured ? card.summary : not_run,
                      "visible"};
  const bool correct = odd.correct && card.correct;

  GradeTest structure{"Two kernels with one intermediate between them", false, 0.0, 15.0, "", "visible"};
  std::string structure_output;
  const bool structure_good = !results.probes.empty() && judge_structure(report, results, structure_output);
  structure.passed = correct && structure_good;
  structure.output = results.probes.empty() ? not_run : correct ? structure_output : kNotEarned;

  GradeTest buffers{
      "Writes only inside its buffers, leaves its inputs alone", false, 0.0, 10.0, "", "visible"};
  std::string buffers_output;
  const bool buffers_good = !results.probes.empty() && judge_buffers(report, results, buffers_output);
  buffers.passed = correct && buffers_good;
  buffers.output = results.probes.empty() ? not_run : correct ? buffers_output : kNotEarned;

  GradeTest sanitizer{"compute-sanitizer memcheck and racecheck", false, 0.0, 10.0, "", "visible"};
  if (!in.sanitizer_available) {
    sanitizer.max_score = 0.0;
    sanitizer.passed = true;
    sanitizer.output = "skipped: compute-sanitizer is not on this machine's PATH";
  } else if (in.sanitizers.empty()) {
    sanitizer.output = correct ? not_run : kNotEarned;
  } else {
    const bool clean = std::all_of(in.sanitizers.begin(), in.sanitizers.end(),
                                   [](const SanitizerRun& r) { return r.clean; });
    for (const SanitizerRun& r : in.sanitizers) {
      sanitizer.output += (sanitizer.output.empty() ? "" : "; ") + r.tool + ": " + r.summary;
    }
    if (!clean) {
      add(report, "sanitizer-errors",
          "compute-sanitizer found errors in a run at n = 4099 with no guard around any buffer: " +
              sanitizer.output);
    }
    sanitizer.passed = correct && clean;
    if (!correct) {
      sanitizer.output = std::string(kNotEarned) + " (" + sanitizer.output + ")";
    }
  }
  for (GradeTest* test : {&odd_test, &card_test, &structure, &buffers, &sanitizer}) {
    test->score = test->passed ? test->max_score : 0.0;
    report.tests.push_back(*test);
  }
  judge_manifest(report, in);
  report.tests.push_back(judge_speed(report, results, correct && structure_good));
  return report;
}

}  // namespace day48::grading
