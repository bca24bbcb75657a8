#include "evidence/markdown.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "base/format.hpp"
#include "core/byte_model.hpp"
#include "core/rounds.hpp"
#include "core/statistics.hpp"
#include "evidence/roofline.hpp"
#include "evidence/transcript_file.hpp"
#include "plots/draw_plots.hpp"

namespace labrun {
namespace {

std::string fact_text(const Transcript& t, const std::string& group, const std::string& key) {
  const FactGroup* g = t.group(group);
  const Fact* fact = g != nullptr ? g->find(key) : nullptr;
  return fact != nullptr && fact->recorded ? fact->display() : "not recorded";
}

Table summary_table(const Transcript& t) {
  Table table;
  table.title = "Where it ran";
  table.headers = {"what", "recorded"};
  table.right_aligned = {false, false};
  const auto add = [&](const std::string& what, const std::string& value) {
    table.rows.push_back({what, value});
  };
  add("device", fact_text(t, "device", "name") + " (" + fact_text(t, "device", "uuid") + ")");
  add("compute capability, SMs",
      fact_text(t, "device", "compute_capability") + ", " + fact_text(t, "device", "sm_count") + " SMs");
  add("L2 / memory (bytes)",
      fact_text(t, "device", "l2_bytes") + " / " + fact_text(t, "device", "memory_bytes"));
  add("driver / CUDA driver API / runtime", fact_text(t, "driver", "driver_version") + " / " +
                                                fact_text(t, "driver", "cuda_driver_api_version") + " / " +
                                                fact_text(t, "driver", "cuda_runtime_version"));
  // Only where the run was given CUDA variables (a run under CUDA_LAUNCH_BLOCKING times something else).
  if (const std::string cuda_environment = fact_text(t, "driver", "cuda_environment");
      cuda_environment != "not recorded" && cuda_environment != "none") {
    add("CUDA environment variables", cuda_environment);
  }
  add("nvcc, architectures, build type", fact_text(t, "build", "nvcc_version") + ", " +
                                             fact_text(t, "build", "cuda_architectures") + ", " +
                                             fact_text(t, "build", "build_type"));
  add("git commit (dirty)",
      fact_text(t, "build", "git_commit") + " (" + fact_text(t, "build", "git_dirty") + ")");
  add("SM clock at start / end (MHz)",
      fact_text(t, "run", "sm_clock_mhz_start") + " / " + fact_text(t, "run", "sm_clock_mhz_end"));
  add("started / finished (UTC)", t.started_utc + " / " + t.finished_utc);
  add("seed, repetitions, warm-ups",
      std::to_string(t.seed) + ", " + std::to_string(t.repetitions) + ", " + std::to_string(t.warmups));
  if (t.rounds_recorded && t.timing) {
    add("rounds",
        std::to_string(t.timing->rounds) +
            (t.timing->rounds > 1 ? ", each on buffers allocated again, in an order of its own" : "") +
            (t.timing->small_case_rounds > t.timing->rounds
                 ? "; " + std::to_string(t.timing->small_case_rounds) + " for cases of at most " +
                       std::to_string(t.timing->small_case_rounds_max_elements) + " elements"
                 : std::string()));
  }
  return table;
}

Table facts_table(const Transcript& t) {
  Table table;
  table.title = "Every recorded fact";
  table.headers = {"group", "fact", "value"};
  table.right_aligned = {false, false, false};
  for (const FactGroup& group : t.environment) {
    for (const Fact& fact : group.facts) {
      if (fact.recorded) {
        table.rows.push_back({group.name, fact.key, fact.display()});
      }
    }
  }
  return table;
}

Table sizes_table(const Transcript& t) {
  Table table;
  table.title = "Sizes";
  table.headers = {"size", "elements", "how it was chosen"};
  table.right_aligned = {false, true, false};
  for (const SizeRecord& size : t.sizes) {
    table.rows.push_back({size.label, size.elements ? std::to_string(*size.elements) : "not used",
                          size.elements ? size.rule : size.rule + "; not used: " + size.unknown_reason});
  }
  return table;
}

Table byte_model_table(const Transcript& t) {
  Table table;
  table.title = "Byte model";
  table.notes = {
      "Bytes each case must move per element, declared before anything is timed. Every "
      "GB/s figure below is these bytes over the measured median time."};
  table.headers = {"case", "read B/elem", "write B/elem", "total B/elem", "launches"};
  table.right_aligned = {false, true, true, true, true};
  std::set<std::string> seen;
  for (const CaseResult& c : t.cases) {
    if (!seen.insert(c.name).second) {
      continue;
    }
    table.rows.push_back({c.name, bytes_per_element_text(c.model.read_bytes_per_element),
                          bytes_per_element_text(c.model.write_bytes_per_element),
                          bytes_per_element_text(c.model.bytes_per_element()),
                          std::to_string(c.model.launches)});
  }
  return table;
}

Table predictions_table(const Transcript& t) {
  Table table;
  table.title = "Predicted ratios";
  table.notes = {
      "From the byte model alone: the byte ratio should show while both cases are bound "
      "by memory traffic, the launch ratio while both are bound by launch cost."};
  table.headers = {"prediction", "slower case", "faster case", "byte ratio", "launch ratio"};
  table.right_aligned = {false, false, false, true, true};
  for (const PredictionRecord& p : t.predictions) {
    table.rows.push_back(
        {p.description, p.slower_case, p.faster_case, fixed(p.ratios.bytes, 2), fixed(p.ratios.launches, 2)});
  }
  return table;
}

std::string interval_text(const std::optional<Interval>& interval, int decimals) {
  return interval ? fixed(interval->low, decimals) + " to " + fixed(interval->high, decimals) : "-";
}

std::string bound_text(const ClaimResult& c) {
  if (c.bound_low && c.bound_high) {
    return *c.bound_low == *c.bound_high ? fixed(*c.bound_low, 3)
                                         : fixed(*c.bound_low, 3) + " to " + fixed(*c.bound_high, 3);
  }
  if (c.bound_low) {
    return "at least " + fixed(*c.bound_low, 3);
  }
  return c.bound_high ? "at most " + fixed(*c.bound_high, 3) : "-";
}

// The measured ratio of each prediction at each size both cases ran; from 1.6.0 on, as the run
// recorded it, with its 95% interval over the rounds.
Table measured_ratios_table(const Transcript& t) {
  Table table;
  table.title = "Predictions against this run";
  table.notes = {"Measured is the slower case's median over the faster case's, at each size both ran."};
  table.headers = {"prediction", "size", "n", "byte ratio", "launch ratio", "measured"};
  table.right_aligned = {false, false, true, true, true, true};
  const bool intervals = t.rounds_recorded;
  if (intervals) {
    table.notes.back().pop_back();
    table.notes.back() +=
        "; its 95% interval is from the spread of the same ratio over the rounds (each "
        "round's two medians).";
    table.headers.push_back("95% interval");
    table.right_aligned.push_back(true);
  }
  for (const PredictionRecord& p : t.predictions) {
    // Before 1.6.0 (and in a record built by a program) the ratios are the cases' own.
    for (const PredictionMeasurement& m :
         intervals && !p.measured.empty() ? p.measured : measure_prediction(t, p)) {
      table.rows.push_back({p.description, m.size_label, std::to_string(m.elements), fixed(p.ratios.bytes, 2),
                            fixed(p.ratios.launches, 2), fixed(m.ratio, 2)});
      if (intervals) {
        table.rows.back().push_back(interval_text(m.interval, 3));
      }
    }
  }
  return table;
}

std::string claim_number(const std::optional<double>& value) {
  return value ? compact_number(*value) : "-";
}

// Each claim's figure against its tolerance; from 1.6.0 on with its 95% interval, its bound and how
// its verdict was reached.
Table claims_table(const Transcript& t) {
  Table table;
  table.title = "Claims against this card";
  table.notes = {
      "Each of the lesson's claims, checked against this transcript's figures with the stated tolerance. "
      "A claim the lesson itself hedges on is marked expected to fail."};
  table.headers = {"claim", "measured", "expected", "tolerance", "verdict", "figures"};
  table.right_aligned = {false, true, true, false, false, false};
  const bool intervals = t.rounds_recorded;
  if (intervals) {
    table.notes.push_back(
        "With two rounds or more, a claim is held when the whole 95% interval of its figure lies inside "
        "its bound, failed when the whole of it lies outside, and inconclusive when it straddles the bound "
        "(from: interval); a claim of several conditions is held or failed when every round agrees, else "
        "inconclusive (from: rounds); with one round, its figure alone decides (from: point).");
    if (schema_version_at_least(t.schema_version, 1, 8)) {
      table.notes.push_back(
          "From schema 1.8.0 the units of an interval are the run's CUDA contexts, not its rounds, and a "
          "claim "
          "whose figure moves between the contexts by more than its tolerance is inconclusive however its "
          "interval falls (from: noise).");
    }
    if (claims_read_gpu_alone(t)) {
      table.notes.push_back(
          "In this hot run a claim that sets a figure against a bound is also judged on the gated samples "
          "of the cases it reads, where they have them (GPU time alone, without the host's launch latency): "
          "its interval spans both readings, so it is held or failed only where both are, and a hot figure "
          "that moves more than its tolerance rests on the gated one where that one does not. Its figures "
          "give both readings.");
    }
    table.headers = {"claim",     "measured", "95% interval", "expected", "bound",
                     "tolerance", "verdict",  "from",         "figures"};
    table.right_aligned = {false, true, true, true, true, false, false, false, false};
  }
  for (const ClaimResult& c : t.claims) {
    std::string verdict = verdict_name(c.verdict);
    if (c.expected_to_fail) {
      verdict += " (expected to fail)";
    }
    if (intervals) {
      table.rows.push_back({c.statement, claim_number(c.measured), interval_text(c.measured_interval, 3),
                            claim_number(c.expected), bound_text(c), c.tolerance, verdict, c.verdict_basis,
                            c.detail});
    } else {
      table.rows.push_back(
          {c.statement, claim_number(c.measured), claim_number(c.expected), c.tolerance, verdict, c.detail});
    }
  }
  return table;
}

Table correctness_table(const Transcript& t) {
  Table table;
  table.title = "Correctness against the float64 reference";
  std::set<std::string> rules;
  for (const CorrectnessCheck& c : t.correctness) {
    rules.insert(c.tolerance);
  }
  for (const std::string& rule : rules) {
    table.notes.push_back("Tolerance: " + rule + ".");
  }
  table.notes.push_back(
      "rel L2 error is ||got - ref|| / ||ref||; max rel error is elementwise and is "
      "dominated by outputs near zero, where a sum cancels.");
  table.headers = {"version",       "elements",   "max abs error", "rel L2 error",
                   "max rel error", "mismatches", "result",        "first bad index: got / expected"};
  table.right_aligned = {false, true, true, true, true, true, false, false};
  for (const CorrectnessCheck& c : t.correctness) {
    std::string first_bad = "-";
    if (c.first_bad_index) {
      first_bad = std::to_string(*c.first_bad_index) + ": " +
                  (c.first_bad_got ? scientific(*c.first_bad_got) : "?") + " / " +
                  (c.first_bad_expected ? scientific(*c.first_bad_expected) : "?");
    }
    table.rows.push_back({c.version, std::to_string(c.elements), scientific(c.max_abs_error),
                          scientific(c.relative_l2_error), scientific(c.max_rel_error),
                          std::to_string(c.mismatches), c.passed ? "pass" : "FAIL", first_bad});
  }
  return table;
}

Table bitwise_table(const Transcript& t) {
  Table table;
  table.title = "Bitwise agreement between versions";
  table.notes = {
      "Counted, not asserted: the versions round intermediates differently (values kept "
      "in registers may be contracted into fused multiply-adds)."};
  table.headers = {"first", "second", "elements", "differing", "share", "max abs difference"};
  table.right_aligned = {false, false, true, true, true, true};
  for (const BitwiseComparison& b : t.bitwise) {
    const double share =
        b.elements > 0 ? static_cast<double>(b.differing) / static_cast<double>(b.elements) : 0.0;
    table.rows.push_back({b.first, b.second, std::to_string(b.elements), std::to_string(b.differing),
                          percent(share), scientific(b.max_abs_difference)});
  }
  return table;
}

// The figures the cases declare (1.8.0), as "name (unit)" columns in the order first met.
std::vector<std::pair<std::string, std::string>> declared_figure_columns(const Transcript& t) {
  std::vector<std::pair<std::string, std::string>> columns;
  for (const CaseResult& c : t.cases) {
    for (const DeclaredFigure& f : c.declared_figures) {
      if (std::find(columns.begin(), columns.end(), std::make_pair(f.name, f.unit)) == columns.end()) {
        columns.emplace_back(f.name, f.unit);
      }
    }
  }
  return columns;
}

// A declared figure's cell: four significant digits ("5", "1.328", "512.3"); "unknown" where it has no
// value, "-" where the case does not declare it.
std::string declared_figure_text(const CaseResult& c, const std::pair<std::string, std::string>& column) {
  for (const DeclaredFigure& f : c.declared_figures) {
    if (f.name == column.first && f.unit == column.second) {
      return f.value ? significant(*f.value, 4) : "unknown";
    }
  }
  return "-";
}

// Every case at every size; from 1.8.0 with a column for each figure the lab declares.
Table generic_cases_table(const Transcript& t) {
  Table table;
  table.title = "Every case";
  table.headers = {"case", "size", "n", "median ms", "spread", "GB/s"};
  table.right_aligned = {false, false, true, true, true, true};
  const std::vector<std::pair<std::string, std::string>> columns = declared_figure_columns(t);
  // What each figure column is, as its cases declared it: one line per column and source.
  for (const CaseResult& c : t.cases) {
    for (const DeclaredFigure& f : c.declared_figures) {
      const std::string note = escape_markdown(f.name + " (" + f.unit + "): " + f.source + ".");
      if (std::find(table.notes.begin(), table.notes.end(), note) == table.notes.end()) {
        table.notes.push_back(note);
      }
    }
  }
  for (const auto& [name, unit] : columns) {
    table.headers.push_back(name);
    table.headers.back().append(" (").append(unit).append(")");
    table.right_aligned.push_back(true);
  }
  for (const CaseResult& c : t.cases) {
    table.rows.push_back({c.name, c.size_label, std::to_string(c.elements), fixed(c.central_ms(), 4),
                          c.has_samples() ? percent(c.summary.relative_spread) : "-",
                          fixed(c.gb_per_s(), 1)});
    for (const auto& column : columns) {
      table.rows.back().push_back(declared_figure_text(c, column));
    }
  }
  return table;
}

Table stability_table(const StabilityCheck& s) {
  Table table;
  table.title = "Timing stability";
  table.notes = {
      "The same case timed again at the end of the run; the harness's target is medians "
      "within 0.5% of each other."};
  table.headers = {"case", "size", "n", "first median ms", "second median ms", "difference"};
  table.right_aligned = {false, false, true, true, true, true};
  table.rows.push_back({s.case_name, s.size_label, std::to_string(s.elements), fixed(s.first_median_ms, 4),
                        fixed(s.second_median_ms, 4), fixed(s.relative_difference * 100.0, 3) + "%"});
  return table;
}

// A stop rule in words: adaptive (a target above 0) or a fixed count; the time limit in seconds to
// `decimals` places.
std::string stop_rule_text(int min_samples, int max_samples, double target_relative_median_ci,
                           double case_time_limit_s, int decimals) {
  if (!(target_relative_median_ci > 0.0)) {
    return "exactly " + std::to_string(min_samples) + " samples";
  }
  return "at least " + std::to_string(min_samples) +
         " samples, then stop when the median's 95% interval is within " +
         percent(target_relative_median_ci) + " of it, or at " + std::to_string(max_samples) +
         " samples, or after " + fixed(case_time_limit_s, decimals) + " s";
}

// Only for transcripts that record how they sampled (1.2.0 on).
Table sampling_rule_table(const TimingRecord& timing) {
  Table table;
  table.title = "How the cases were sampled";
  table.headers = {"setting", "value"};
  table.right_aligned = {false, false};
  std::string mode = "hot: samples back to back, caches as the last sample left them";
  if (timing.mode == "cold") {
    mode = "cold: the L2 flushed before every sample (" +
           (timing.l2_flush_bytes ? std::to_string(*timing.l2_flush_bytes) + " B read"
                                  : std::string("size not recorded")) +
           ", persisting lines reset)";
  } else if (timing.mode == "hot-gated") {
    mode = "hot-gated: hot, and " + timing.launch_gate;
  }
  table.rows.push_back({"mode", mode});
  table.rows.push_back({"order", timing.order});
  table.rows.push_back(
      {"stop rule", stop_rule_text(timing.min_samples, timing.max_samples, timing.target_relative_median_ci,
                                   timing.case_time_limit_s, 2)});
  table.rows.push_back({"SM clock", timing.clock_source});
  table.rows.push_back({"throttled when", timing.throttle_rule});
  return table;
}

// Seconds, each to two decimals, joined with ", ".
std::string joined_seconds(const std::vector<ContextRecord>& contexts, double ContextRecord::*member) {
  std::string text;
  for (const ContextRecord& context : contexts) {
    text += (text.empty() ? "" : ", ") + fixed(context.*member, 2);
  }
  return text;
}

// 1.6.0 on: the rounds, one round's rule, how intervals were computed, and the precision options;
// 1.8.0 on: the CUDA contexts and what each cost, and hot timing's launch check.
void add_round_rows(const TimingRecord& timing, Table& table) {
  table.rows.push_back({"rounds", std::to_string(timing.rounds) + ": " + timing.round_placement});
  if (!timing.contexts.empty()) {
    table.rows.push_back(
        {"CUDA contexts", timing.round_context + "; created in " +
                              joined_seconds(timing.contexts, &ContextRecord::create_seconds) +
                              " s, set up in " +
                              joined_seconds(timing.contexts, &ContextRecord::setup_seconds) + " s"});
  }
  if (!timing.launch_check.empty()) {
    table.rows.push_back({"launch check", timing.launch_check});
  }
  if (timing.rounds > 1) {
    table.rows.push_back({"one round", stop_rule_text(timing.round_min_samples, timing.round_max_samples,
                                                      timing.round_target_relative_median_ci,
                                                      timing.round_case_time_limit_s, 3)});
    table.rows.push_back({"round order", "each round's own, drawn from the seed and the round's number"});
  }
  if (timing.small_case_rounds > timing.rounds) {  // 1.11.0
    table.rows.push_back(
        {"one round of a small case",
         stop_rule_text(timing.small_case_round_min_samples, timing.small_case_round_max_samples,
                        timing.small_case_round_target_relative_median_ci,
                        timing.small_case_round_case_time_limit_s, 3) +
             " (" + std::to_string(timing.small_case_rounds) + " rounds, at most " +
             std::to_string(timing.small_case_rounds_max_elements) + " elements)"});
  }
  table.rows.push_back({"intervals", timing.interval_method});
  std::string precision = timing.small_case_batch > 1
                              ? std::to_string(timing.small_case_batch) +
                                    " samples per pair of events for cases of one execution and at most " +
                                    std::to_string(timing.small_case_max_elements) + " elements"
                              : "one sample per pair of events";
  precision += "; host thread " + (timing.host_cpu ? "pinned to CPU " + std::to_string(*timing.host_cpu)
                                                   : std::string("not pinned"));
  precision += "; device warm-up " +
               (timing.device_warmup_s > 0.0 ? fixed(timing.device_warmup_s, 1) + " s" : std::string("none"));
  precision += "; clocks " + timing.clock_lock;
  table.rows.push_back({"precision options", precision});
}

Table sampling_table(const Transcript& t) {
  Table table;
  table.title = "Samples, per case";
  table.notes = {
      "Quartiles and the median's 95% interval (relative to the median) from the raw samples; clock is the "
      "median SM clock measured after each sample; cycles are SM cycles per execution of the case."};
  table.headers = {"case",  "n",         "samples",   "stopped", "median ms", "q1 ms",
                   "q3 ms", "median CI", "clock MHz", "cycles",  "throttled"};
  table.right_aligned = {false, true, true, false, true, true, true, true, true, true, true};
  // 1.6.0 on: how many rounds each case took, and its median's interval over them.
  if (t.rounds_recorded) {
    table.headers.insert(table.headers.begin() + 3, "rounds");
    table.right_aligned.insert(table.right_aligned.begin() + 3, true);
    table.headers.insert(table.headers.begin() + 8, "median 95% interval");
    table.right_aligned.insert(table.right_aligned.begin() + 8, true);
  }
  // 1.10.0 on: the case's figure, the geometric mean of its contexts' medians, which its interval and
  // every table below read.
  const bool figures =
      t.rounds_recorded && std::any_of(t.cases.begin(), t.cases.end(),
                                       [](const CaseResult& c) { return c.figure_ms.has_value(); });
  if (figures) {
    table.notes.push_back(
        "figure ms: the case's figure, the geometric mean of its CUDA contexts' medians (each context counts "
        "once, however many samples it took); its 95% interval and every other table, prediction and claim "
        "read it.");
    table.headers[8] = "figure 95% interval";
    table.headers.insert(table.headers.begin() + 8, "figure ms");
    table.right_aligned.insert(table.right_aligned.begin() + 8, true);
  }
  // A hot-gated run says per case whether it was gated and how many of its gates timed out.
  const bool gated = t.timing && t.timing->mode == "hot-gated";
  if (gated) {
    table.headers.insert(table.headers.end(), {"sampled", "gate timeouts"});
    table.right_aligned.insert(table.right_aligned.end(), {false, true});
  }
  for (const CaseResult& c : t.cases) {
    std::vector<double> clocks;
    for (const std::optional<double>& mhz : c.sample_sm_clock_mhz) {
      if (mhz) {
        clocks.push_back(*mhz);
      }
    }
    table.rows.push_back(
        {c.name, std::to_string(c.elements), std::to_string(c.summary.count), c.stop_reason,
         fixed(c.summary.median, 4), fixed(c.summary.q1, 4), fixed(c.summary.q3, 4),
         std::isfinite(c.summary.relative_median_ci) ? percent(c.summary.relative_median_ci) : "-",
         clocks.empty() ? "-" : fixed(median(clocks), 0), c.median_cycles ? fixed(*c.median_cycles, 0) : "-",
         std::to_string(c.throttled_samples.size())});
    if (t.rounds_recorded) {
      std::vector<std::string>& row = table.rows.back();
      row.insert(row.begin() + 3, std::to_string(rounds_of(c)));
      row.insert(row.begin() + 8, interval_text(c.median_interval_ms, 4));
    }
    if (figures) {
      std::vector<std::string>& row = table.rows.back();
      row.insert(row.begin() + 8, fixed(c.central_ms(), 4));
    }
    if (gated) {
      table.rows.back().push_back(c.timing_mode);
      table.rows.back().push_back(std::to_string(c.gate_timeout_samples.size()));
    }
  }
  return table;
}

// 1.8.0, hot timing: the small cases checked for the host's launch latency; no rows when none was.
Table launch_check_table(const Transcript& t) {
  Table table;
  table.title = "Hot timing at small n: the host's launch latency";
  table.notes = {
      "A hot sample starts on an idle GPU, so the host's launch latency falls inside it. Beside each small "
      "case's hot samples the harness took samples of the same region queued behind a launch gate (GPU time "
      "alone). Where the gated median is below half the hot one the case is launch-bound: its hot figure "
      "times the host's launches, which move by several percent between runs at every level, more than a "
      "narrow tolerance allows. A claim that needs such a figure's precision is judged from a cold or "
      "hot-gated run; here its interval, or its noise, leaves it inconclusive."};
  if (t.timing && t.timing->launch_check.find(kClaimLaunchCheckWords) != std::string::npos) {
    // A run that also checked its claims' cases (2026-12-05): they are listed here too.
    table.title = "Hot timing: the host's launch latency";
    table.notes.push_back(
        "The same check ran beside every case a claim sets against a bound reads, up to " +
        std::to_string(kClaimLaunchCheckMaxElements) +
        " elements: there a hot sample still carries the host's few microseconds of launch latency, a few "
        "percent of a short kernel. Each such claim is judged on the gated samples too, and its interval "
        "spans both readings: where the host's latency decides the verdict, the claim is inconclusive and "
        "says so.");
  }
  table.headers = {"case", "size", "n", "hot median us", "gated median us", "host share", "launch-bound"};
  table.right_aligned = {false, false, true, true, true, true, false};
  for (const CaseResult& c : t.cases) {
    if (!c.launch_check) {
      continue;
    }
    table.rows.push_back({c.name, c.size_label, std::to_string(c.elements),
                          fixed(c.summary.median * 1000.0, 2),
                          fixed(c.launch_check->gated_median_ms * 1000.0, 2),
                          percent(c.launch_check->host_share), c.launch_check->launch_bound ? "yes" : "no"});
  }
  return table;
}

Table profile_table(const ProfileRecord& profile) {
  Table table;
  table.title = "DRAM bytes counted by Nsight Compute";
  const bool ends_a_sentence = !profile.detail.empty() && profile.detail.back() == '.';
  table.notes = {"Status: " + profile.status + ". " + profile.detail + (ends_a_sentence ? "" : ".")};
  if (!profile.tool_version.empty()) {
    table.notes.push_back("Tool: " + profile.tool_version +
                          (profile.report_file.empty() ? "" : "; report: `" + profile.report_file + "`") +
                          ".");
  }
  table.headers = {"case", "size", "n", "kernels", "model B/elem", "DRAM B/elem", "DRAM / model"};
  table.right_aligned = {false, false, true, true, true, true, true};
  for (const ProfiledCase& c : profile.cases) {
    const double measured = c.dram_bytes_per_element();
    table.rows.push_back(
        {c.name, c.size_label, std::to_string(c.elements), std::to_string(c.kernels),
         fixed(c.model_bytes_per_element, 1), fixed(measured, 2),
         c.model_bytes_per_element > 0.0 ? fixed(measured / c.model_bytes_per_element, 3) : "-"});
  }
  return table;
}

// Microsecond figures joined with ", ", in order ("2.1, 3.4"); ASCII, so that columns pad evenly.
std::string joined_us(const std::vector<double>& values) {
  std::string text;
  for (const double v : values) {
    text += (text.empty() ? "" : ", ") + fixed(v, 1);
  }
  return text.empty() ? "-" : text;
}

// The tracing pass: one table per size label, in the order the sizes were traced.
std::vector<Table> timeline_tables(const TimelineRecord& timeline) {
  std::vector<std::string> labels;
  for (const TimelineCase& c : timeline.cases) {
    if (std::find(labels.begin(), labels.end(), c.size_label) == labels.end()) {
      labels.push_back(c.size_label);
    }
  }
  const bool ends_a_sentence = !timeline.detail.empty() && timeline.detail.back() == '.';
  std::vector<std::string> notes{"Status: " + escape_markdown(timeline.status) + ". " +
                                 escape_markdown(timeline.detail) + (ends_a_sentence ? "" : ".")};
  if (!timeline.tool.empty()) {
    notes.push_back(
        "Recorded by " + escape_markdown(timeline.tool) +
        (timeline.trace_file.empty()
             ? ""
             : "; Chrome trace (Perfetto UI, chrome://tracing): " + markdown_code_span(timeline.trace_file)) +
        (timeline.nsys_report.empty() ? ""
                                      : "; Nsight Systems: " + markdown_code_span(timeline.nsys_report)) +
        ".");
    notes.push_back(
        "Times in microseconds (us) per execution of the case. Kernels and gaps are those of the traced "
        "execution "
        "whose GPU span (first kernel's start to last kernel's end, from the GPU's own timestamps) "
        "is the median of the executions traced; each execution ran alone. The event medians time "
        "the same region with CUDA events, hot, without and with CUPTI recording.");
  }
  if (labels.empty()) {
    Table table;
    table.title = "Timeline (CUPTI)";
    table.notes = notes;
    return {table};
  }
  std::vector<Table> tables;
  for (const std::string& label : labels) {
    Table table;
    table.title = "Timeline (CUPTI), " + label;
    if (tables.empty()) {
      table.notes = notes;
    }
    table.headers = {"case",          "n",
                     "kernels (us)",  "gaps (us)",
                     "GPU span",      "event median",
                     "span / event",  "launch calls",
                     "traced median", "tracing cost"};
    table.right_aligned = {false, true, false, false, true, true, true, true, true, true};
    for (const TimelineCase& c : timeline.cases) {
      if (c.size_label != label) {
        continue;
      }
      std::vector<double> kernels;
      for (const TimelineKernel& k : c.kernels) {
        kernels.push_back(k.duration_us);
      }
      table.rows.push_back(
          {c.name, std::to_string(c.elements), joined_us(kernels), joined_us(c.gaps_us),
           fixed(c.gpu_span_median_us, 1), fixed(c.event_median_us, 1),
           c.event_median_us > 0.0 ? fixed(c.gpu_span_median_us / c.event_median_us, 2) : "-",
           fixed(c.launch_calls_median_us, 1), fixed(c.traced_event_median_us, 1),
           c.event_median_us > 0.0
               ? fixed(100.0 * (c.traced_event_median_us / c.event_median_us - 1.0), 1) + "%"
               : "-"});
    }
    tables.push_back(table);
  }
  return tables;
}

void append_section(std::ostringstream& out, const Table& table) {
  out << render_table_section(table);
}

}  // namespace

std::string render_table(const Table& table) {
  // Columns are padded to their widest cell, but never past kMaxPaddedWidth: one long cell from a
  // transcript (a 1 MB device name) is written once, not copied as padding into every row.
  constexpr std::size_t kMaxPaddedWidth = 400;
  const std::size_t columns = table.headers.size();
  // Every cell escaped once: row 0 is the header; a short row's missing cells are empty.
  std::vector<std::vector<std::string>> cells(table.rows.size() + 1, std::vector<std::string>(columns));
  for (std::size_t r = 0; r < cells.size(); ++r) {
    const std::vector<std::string>& source = r == 0 ? table.headers : table.rows[r - 1];
    for (std::size_t c = 0; c < columns && c < source.size(); ++c) {
      cells[r][c] = escape_markdown(source[c]);
    }
  }
  std::vector<std::size_t> widths(columns, 3);
  for (std::size_t c = 0; c < columns; ++c) {
    for (const auto& row : cells) {
      widths[c] = std::max(widths[c], row[c].size());
    }
    widths[c] = std::min(widths[c], kMaxPaddedWidth);
  }
  const auto right = [&](std::size_t c) { return c < table.right_aligned.size() && table.right_aligned[c]; };
  std::ostringstream out;
  const auto write_row = [&](const std::vector<std::string>& row) {
    out << "|";
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string fill(row[c].size() < widths[c] ? widths[c] - row[c].size() : 0, ' ');
      out << " " << (right(c) ? fill + row[c] : row[c] + fill) << " |";
    }
    out << "\n";
  };
  write_row(cells.front());
  out << "|";
  for (std::size_t c = 0; c < columns; ++c) {
    out << " " << std::string(widths[c] - 1, '-') << (right(c) ? ":" : "-") << " |";
  }
  out << "\n";
  for (std::size_t r = 1; r < cells.size(); ++r) {
    write_row(cells[r]);
  }
  return out.str();
}

