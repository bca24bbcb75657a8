#include "exercise/judge.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/format.hpp"

namespace labrun {
namespace {

// A model's number as a finding writes it: "20", "4.5".
std::string model_number(double value) {
  return fixed(value, std::fabs(value - std::round(value)) < 1e-9 ? 0 : 1);
}

// The mistake a refused source is named by: its first problem's kind (source_check.hpp), with a
// sentence that says what happened.
void add_source_refusal(GradeReport& report, const Exercise& ex, const std::vector<SourceProblem>& problems) {
  const std::string& kind = problems.front().kind;
  if (kind == kSourceTooLarge) {
    add_mistake(report, kind, problems.front().message + ": submit " + ex.wording.submit + " alone");
  } else if (kind == kSourceNotText) {
    add_mistake(report, kind, problems.front().message + " (a NUL byte): submit the .cu file as text");
  } else if (kind == kSourceIsLink || kind == kSourceUnreadable) {
    add_mistake(report, kind, problems.front().message);
  } else {
    add_mistake(report, kIncludeNotAllowed,
                "the source pulls in something a submission may not (details under the first check): a "
                "submission is device code that includes only " +
                    ex.wording.includes);
  }
}

// Why the grading run stopped early, as a named mistake; empty when it did not.
std::string judge_stop(GradeReport& report, const Exercise& ex, const JudgeInput& in) {
  const ChildResults* r = in.results ? &*in.results : nullptr;
  const std::string step = r != nullptr && !r->failed_step.empty() ? r->failed_step : in.last_step;
  const std::string every_kernel = ex.kernels.size() == 2 ? "both kernels" : "every kernel";
  if (r != nullptr && !r->error_kind.empty()) {
    const std::string& kind = r->error_kind;
    if (kind == "kernel-missing") {
      std::string found;
      for (const std::string& name : r->kernels_found) {
        found += (found.empty() ? "" : ", ") + name;
      }
      add_mistake(report, "kernel-missing",
                  r->error + (found.empty() ? "" : " (it defines: " + found + ")") + ": define " +
                      every_kernel + " with the names and signatures of " + ex.wording.contract +
                      ", as extern \"C\" __global__ functions (a C++ name is mangled and cannot be found)");
    } else if (kind == "wrong-signature") {
      add_mistake(report, "wrong-signature",
                  r->error + ": the parameters must be exactly those of " + ex.wording.contract + ", " +
                      ex.wording.parameters);
    } else if (kind == "launch-shape") {
      add_mistake(report, "launch-shape-invalid", r->error);
    } else if (kind == "local-memory-too-large") {
      add_mistake(
          report, "local-memory-too-large",
          r->error +
              ": the GPU reserves that much for every thread it can hold, memory the submissions graded "
              "beside it need; keep arrays in registers (index them with constants) or in shared memory");
    } else if (kind == "hang") {
      add_mistake(report, "timeout",
                  r->error + ": a kernel that never ends (look for a loop whose condition never changes)");
    } else if (kind == "load") {
      add_mistake(report, "load-error", r->error);
    } else {
      add_mistake(report, "cuda-error",
                  "the run stopped with " + r->error + " in " + step +
                      ": look for an out-of-bounds access, a misaligned vector access or a trap");
    }
    return r->error;
  }
  if (in.child && in.child->timed_out) {
    add_mistake(report, "timeout",
                "the grading run did not finish within " + fixed(in.run_limit_seconds, 0) +
                    " s and was killed" + (step.empty() ? "" : " while in " + step) +
                    ": a kernel that never ends");
    return "the run did not finish";
  }
  if (in.child && (!in.child->succeeded() || r == nullptr || !r->completed)) {
    add_mistake(report, "early-exit",
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

WorkedAnswer judge_manifest(GradeReport& report, const Exercise& ex, const JudgeInput& in) {
  WorkedAnswer answer;
  if (!in.manifest) {
    answer.declared_output = answer.predicted_output = "no manifest: " + in.manifest_problem;
    add_mistake(
        report, in.manifest_missing ? "manifest-missing" : "manifest-invalid",
        (in.manifest_missing ? "no manifest: " : "the manifest cannot be read: ") + in.manifest_problem);
    return answer;
  }
  const Manifest& m = *in.manifest;
  if (!m.problems.empty()) {
    std::string listed;
    for (std::size_t i = 0; i < m.problems.size() && i < 6; ++i) {
      listed += (listed.empty() ? "" : "; ") + m.problems[i];
    }
    if (m.problems.size() > 6) {
      listed += "; and " + std::to_string(m.problems.size() - 6) + " more";
    }
    add_mistake(report, "manifest-invalid", "the manifest has fields that cannot be used: " + listed);
  }
  const double model_bytes = ex.model.submission.bytes_per_element();
  const int model_launches = ex.model.submission.launches;
  const std::optional<double> bytes = m.answer(ex.bytes_key);
  const std::optional<double> launches = m.answer(ex.launches_key);
  const bool bytes_ok = bytes && std::fabs(*bytes - model_bytes) < 0.01;
  const bool launches_ok = launches && static_cast<int>(*launches) == model_launches;
  answer.declared_right = bytes_ok && launches_ok;
  answer.declared_output = "declared " + (bytes ? fixed(*bytes, 1) : std::string("no")) + " bytes and " +
                           (launches ? std::to_string(static_cast<int>(*launches)) : std::string("no")) +
                           " launches; the model is " + model_number(model_bytes) + " bytes " +
                           ex.wording.bytes_breakdown + " and " + std::to_string(model_launches) +
                           " launches";
  if (bytes && !bytes_ok) {
    std::string hint = ex.wording.bytes_hint;
    for (const BytesHint& known : ex.wording.bytes_hints) {
      if (std::fabs(*bytes - known.bytes) < 0.01) {
        hint = known.hint;
        break;
      }
    }
    add_mistake(report, "wrong-declared-bytes",
                "declared " + fixed(*bytes, 1) + " bytes per element, the model is " +
                    model_number(model_bytes) + ": " + hint);
  }
  if (launches && !launches_ok) {
    add_mistake(report, "wrong-declared-launches",
                "declared " + std::to_string(static_cast<int>(*launches)) + " launches; " +
                    ex.wording.launches_sentence);
  }
  bool all_right = true;
  bool all_given = true;
  std::string predicted;
  std::string gives;
  std::string launch_ratios;
  std::optional<double> launch_ratio_given;
  for (std::size_t p = 0; p < ex.predictions.size(); ++p) {
    const PredictedRatio& ratio = ex.predictions[p];
    const ByteModel& slower = ex.model.slower[p];
    const ByteModel& faster = ex.model.faster[p];
    const double model_ratio = ex.model.ratio(p);
    const double launch_ratio = static_cast<double>(slower.launches) / static_cast<double>(faster.launches);
    const std::optional<double> value = m.answer(ratio.key);
    all_given = all_given && value.has_value();
    all_right = all_right && value && std::fabs(*value - model_ratio) <= ex.prediction_tolerance;
    if (value && !launch_ratio_given && std::fabs(*value - launch_ratio) < 0.01) {
      launch_ratio_given = launch_ratio;
    }
    const std::string separator = p == 0 ? "" : " and ";
    predicted +=
        separator + (value ? fixed(*value, 2) : std::string("nothing")) + " against " + ratio.against;
    gives += separator + model_number(slower.bytes_per_element()) + "/" +
             model_number(faster.bytes_per_element()) + " = " + fixed(model_ratio, 2);
    launch_ratios += separator + std::to_string(slower.launches) + "/" + std::to_string(faster.launches);
  }
  answer.predicted_right = all_right;
  answer.predicted_output = "predicted " + predicted + "; the byte model gives " + gives;
  if (!answer.predicted_right && all_given) {
    std::string hint = "divide the bytes of the slower version by the bytes of the faster one";
    if (launch_ratio_given) {
      hint = fixed(*launch_ratio_given, 2) + " is the launch ratio (" + launch_ratios +
             "): at the sizes that matter the time follows bytes, not launches";
    }
    add_mistake(report, "wrong-predictions", answer.predicted_output + ": " + hint);
  }
  return answer;
}

// The speed of a submission that was right in every timed call, against the lab's own version and
// the copies measured beside it; names slow and impossible-time. Fills the report's figures.
SpeedVerdict judge_speed(GradeReport& report, const Exercise& ex, const TimingResult& t,
                         std::string& output) {
  const double bytes = ex.model.submission.bytes_per_element();
  const std::string& noun = ex.wording.submission_noun;
  const double yours = bytes * static_cast<double>(t.elements) / (t.pair_ms * 1e6);
  std::vector<std::pair<std::string, std::string>> others;
  std::string reference_label;
  for (std::size_t c = 0; c < ex.lab_cases.size(); ++c) {
    const LabCaseTiming& lab_case = ex.lab_cases[c];
    if (lab_case.key == ex.reference_case_key) {
      reference_label = lab_case.label;
    } else {
      others.emplace_back(lab_case.label + " (ms)", fixed(t.lab.at(lab_case.key), 4));
    }
  }
  const double reference_ms = t.lab.at(ex.reference_case_key);
  const double against_lab = t.pair_ms / reference_ms;
  report.figures = {
      {"n timed (cold, fresh inputs every sample)", std::to_string(t.elements)},
      {"your " + noun + " (ms, median of " + std::to_string(t.samples) + ")", fixed(t.pair_ms, 4)},
      {reference_label + " (ms" + (t.lab_times_shared ? ", timed once for the batch on this GPU)" : ")"),
       fixed(reference_ms, 4)}};
  report.figures.insert(report.figures.end(), others.begin(), others.end());
  for (std::size_t p = 0; p < ex.predictions.size(); ++p) {
    const PredictedRatio& ratio = ex.predictions[p];
    const auto time_of = [&](const std::string& key) {
      for (std::size_t c = 0; c < ex.lab_cases.size(); ++c) {
        if (ex.lab_cases[c].lab_case == key) {
          return t.lab.at(ex.lab_cases[c].key);
        }
      }
      return t.pair_ms;  // "": the submission
    };
    const double model_ratio = ex.model.ratio(p);
    report.figures.emplace_back(
        ratio.figure, fixed(time_of(ratio.slower_case) / time_of(ratio.faster_case), 2) + " (model " +
                          fixed(model_ratio, 2) + ")");
  }
  const CardBandwidths card = measured_bandwidths(ex, t);
  const ByteModel& traffic = ex.model.submission;
  const double fastest = fastest_possible_ms(traffic, t.elements, card);
  const std::string kind = model_number(traffic.read_bytes_per_element) + " B read and " +
                           model_number(traffic.write_bytes_per_element) + " B written per element";
  const auto bandwidth = [](double gb_per_s) {
    return gb_per_s > 0.0 ? fixed(gb_per_s, 1) : std::string("not measured");
  };
  report.figures.emplace_back("your GB/s at " + model_number(bytes) + " B/element", fixed(yours, 1));
  report.figures.emplace_back("the card's read-only stream here (GB/s)", bandwidth(card.read_only_gb_per_s));
  report.figures.emplace_back("the card's copy here (GB/s, read + written)", bandwidth(card.copy_gb_per_s));
  report.figures.emplace_back("fastest time for " + kind + " (ms)",
                              fastest > 0.0 ? fixed(fastest, 4) : "no bound");
  output = fixed(t.pair_ms, 4) + " ms at n = " + std::to_string(t.elements) + ", " + fixed(against_lab, 2) +
           "x " + ex.wording.reference_name + "; " + fixed(yours, 1) + " GB/s at " + model_number(bytes) +
           " B/element" +
           (fastest > 0.0 ? ", where the card's memory allows " + fixed(fastest, 4) + " ms for " + kind : "");
  std::vector<std::string> measured_kinds;
  if (card.read_only_gb_per_s > 0.0) {
    measured_kinds.push_back("a read-only stream " + fixed(card.read_only_gb_per_s, 1) + " GB/s");
  }
  if (card.copy_gb_per_s > 0.0) {
    measured_kinds.push_back("a copy " + fixed(card.copy_gb_per_s, 1) + " GB/s");
  }
  const std::string measured = join(measured_kinds, ", ");
  if (fastest > 0.0 && t.pair_ms * ex.impossible_margin < fastest) {
    add_mistake(report, "impossible-time",
                "the " + noun + " took " + fixed(t.pair_ms, 4) + " ms, less than 1/" +
                    fixed(ex.impossible_margin, 1) + " of the " + fixed(fastest, 4) +
                    " ms the card's memory needs for " + kind + " at the bandwidths measured beside it (" +
                    measured + "): no correct " + noun + " can, so the time is not counted");
    return SpeedVerdict::kImpossible;
  }
  if (against_lab > ex.slow_factor) {
    add_mistake(report, "slow",
                "correct but slow: " + fixed(against_lab, 2) + "x the time of " + ex.wording.reference_name +
                    ". " + ex.wording.slow_hint);
    return SpeedVerdict::kSlow;
  }
  return SpeedVerdict::kFast;
}

GradeReport grader_problem_report(const Exercise& ex, const JudgeInput& in) {
  GradeReport report;
  report.lab = ex.lab;
  report.submission = in.submission;
  report.student_id = in.manifest && !in.manifest->student_id.empty() ? in.manifest->student_id : "unknown";
  report.execution_seconds = in.seconds;
  report.tests.push_back(
      {"Grading", false, 0.0, 100.0,
       "This submission was not graded: " + in.grader_problem +
           ". This is not a mistake in the submission; course staff must fix the grader and grade it "
           "again.",
       "visible"});
  add_mistake(report, "grader-error", "not graded: " + in.grader_problem);
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

// Why a row earned nothing although its own check may have passed.
std::string not_earned(const RubricRow& row, const Outcome& outcome) {
  if (outcome.escape_attempt) {
    return "nothing is earned: the source tries to include a file a submission may not (include-not-allowed)";
  }
  return "not earned yet: it counts once " + row.needs_text;
}

// Builds as the contract asks: the source check, the compiler, the load and the contract's kernels.
void judge_builds(GradeReport& report, const Exercise& ex, const JudgeInput& in, const ChildResults& results,
                  Judgement& j) {
  std::string& builds = j.output[Check::kBuilds];
  if (!in.source_problems.empty()) {
    std::string listed;
    for (const SourceProblem& p : in.source_problems) {
      listed += (listed.empty() ? "" : "\n") + (p.line > 0 ? "line " + std::to_string(p.line) + ": " : "") +
                p.message;
    }
    builds = "not compiled:\n" + listed;
    add_source_refusal(report, ex, in.source_problems);
  } else if (!in.image_refusal.empty()) {
    builds = "compiled, but not loaded: " + in.image_refusal_message;
    add_mistake(report, in.image_refusal, in.image_refusal_message);
  } else if (!in.compiled) {
    builds = "nvcc refused it:\n" + in.compiler_messages;
    add_mistake(report, "compile-error",
                "the submission does not compile; the compiler's messages are under the first check");
  } else {
    builds = "compiled to device code for this GPU";
  }
  j.stopped = in.compiled ? judge_stop(report, ex, in) : "";
  j.not_run = !in.compiled         ? "not measured: it did not compile"
              : !j.stopped.empty() ? "not measured: " + j.stopped
                                   : "not measured";
  const bool loaded = in.compiled && (results.error_kind.empty() || results.error_kind == "cuda-error" ||
                                      results.error_kind == "hang");
  j.outcome.builds = loaded && !results.kernels.empty();
  if (j.outcome.builds) {
    builds += std::string("; ") + (ex.kernels.size() == 2 ? "both kernels" : "every kernel") +
              " found with the contract's signatures";
    for (const KernelInfo& k : results.kernels) {
      builds += "; " + k.name + ": " + std::to_string(k.registers) + " registers" +
                (k.local_bytes > 0 ? ", " + std::to_string(k.local_bytes) + " bytes of local memory" : "") +
                (k.launch.empty() ? "" : ", launched as " + k.launch);
    }
    if (in.default_launch_shapes) {
      const LaunchShape& shape = ex.default_shape;
      builds += "; launched with the default shape (" + std::to_string(shape.threads_per_block) +
                " threads, " + std::to_string(shape.elements_per_thread) +
                (shape.elements_per_thread == 1 ? " element" : " elements") +
                " per thread): the manifest gives none that can be used";
    }
  } else if (in.compiled && !j.stopped.empty()) {
    builds += "; " + j.stopped;
  }
}

void judge_sanitizers(GradeReport& report, const Exercise& ex, const JudgeInput& in, Judgement& j) {
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
    add_mistake(
        report, "sanitizer-errors",
        "compute-sanitizer found errors in its runs (at n = " + std::to_string(ex.sanitize_elements) +
            " and " + std::to_string(ex.odd_elements) +
            " in buffers of exactly n elements, then one timed call as the grading makes it): " + sanitizer);
  }
}

// Every timed call is held to the contract, as a checked call is: its inputs and the guards around
// its outputs unchanged, nothing else the child owns written, and each kernel leaving what it must.
// The exercise's judge names what broke the structure from the first such call's record; the
// buffers are the harness's to judge here.
void judge_timed_contract(GradeReport& report, const ChildResults& results, Judgement& j) {
  if (!results.timing) {
    return;
  }
  const TimingResult& t = *results.timing;
  const std::string of_calls = " of the " + std::to_string(t.calls_checked) + " timed calls";
  std::vector<std::string> buffers;
  if (t.samples_changing_inputs > 0) {
    add_mistake(report, "input-modified",
                std::to_string(t.samples_changing_inputs) + of_calls +
                    " changed an input (its elements or the guards around it): the inputs are read-only "
                    "in every call, timed or not");
    buffers.push_back("an input changed in " + count_of(t.samples_changing_inputs, "call"));
  }
  if (t.guard_words_changed > 0) {
    add_mistake(
        report, "write-past-n",
        count_of(t.guard_words_changed, "word") +
            " just outside the outputs changed while timed: every index a kernel stores to must lie in "
            "[0, n) of the output it is given, in every call");
    buffers.push_back(count_of(t.guard_words_changed, "word") + " past an output changed");
  }
  if (t.samples_writing_outside > 0) {
    add_mistake(report, "write-outside-buffers",
                "device memory the kernels were not given changed in " +
                    std::to_string(t.samples_writing_outside) + of_calls +
                    ": every store must land in the outputs the kernel is given, in every call");
    buffers.push_back("memory outside the buffers changed in " + count_of(t.samples_writing_outside, "call"));
  }
  if (!buffers.empty()) {
    j.outcome.buffers_right = false;
    j.output[Check::kBuffers] += "; while timed, " + join(buffers, "; ");
  }
  if (t.samples_breaking_structure > 0) {
    j.outcome.structure_right = false;
    j.output[Check::kStructure] += "; in " + std::to_string(t.samples_breaking_structure) + of_calls +
                                   " a kernel did not leave what it must (the mistakes above say what)";
  }
}

// The timed calls: every one is checked, and the timing must finish.
void judge_timed(GradeReport& report, const Exercise& ex, const JudgeInput& in, const ChildResults& results,
                 Judgement& j) {
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
  const std::string calls =
      std::to_string(std::max<std::uint64_t>(t.calls_checked, static_cast<std::uint64_t>(t.samples)));
  j.outcome.timed = all_right && results.completed ? TimedVerdict::kRight : TimedVerdict::kFailed;
  timed = all_right ? "all " + calls + " timed calls right, each on new inputs"
                    : std::to_string(t.wrong_samples) + " of " + calls + " timed calls wrong";
  if (!all_right && j.outcome.card_right) {
    add_mistake(
        report, "wrong-when-timed",
        std::to_string(t.wrong_samples) + " of the " + calls +
            " timed runs, each on new inputs, gave a wrong output although the checked runs were right: " +
            ex.wording.timed_hint);
  }
  if (all_right && !results.completed) {
    timed += "; " + (j.stopped.empty() ? std::string("the run did not finish") : j.stopped);
  }
}

// The correct row's finding: the whole contract held, or which parts of it failed.
std::string describe_correct(const Exercise& ex, const Outcome& o, bool compiled,
                             const std::string& not_run) {
  if (correct(o)) {
    return ex.wording.correct_summary + ", compute-sanitizer " +
           (o.sanitizer == SanitizerVerdict::kClean    ? "clean"
            : o.sanitizer == SanitizerVerdict::kAbsent ? "not on this machine"
                                                       : "not run: the run stopped in a timed call");
  }
  if (!o.builds) {
    return "not correct: " + (compiled ? not_run : std::string("it did not compile"));
  }
  std::vector<std::string> failed;
  for (const auto& [held, part] :
       {std::pair{o.odd_right, std::string("the output at the odd size")},
        std::pair{o.card_right, std::string("the output at the card-scaled size")},
        std::pair{o.structure_right, ex.wording.structure_part},
        std::pair{o.buffers_right, std::string("the buffers")},
        std::pair{o.sanitizer != SanitizerVerdict::kErrors, std::string("compute-sanitizer")}}) {
    if (!held) {
      failed.push_back(part);
    }
  }
  return "not correct: see " + join(failed, ", ") + " (the mistakes above say why)";
}

// One test per row of the rubric, in its order, with its points where it is earned.
void apply_rubric(GradeReport& report, const Exercise& ex, const Judgement& j) {
  for (const RubricRow& row : ex.rubric) {
    const auto found = j.output.find(row.check);
    GradeTest test{row.name,
                   earned(row, j.outcome),
                   0.0,
                   max_points(row, j.outcome),
                   found == j.output.end() ? std::string() : found->second,
                   "visible"};
    test.score = test.passed ? test.max_score : 0.0;
    const bool prerequisite_missing = j.outcome.escape_attempt || !prerequisite_met(row, j.outcome);
    if (!test.passed && prerequisite_missing && row.check != Check::kBuilds) {
      test.output = not_earned(row, j.outcome) + (test.output.empty() ? "" : " (" + test.output + ")");
    }
    report.tests.push_back(test);
  }
}

}  // namespace

void add_mistake(GradeReport& report, const std::string& id, const std::string& explanation) {
  if (!report.has_mistake(id)) {
    report.mistakes.push_back({id, explanation});
  }
}

std::string count_of(std::uint64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

CardBandwidths measured_bandwidths(const Exercise& ex, const TimingResult& t) {
  CardBandwidths card;
  const auto gb_per_s = [&](double bytes, double ms) {
    return ms > 0.0 ? bytes * static_cast<double>(t.elements) / (ms * 1e6) : 0.0;
  };
  const auto median_of = [&](const std::string& key) -> std::optional<double> {
    for (const auto& [name, ms] : t.lab.medians) {
      if (name == key) {
        return ms;
      }
    }
    return std::nullopt;
  };
  if (const std::optional<double> ms = median_of(kReadStreamKey)) {
    card.read_only_gb_per_s = gb_per_s(4.0, *ms);
  }
  if (const std::optional<double> ms = median_of(kCopyStreamKey)) {
    card.copy_gb_per_s = gb_per_s(8.0, *ms);
  }
  for (std::size_t c = 0; c < ex.lab_cases.size(); ++c) {
    const ByteModel& model = ex.model.lab_cases.at(c);
    const std::optional<double> ms = median_of(ex.lab_cases[c].key);
    if (!ms) {
      continue;
    }
    const double measured = gb_per_s(model.bytes_per_element(), *ms);
    if (model.write_bytes_per_element == 0.0) {
      card.read_only_gb_per_s = std::max(card.read_only_gb_per_s, measured);
    } else if (ex.lab_cases[c].copy) {
      card.copy_gb_per_s = std::max(card.copy_gb_per_s, measured);
    }
  }
  return card;
}

double fastest_possible_ms(const ByteModel& traffic, std::uint64_t elements, const CardBandwidths& card) {
  const double read = card.read_only_gb_per_s > 0.0 ? card.read_only_gb_per_s : card.copy_gb_per_s;
  const double copy = card.copy_gb_per_s > 0.0 ? card.copy_gb_per_s : card.read_only_gb_per_s;
  if (read <= 0.0 || copy <= 0.0) {
    return 0.0;
  }
  // Nanoseconds per element: a byte read costs what it costs in a read-only stream, a byte written
  // what a copy's byte pair costs beyond its read (never less than nothing).
  const double per_element = traffic.read_bytes_per_element / read +
                             traffic.write_bytes_per_element * std::max(0.0, 2.0 / copy - 1.0 / read);
  return per_element * static_cast<double>(elements) * 1e-6;
}

std::string Judgement::probe_finding(bool any_probe, bool every_probe, bool good,
                                     const std::string& found) const {
  if (!any_probe) {
    return not_run;
  }
  if (!every_probe && good) {
    return "not all measured: " + (stopped.empty() ? std::string("a probe is missing") : stopped);
  }
  return found;
}

GradeReport judge(const Exercise& ex, const JudgeInput& in) {
  if (!in.grader_problem.empty()) {
    return grader_problem_report(ex, in);
  }
  GradeReport report;
  report.lab = ex.lab;
  report.submission = in.submission;
  report.student_id = in.manifest && !in.manifest->student_id.empty() ? in.manifest->student_id : "unknown";
  report.execution_seconds = in.seconds;
  const ChildResults empty;
  const ChildResults& results = in.results ? *in.results : empty;
  Judgement j;
  judge_builds(report, ex, in, results, j);
  ProbeJudging probes{report, results, j};
  ex.judge_probes(probes);
  judge_timed_contract(report, results, j);
  judge_sanitizers(report, ex, in, j);
  judge_timed(report, ex, in, results, j);
  // The speed counts only for a submission that is correct and right in every timed call.
  if (correct(j.outcome) && j.outcome.timed == TimedVerdict::kRight) {
    j.outcome.speed = results.timing ? judge_speed(report, ex, *results.timing, j.output[Check::kSpeed])
                                     : SpeedVerdict::kNotMeasured;
  }
  const WorkedAnswer answer = judge_manifest(report, ex, in);
  j.outcome.declared_right = answer.declared_right;
  j.outcome.predicted_right = answer.predicted_right;
  j.output[Check::kDeclared] = answer.declared_output;
  j.output[Check::kPredicted] = answer.predicted_output;
  j.output[Check::kCorrect] = describe_correct(ex, j.outcome, in.compiled, j.not_run);
  // include-not-allowed is named above wherever the source was refused for it, by whichever check.
  // Reaching for a file the submission may not (an include, or a source that is a link to one).
  j.outcome.escape_attempt = report.has_mistake(kIncludeNotAllowed) || report.has_mistake(kSourceIsLink);
  apply_rubric(report, ex, j);
  return report;
}

}  // namespace labrun
