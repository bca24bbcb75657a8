#include "grading/judge.hpp"

#include <algorithm>
#include <cmath>

#include "evidence/format.hpp"

namespace day48::grading {
namespace {

using labrun::fixed;
using labrun::GradeReport;
using labrun::GradeTest;

const SizeResult* size_labelled(const ChildResults& results, const std::string& label) {
  for (const SizeResult& s : results.sizes) {
    if (s.label == label) {
      return &s;
    }
  }
  return nullptr;
}

std::string first_bad(const labrun::CorrectnessCheck& check) {
  if (!check.first_bad_index) {
    return "";
  }
  return "; first bad element " + std::to_string(*check.first_bad_index) + ": got " +
         labrun::scientific(check.first_bad_got.value_or(0.0)) + ", expected " +
         labrun::scientific(check.first_bad_expected.value_or(0.0));
}

void add(GradeReport& report, const std::string& id, const std::string& explanation) {
  if (!report.has_mistake(id)) {
    report.mistakes.push_back({id, explanation});
  }
}

// Names what is wrong with an output that failed its check, from the raw figures.
void diagnose_output(GradeReport& report, const SizeResult& s) {
  const auto n = s.elements;
  if (s.unwritten == n) {
    add(report, "output-unwritten",
        "no element of y was written: the second kernel must store its result in buffers->y (check where it "
        "writes, and that it is launched)");
    return;
  }
  if (s.unwritten > 0 && s.unwritten == s.trailing_unwritten && s.check.mismatches == s.unwritten) {
    add(report, "tail-missed",
        "the last " + std::to_string(s.unwritten) + " of " + std::to_string(n) +
            " elements were never written at this odd size: round the number of blocks up, (n + 255) / 256, "
            "not down, in both launches");
    return;
  }
  if (s.computed_non_finite > 0) {
    add(report, "nan-output",
        std::to_string(s.computed_non_finite) +
            " outputs are NaN or infinite although every reference value "
            "is finite: look for a division by zero or a square root or log of a negative value");
    return;
  }
  const CompositionMatch* best = nullptr;
  for (const CompositionMatch& m : s.compositions) {
    if (best == nullptr || m.matching > best->matching) {
      best = &m;
    }
  }
  if (best != nullptr && s.composition_elements > 0 &&
      static_cast<double>(best->matching) >=
          kCompositionMatchShare * static_cast<double>(s.composition_elements)) {
    const std::string& c = best->composition;
    if (c == "gelu-twice") {
      add(report, "stage-2-applied-twice",
          "the output is clamp(gelu(gelu(x * g + b)) + r): the second kernel applies GELU again to the "
          "intermediate, which already holds gelu(x * g + b); it should only add the residual and clamp");
    } else if (c.rfind("skip-", 0) == 0) {
      add(report, "stage-skipped",
          "the output matches the chain without its " + c.substr(5) +
              " stage: every one of the four stages "
              "must be applied once, two in each kernel");
    } else {
      add(report, "stages-out-of-order",
          "the output matches the stages applied in the wrong order (" + c +
              "): the order is scale and "
              "bias, GELU, add the residual, clamp");
    }
    return;
  }
  add(report, "wrong-output",
      std::to_string(s.check.mismatches) + " elements differ from the float64 reference" +
          first_bad(s.check));
}

GradeTest correctness_test(GradeReport& report, const ChildResults& results, const std::string& label,
                           const std::string& name, double points) {
  GradeTest test{name, false, 0.0, points, "", "visible"};
  const SizeResult* s = size_labelled(results, label);
  if (s == nullptr) {
    test.output = "not measured: the grader did not reach this size";
    return test;
  }
  const auto& c = s->check;
  test.passed = c.passed && s->computed_non_finite == 0;
  test.output = "n = " + std::to_string(s->elements) + ": " + std::to_string(c.mismatches) +
                " elements outside tolerance (" + c.tolerance + "), max abs error " +
                labrun::scientific(c.max_abs_error) + first_bad(c);
  if (!test.passed) {
    diagnose_output(report, *s);
  }
  test.score = test.passed ? points : 0.0;
  return test;
}

}  // namespace

labrun::GradeReport judge(const JudgeInput& in) {
  GradeReport report;
  report.lab = "day48-fusion";
  report.submission = in.submission;
  report.student_id = in.manifest ? in.manifest->student_id : "unknown";
  report.execution_seconds = in.seconds;

  GradeTest compiles{"Compiles", in.compiled, in.compiled ? 10.0 : 0.0, 10.0, "", "visible"};
  compiles.output = in.compiled ? "nvcc built the submission" : "nvcc refused it:\n" + in.compiler_output;
  report.tests.push_back(compiles);
  if (!in.compiled) {
    add(report, "compile-error",
        "the submission does not compile; the compiler's messages are under Compiles");
  }

  // The run: a time-out or CUDA error in the child fails every check that needed it.
  const bool ran = in.results.has_value() && in.results->completed;
  std::string not_run = "not measured: ";
  if (!in.compiled) {
    not_run += "it did not compile";
  } else if (in.child && in.child->timed_out) {
    not_run += "the run did not finish";
    add(report, "timeout",
        "the grading run did not finish within " + fixed(in.run_limit_seconds, 0) +
            " s and was killed: a kernel that never ends (look for a loop whose condition never changes)");
  } else if (in.results && !in.results->error.empty()) {
    not_run += "the run stopped on an error";
    add(report, "cuda-error", "the run stopped: " + in.results->error);
  } else if (in.child && !in.child->succeeded()) {
    not_run += "the grading process failed (" + in.child->describe() + ")";
    add(report, "crashed", "the grading process ended abnormally: " + in.child->describe());
  } else if (!ran) {
    not_run += "no results were reported";
  }

  const ChildResults empty;
  const ChildResults& results = in.results ? *in.results : empty;
  GradeTest odd = correctness_test(report, results, "odd", "Correct at the odd size 1,049,187", 25.0);
  GradeTest card = correctness_test(report, results, "card-scaled", "Correct at the card-scaled size", 15.0);
  GradeTest independent{"Independent of the staged chain's buffers", false, 0.0, 10.0, "", "visible"};
  GradeTest inside{
      "Writes only inside its buffers, leaves its inputs alone", false, 0.0, 10.0, "", "visible"};
  if (const SizeResult* s = size_labelled(results, "odd")) {
    // Independent: run alone it is exactly as right (or as wrong) as after a staged run.
    const bool isolated_ok = s->isolated_check && s->isolated_check->mismatches == s->check.mismatches;
    independent.passed = isolated_ok && s->staged_buffers_written.empty();
    if (s->isolated_check && !s->isolated_check->passed && s->check.passed) {
      add(report, "reads-staged-buffer",
          "the output is right only after the staged chain has run: run alone, with the staged chain's "
          "buffers poisoned, " +
              std::to_string(s->isolated_check->mismatches) +
              " elements were wrong. The second kernel reads a buffer the staged chain left behind (t1, t2 "
              "or "
              "t3) instead of the intermediate the first kernel wrote");
    }
    std::string written;
    for (const std::string& t : s->staged_buffers_written) {
      written += (written.empty() ? "" : ", ") + t;
    }
    if (!written.empty()) {
      add(report, "uses-staged-buffer",
          "the submission writes the staged chain's buffer " + written +
              "; the exercise asks for its own intermediate (buffers->intermediate)");
    }
    independent.output =
        s->isolated_check
            ? "run alone with the staged buffers poisoned: " + std::to_string(s->isolated_check->mismatches) +
                  " elements wrong" + (written.empty() ? "" : "; writes " + written)
            : "not measured";
  } else {
    independent.output = not_run;
  }
  bool guards = !results.sizes.empty();
  bool inputs = !results.sizes.empty();
  for (const SizeResult& s : results.sizes) {
    if (!s.guards_around_output_intact || !s.guards_around_intermediate_intact) {
      guards = false;
      add(report, "write-past-n",
          std::string("something was written outside elements [0, n) of ") +
              (!s.guards_around_output_intact ? "y" : "the intermediate") +
              " at n = " + std::to_string(s.elements) +
              ": the bounds check must be i < n in both kernels, and no index may fall below 0");
    }
    if (!s.inputs_unchanged) {
      inputs = false;
      add(report, "input-modified", "x or the residual changed during the run: the inputs are read-only");
    }
  }
  inside.passed = guards && inputs;
  inside.output = results.sizes.empty() ? not_run
                                        : std::string(guards ? "no write past n" : "a write past n") +
                                              ", inputs " + (inputs ? "unchanged" : "modified");
  for (GradeTest* t : {&odd, &card, &independent, &inside}) {
    if (results.sizes.empty()) {
      t->output = not_run;
    }
    t->score = t->passed ? t->max_score : 0.0;
    report.tests.push_back(*t);
  }

  // compute-sanitizer
  GradeTest sanitizer{"compute-sanitizer memcheck and racecheck", false, 0.0, 10.0, "", "visible"};
  if (!in.sanitizer_available) {
    sanitizer.max_score = 0.0;
    sanitizer.passed = true;
    sanitizer.output = "skipped: compute-sanitizer is not on this machine's PATH";
  } else if (in.sanitizers.empty()) {
    sanitizer.output = not_run;
  } else {
    sanitizer.passed = std::all_of(in.sanitizers.begin(), in.sanitizers.end(),
                                   [](const SanitizerRun& r) { return r.clean; });
    for (const SanitizerRun& r : in.sanitizers) {
      sanitizer.output += (sanitizer.output.empty() ? "" : "; ") + r.tool + ": " + r.summary;
    }
    if (!sanitizer.passed) {
      add(report, "sanitizer-errors", "compute-sanitizer found errors: " + sanitizer.output);
    }
  }
  sanitizer.score = sanitizer.passed ? sanitizer.max_score : 0.0;
  report.tests.push_back(sanitizer);

  // The manifest: declared bytes and launches, predicted ratios.
  GradeTest declared{"Declared bytes per element and launches", false, 0.0, 5.0, "", "visible"};
  GradeTest predicted{"Predicted ratios", false, 0.0, 5.0, "", "visible"};
  if (!in.manifest) {
    declared.output = predicted.output = "no manifest: " + in.manifest_problem;
    add(report, "manifest-missing", "no usable manifest: " + in.manifest_problem);
  } else {
    const labrun::Manifest& m = *in.manifest;
    const bool bytes_ok = std::fabs(m.bytes_per_element - kModelBytesPerElement) < 0.01;
    const bool launches_ok = m.launches == kModelLaunches;
    declared.passed = bytes_ok && launches_ok;
    declared.output = "declared " + fixed(m.bytes_per_element, 0) + " bytes and " +
                      std::to_string(m.launches) +
                      " launches; the model is 20 bytes (x, the intermediate written and read back, the "
                      "residual, y: five floats) and 2 launches";
    if (!bytes_ok) {
      std::string hint =
          "count the floats each kernel reads and writes: the first reads x and writes the "
          "intermediate, the second reads the intermediate and the residual and writes y";
      if (std::fabs(m.bytes_per_element - 36.0) < 0.01) {
        hint = "36 is the staged chain's count, not the half-way pair's";
      } else if (std::fabs(m.bytes_per_element - 12.0) < 0.01) {
        hint =
            "12 is the fully fused chain's count: the half-way pair still stores and reloads one "
            "intermediate";
      } else if (std::fabs(m.bytes_per_element - 16.0) < 0.01) {
        hint = "16 leaves out the residual, the second kernel's second input";
      }
      add(report, "wrong-declared-bytes",
          "declared " + fixed(m.bytes_per_element, 1) +
              " bytes per element, the "
              "model is 20: " +
              hint);
    }
    if (!launches_ok) {
      add(report, "wrong-declared-launches",
          "declared " + std::to_string(m.launches) + " launches; the half-way pair is 2 kernels");
    }
    const bool staged_ok =
        std::fabs(m.predicted_ratio_vs_staged - kModelRatioVsStaged) <= kPredictionTolerance;
    const bool fused_ok = std::fabs(m.predicted_ratio_vs_fused - kModelRatioVsFused) <= kPredictionTolerance;
    predicted.passed = staged_ok && fused_ok;
    predicted.output = "predicted " + fixed(m.predicted_ratio_vs_staged, 2) + " against staged and " +
                       fixed(m.predicted_ratio_vs_fused, 2) +
                       " against fused; the byte model gives 36/20 = 1.80 "
                       "and 20/12 = 1.67";
    if (!predicted.passed) {
      std::string hint = "divide the bytes of the slower version by the bytes of the faster one";
      if (std::fabs(m.predicted_ratio_vs_staged - 2.0) < 0.01 ||
          std::fabs(m.predicted_ratio_vs_fused - 2.0) < 0.01) {
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

  // Performance, against the lab's kernels timed in the same process.
  GradeTest speed{"Runs at the speed its bytes allow", false, 0.0, 10.0, "", "visible"};
  const bool correct = odd.passed && card.passed;
  if (!results.timing || !correct) {
    speed.output = !correct ? "not timed: the output is not correct yet" : "not measured";
  } else {
    const TimingResult& t = *results.timing;
    const auto gbps = [&](double bytes, double ms) {
      return bytes * static_cast<double>(t.elements) / (ms * 1e6);
    };
    const double yours = gbps(kModelBytesPerElement, t.submission_ms);
    const double best = std::max({gbps(8.0, t.copy_ms), gbps(12.0, t.fused_ms), gbps(36.0, t.staged_ms),
                                  gbps(kModelBytesPerElement, t.reference_halfway_ms)});
    const double against_reference = t.submission_ms / t.reference_halfway_ms;
    const double vs_staged = t.staged_ms / t.submission_ms;
    const double vs_fused = t.submission_ms / t.fused_ms;
    report.figures = {
        {"n timed", std::to_string(t.elements)},
        {"your pair (ms, median)", fixed(t.submission_ms, 4)},
        {"lab's half-way pair (ms)", fixed(t.reference_halfway_ms, 4)},
        {"staged chain (ms)", fixed(t.staged_ms, 4)},
        {"fused chain (ms)", fixed(t.fused_ms, 4)},
        {"copy floor (ms)", fixed(t.copy_ms, 4)},
        {"staged / yours",
         fixed(vs_staged, 2) + " (model 1.80" +
             (in.manifest ? ", you predicted " + fixed(in.manifest->predicted_ratio_vs_staged, 2) : "") +
             ")"},
        {"yours / fused",
         fixed(vs_fused, 2) + " (model 1.67" +
             (in.manifest ? ", you predicted " + fixed(in.manifest->predicted_ratio_vs_fused, 2) : "") + ")"},
        {"your GB/s at 20 B/element", fixed(yours, 1)},
        {"best GB/s of the lab's kernels here", fixed(best, 1)}};
    speed.output = fixed(t.submission_ms, 4) + " ms at n = " + std::to_string(t.elements) + ", " +
                   fixed(against_reference, 2) + "x the lab's own half-way pair; staged/yours " +
                   fixed(vs_staged, 2) + ", yours/fused " + fixed(vs_fused, 2);
    if (yours > kImpossibleFactor * best) {
      add(report, "impossible-time",
          "the pair moved 20 bytes per element at " + fixed(yours, 1) +
              " GB/s, faster than any kernel of the lab "
              "reached on this card (" +
              fixed(best, 1) + " GB/s): it cannot be doing the work it declares");
    } else if (against_reference > kSlowFactor) {
      add(report, "slow",
          "correct but slow: " + fixed(against_reference, 2) +
              "x the time of the lab's own half-way pair. Look at "
              "the access pattern (consecutive threads should touch consecutive elements) and the block "
              "size");
    } else {
      speed.passed = true;
    }
  }
  speed.score = speed.passed ? speed.max_score : 0.0;
  report.tests.push_back(speed);
  return report;
}

}  // namespace day48::grading