std::string render_table_section(const Table& table, const std::string& heading_marks) {
  std::string text = "\n" + heading_marks + " " + table.title + "\n\n";
  for (const std::string& note : table.notes) {
    text += note + "\n";
  }
  if (!table.notes.empty()) {
    text += "\n";
  }
  Table body = table;
  body.title.clear();
  body.notes.clear();
  return text + render_table(body);
}

std::string render_markdown(const Transcript& t, const Lab* lab, const std::string& plots_section) {
  std::ostringstream out;
  out << "# " << escape_markdown(t.lab_title) << "\n\n";
  const std::string device_name = escape_markdown(fact_text(t, "device", "name"));
  if (t.is_transcribed()) {
    out << "Lab " << markdown_code_span(t.lab_name) << " on " << device_name
        << ": **transcribed, not measured by labrun.** Source: " << escape_markdown(t.provenance_source)
        << ". Written by labrun from transcript schema " << escape_markdown(t.schema_version) << ".\n";
    if (!t.provenance_note.empty()) {
      out << "\n" << escape_markdown(t.provenance_note) << "\n";
    }
    out << "\nTimes below are the source's published figures; spreads are unknown.\n";
  } else {
    out << "Lab " << markdown_code_span(t.lab_name) << " on " << device_name << ", finished "
        << escape_markdown(t.finished_utc) << " after " << fixed(t.wall_seconds, 1)
        << " s. Written by labrun from transcript schema " << escape_markdown(t.schema_version) << ".\n";
    if (t.is_synthetic()) {
      out << "\n**Synthetic: built by a program, never measured.** " << escape_markdown(t.provenance_note)
          << "\n";
    }
  }
  if (t.configuration == "smoke") {
    out << "\n**Configuration " << markdown_code_span(t.configuration)
        << ": tiny sizes that check the lab runs. These figures are not evidence.**\n";
  }
  if (!t.case_patterns.empty()) {
    out << "\nCases selected by:";
    for (const std::string& pattern : t.case_patterns) {
      out << " " << markdown_code_span(pattern);
    }
    out << "\n";
  }
  if (!t.is_transcribed()) {
    append_section(out, summary_table(t));
  }
  append_section(out, sizes_table(t));
  append_section(out, byte_model_table(t));
  if (!t.predictions.empty()) {
    append_section(out, predictions_table(t));
  }
  if (!t.correctness.empty()) {
    append_section(out, correctness_table(t));
  }
  if (!t.bitwise.empty()) {
    append_section(out, bitwise_table(t));
  }
  if (lab != nullptr && lab->render_tables) {
    for (const Table& table : lab->render_tables(t)) {
      append_section(out, table);
    }
    // The figures its cases declare are the generic table's columns, whatever tables the lab draws.
    if (!declared_figure_columns(t).empty()) {
      append_section(out, generic_cases_table(t));
    }
  } else if (lab != nullptr) {
    // A lab may leave its tables out (Lab::render_tables is optional): the generic one serves it.
    out << "\nLab " << markdown_code_span(t.lab_name)
        << " declares no tables of its own; every case is listed.\n";
    append_section(out, generic_cases_table(t));
  } else {
    out << "\nLab " << markdown_code_span(t.lab_name)
        << " is not part of this build, so its own tables are not "
        << "rendered; every case is listed instead.\n";
    append_section(out, generic_cases_table(t));
  }
  // 1.7.0 on, for a lab that declares one: the roofline, or why it cannot be drawn.
  const RooflineOutcome roofline = roofline_of(t);
  if (roofline.figures) {
    append_section(out, roofline_table(*roofline.figures));
  } else if (!roofline.not_drawn.empty()) {
    out << "\n## Roofline\n\nNot drawn: " << escape_markdown(roofline.not_drawn) << ".\n";
  }
  out << plots_section;
  if (const Table ratios = measured_ratios_table(t); !ratios.rows.empty()) {
    append_section(out, ratios);
  }
  if (t.claims_recorded && !t.claims.empty()) {
    append_section(out, claims_table(t));
  }
  if (const Table launch = launch_check_table(t); !launch.rows.empty()) {
    append_section(out, launch);
  }
  if (t.stability) {
    append_section(out, stability_table(*t.stability));
  }
  if (t.profile) {
    append_section(out, profile_table(*t.profile));
  }
  if (t.timeline) {
    for (const Table& table : timeline_tables(*t.timeline)) {
      append_section(out, table);
    }
  }
  if (t.timing && t.timing_recorded) {
    Table rule = sampling_rule_table(*t.timing);
    if (t.rounds_recorded) {
      add_round_rows(*t.timing, rule);
    }
    append_section(out, rule);
    append_section(out, sampling_table(t));
  }
  append_section(out, facts_table(t));
  out << "\nTimes are medians of each case's samples, in milliseconds from CUDA events; every "
         "raw sample is in the JSON transcript.\n";
  return out.str();
}

std::string plots_section_beside(const Transcript& transcript, const Lab* lab,
                                 const std::filesystem::path& json_file) {
  const std::vector<PlotSpec> specs = transcript_plots(transcript, lab);
  if (specs.empty()) {
    return "";
  }
  const std::filesystem::path dir = json_file.parent_path().empty() ? "." : json_file.parent_path();
  return plot_links_markdown(existing_plots(specs, dir, transcript_file_stem(json_file), kPlotsBesideFormat),
                             dir);
}

std::string render_markdown_beside(const Transcript& transcript, const Lab* lab,
                                   const std::filesystem::path& json_file) {
  return render_markdown(transcript, lab, plots_section_beside(transcript, lab, json_file));
}

}  // namespace labrun
