#include "evidence/consistency.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/byte_model.hpp"
#include "core/rounds.hpp"
#include "core/sampling.hpp"
#include "core/statistics.hpp"

namespace labrun {
namespace {

bool agree(double recorded, double computed) {
  if (std::isnan(recorded) || std::isnan(computed)) {
    return std::isnan(recorded) && std::isnan(computed);
  }
  if (std::isinf(recorded) || std::isinf(computed)) {
    return recorded == computed;
  }
  return std::fabs(recorded - computed) <=
         kFigureRelativeTolerance * std::max(std::fabs(recorded), std::fabs(computed));
}

// 12 significant digits: enough to show any difference beyond kFigureRelativeTolerance.
std::string figure_text(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", value);
  return text;
}

// "/cases/3/summary/median_ms: -1 does not follow from samples_ms (which give 0.5)"
SchemaProblem mismatch(const std::string& pointer, double recorded, double computed,
                       const std::string& from) {
  return SchemaProblem{pointer, figure_text(recorded) + " does not follow from " + from + " (which give " +
                                    figure_text(computed) + ")"};
}

std::optional<SchemaProblem> summary_problem(const CaseResult& c, const std::string& at) {
  const SampleSummary computed = summarize(c.samples_ms);
  const SampleSummary& recorded = c.summary;
  const std::string summary = at + "/summary/";
  if (recorded.count != computed.count) {
    return SchemaProblem{
        summary + "count",
        std::to_string(recorded.count) + " samples, but samples_ms holds " + std::to_string(computed.count)};
  }
  const std::pair<const char*, std::pair<double, double>> figures[] = {
      {"median_ms", {recorded.median, computed.median}},
      {"mean_ms", {recorded.mean, computed.mean}},
      {"min_ms", {recorded.min, computed.min}},
      {"max_ms", {recorded.max, computed.max}},
      {"q1_ms", {recorded.q1, computed.q1}},
      {"q3_ms", {recorded.q3, computed.q3}},
      {"relative_spread", {recorded.relative_spread, computed.relative_spread}},
      {"relative_median_ci", {recorded.relative_median_ci, computed.relative_median_ci}},
  };
  for (const auto& [field, values] : figures) {
    if (!agree(values.first, values.second)) {
      return mismatch(summary + field, values.first, values.second, "its samples_ms");
    }
  }
  return std::nullopt;
}

std::optional<SchemaProblem> sampling_problem(const CaseResult& c, const std::string& at,
                                              const std::optional<TimingRecord>& timing) {
  if (c.timing_mode.empty()) {
    return std::nullopt;  // transcribed, or no sampling record
  }
  const std::size_t count = c.samples_ms.size();
  if (c.sample_sm_clock_mhz.size() != count) {
    return SchemaProblem{
        at + "/sample_sm_clock_mhz",
        std::to_string(c.sample_sm_clock_mhz.size()) + " clocks for " + std::to_string(count) + " samples"};
  }
  for (const auto& [field, indices] :
       {std::pair<const char*, const std::vector<std::size_t>*>{"throttled_samples", &c.throttled_samples},
        {"gate_timeout_samples", &c.gate_timeout_samples}}) {
    for (std::size_t i = 0; i < indices->size(); ++i) {
      const bool ordered = i == 0 || (*indices)[i - 1] < (*indices)[i];
      if ((*indices)[i] >= count || !ordered) {
        return SchemaProblem{at + "/" + field + "/" + std::to_string(i),
                             "sample index " + std::to_string((*indices)[i]) +
                                 (ordered ? " is beyond the " + std::to_string(count) + " samples"
                                          : " is out of order (indices ascend, each once)")};
      }
    }
  }
  if (timing && timing->throttle_threshold_mhz &&
      c.throttled_samples != throttled_samples(c.sample_sm_clock_mhz, *timing->throttle_threshold_mhz)) {
    return SchemaProblem{at + "/throttled_samples",
                         "does not follow from sample_sm_clock_mhz and the threshold " +
                             figure_text(*timing->throttle_threshold_mhz) +
                             " MHz (/timing/throttle_threshold_mhz)"};
  }
  const std::optional<double> cycles =
      median_cycles(c.samples_ms, c.sample_sm_clock_mhz, c.launches_per_sample);
  if (cycles.has_value() != c.median_cycles.has_value() || (cycles && !agree(*c.median_cycles, *cycles))) {
    if (!cycles) {
      return SchemaProblem{at + "/median_cycles", "recorded, but no sample has a known clock"};
    }
    return mismatch(at + "/median_cycles", c.median_cycles.value_or(std::nan("")), *cycles,
                    "samples_ms, sample_sm_clock_mhz and launches_per_sample");
  }
  return std::nullopt;
}

std::optional<SchemaProblem> published_problem(const CaseResult& c, const std::string& at) {
  if (!c.published) {
    return std::nullopt;
  }
  if (!std::isfinite(c.published->value_ms) || c.published->value_ms <= 0.0) {
    return SchemaProblem{at + "/published/value_ms", figure_text(c.published->value_ms) +
                                                         " is not a time (a published figure is above 0)"};
  }
  // 1.7.0: a source that does not say how its figure summarised its runs records "not stated", 0 runs.
  const bool runs_not_stated = c.published->statistic == "not stated";
  if (runs_not_stated && c.published->runs != 0) {
    return SchemaProblem{
        at + "/published/runs",
        std::to_string(c.published->runs) + " runs where the statistic is not stated (then runs is 0)"};
  }
  if (!runs_not_stated && c.published->runs < 1) {
    return SchemaProblem{at + "/published/runs", std::to_string(c.published->runs) +
                                                     " runs: a published figure summarises at least one"};
  }
  return std::nullopt;
}

bool same_interval(const std::optional<Interval>& a, const std::optional<Interval>& b) {
  return a.has_value() == b.has_value() && (!a || (agree(a->low, b->low) && agree(a->high, b->high)));
}

std::string interval_text(const std::optional<Interval>& interval) {
  return interval ? figure_text(interval->low) + " to " + figure_text(interval->high) : "none";
}

// 1.8.0: each round's context against the run's rounds per context and its contexts, and the launch
// check against its gated samples and the case's median.
std::optional<SchemaProblem> contexts_problem(const CaseResult& c, const std::string& at,
                                              const std::optional<TimingRecord>& timing) {
  for (std::size_t r = 0; r < c.rounds.size(); ++r) {
    if (!c.rounds[r].context) {
      continue;
    }
    const int context = *c.rounds[r].context;
    const int expected = timing ? context_of_round(static_cast<int>(r), timing->rounds_per_context) : 0;
    const std::size_t contexts = timing ? timing->contexts.size() : 0;
    if (context != expected || static_cast<std::size_t>(context) >= contexts) {
      return SchemaProblem{at + "/rounds/" + std::to_string(r) + "/context",
                           "context " + std::to_string(context) + ", where round " + std::to_string(r + 1) +
                               " runs in context " + std::to_string(expected) +
                               " (/timing/rounds_per_context) of the " + std::to_string(contexts) +
                               " the run records (/timing/contexts)"};
    }
  }
  if (c.launch_check) {
    const LaunchLatencyCheck computed =
        launch_latency_check(c.launch_check->gated_samples_ms, c.summary.median);
    const std::string check = at + "/launch_check/";
    if (!agree(c.launch_check->gated_median_ms, computed.gated_median_ms)) {
      return mismatch(check + "gated_median_ms", c.launch_check->gated_median_ms, computed.gated_median_ms,
                      "its gated_samples_ms");
    }
    if (!agree(c.launch_check->host_share, computed.host_share)) {
      return mismatch(check + "host_share", c.launch_check->host_share, computed.host_share,
                      "its gated median and the case's median");
    }
    if (c.launch_check->launch_bound != computed.launch_bound) {
      return SchemaProblem{check + "launch_bound",
                           std::string(c.launch_check->launch_bound ? "true" : "false") +
                               " for a host share of " + figure_text(computed.host_share)};
    }
  }
  return std::nullopt;
}

// 1.6.0: each round's median against its samples, and the case's median interval against the rounds;
// 1.10.0: the case's figure against its contexts' medians.
std::optional<SchemaProblem> rounds_problem(const CaseResult& c, const std::string& at,
                                            double process_allowance) {
  std::size_t first = 0;
  for (std::size_t r = 0; r < c.rounds.size(); ++r) {
    const auto count = static_cast<std::size_t>(std::max(c.rounds[r].samples, 0));
    if (first + count > c.samples_ms.size()) {
      return SchemaProblem{
          at + "/rounds/" + std::to_string(r) + "/samples",
          "rounds beyond the " + std::to_string(c.samples_ms.size()) + " samples of samples_ms"};
    }
    const std::vector<double> round(c.samples_ms.begin() + static_cast<std::ptrdiff_t>(first),
                                    c.samples_ms.begin() + static_cast<std::ptrdiff_t>(first + count));
    if (!agree(c.rounds[r].median_ms, median(round))) {
      return mismatch(at + "/rounds/" + std::to_string(r) + "/median_ms", c.rounds[r].median_ms,
                      median(round), "its round's samples in samples_ms");
    }
    first += count;
  }
  // 1.10.0: a recorded figure is the geometric mean of the case's contexts' medians.
  if (c.figure_ms && !agree(*c.figure_ms, unit_geometric_mean(c))) {
    return mismatch(at + "/figure_ms", *c.figure_ms, unit_geometric_mean(c),
                    "the geometric mean of its contexts' medians");
  }
  const std::optional<Interval> computed = case_median_interval(c, process_allowance);
  if (!same_interval(c.median_interval_ms, computed)) {
    return SchemaProblem{at + "/median_interval_ms",
                         interval_text(c.median_interval_ms) +
                             " does not follow from its rounds' medians, by context (which give " +
                             interval_text(computed) + ")"};
  }
  return std::nullopt;
}

// 1.11.0: the case's recorded units against its rounds' contexts, and its rounds against the rounds a
// case of its size takes (timing.rounds, or timing.small_case_rounds for a small case).
std::optional<SchemaProblem> units_problem(const CaseResult& c, const std::string& at,
                                           const std::optional<TimingRecord>& timing) {
  const std::size_t units = interval_units(c).size();
  if (c.units && static_cast<std::size_t>(*c.units) != units) {
    return SchemaProblem{at + "/units", std::to_string(*c.units) + " units, where its rounds ran in " +
                                            std::to_string(units) + " (/rounds/*/context)"};
  }
  if (timing && timing->small_case_rounds > 0 && !c.rounds.empty()) {
    const int expected = rounds_for_case(c.elements, *timing);
    if (c.rounds.size() != static_cast<std::size_t>(expected)) {
      return SchemaProblem{at + "/rounds",
                           std::to_string(c.rounds.size()) + " rounds, where a case of " +
                               std::to_string(c.elements) + " elements takes " + std::to_string(expected) +
                               " (/timing/rounds, /timing/small_case_rounds at most " +
                               std::to_string(timing->small_case_rounds_max_elements) + " elements)"};
    }
  }
  return std::nullopt;
}

std::optional<SchemaProblem> size_problem(const Transcript& t, const CaseResult& c, const std::string& at) {
  for (const SizeRecord& size : t.sizes) {
    if (size.label == c.size_label && size.elements && *size.elements != c.elements) {
      return SchemaProblem{at + "/elements", std::to_string(c.elements) + " elements at size '" +
                                                 c.size_label + "', which /sizes records as " +
                                                 std::to_string(*size.elements)};
    }
  }
  return std::nullopt;
}

// A transcript's case's byte model against the one its lab declares: GB/s figures are the model's
// bytes over the median, so a model the lab does not declare would forge every one of them.
std::optional<SchemaProblem> model_problem(const CaseResult& c, const std::string& at, const Lab* lab) {
  const CaseSpec* spec = lab != nullptr ? lab->find_case(c.name) : nullptr;
  if (spec == nullptr) {
    return std::nullopt;  // a lab this build does not know, or a case it does not declare (a submission)
  }
  const std::pair<const char*, std::pair<double, double>> fields[] = {
      {"model/read_bytes_per_element", {c.model.read_bytes_per_element, spec->model.read_bytes_per_element}},
      {"model/write_bytes_per_element",
       {c.model.write_bytes_per_element, spec->model.write_bytes_per_element}},
      {"model/launches", {static_cast<double>(c.model.launches), static_cast<double>(spec->model.launches)}},
      {"launches_per_sample",
       {static_cast<double>(c.launches_per_sample), static_cast<double>(spec->launches_per_sample)}},
  };
  for (const auto& [field, values] : fields) {
    if (!agree(values.first, values.second)) {
      return SchemaProblem{at + "/" + field, figure_text(values.first) + ", where " + lab->name +
                                                 " declares " + figure_text(values.second) + " for " +
                                                 c.name};
    }
  }
  // 1.7.0: the flop model, which every GFLOP/s figure and the roofline divide by the time. A transcript
  // older than the lab's flop model declares none, and is read as it was written.
  if (c.model.flops_per_element && spec->model.flops_per_element &&
      !agree(*c.model.flops_per_element, *spec->model.flops_per_element)) {
    return SchemaProblem{at + "/model/flops_per_element",
                         figure_text(*c.model.flops_per_element) + ", where " + lab->name + " declares " +
                             figure_text(*spec->model.flops_per_element) + " for " + c.name};
  }
  return std::nullopt;
}

std::optional<SchemaProblem> case_problem(const Transcript& t, std::size_t index, const Lab* lab) {
  const CaseResult& c = t.cases[index];
  const std::string at = "/cases/" + std::to_string(index);
  if (auto problem = model_problem(c, at, lab)) {
    return problem;
  }
  if (auto problem = size_problem(t, c, at)) {
    return problem;
  }
  if (t.is_transcribed() && !c.has_samples()) {
    return published_problem(c, at);
  }
  if (auto problem = summary_problem(c, at)) {
    return problem;
  }
  if (auto problem = rounds_problem(c, at, process_allowance_of(t))) {
    return problem;
  }
  if (auto problem = contexts_problem(c, at, t.timing)) {
    return problem;
  }
  if (auto problem = units_problem(c, at, t.timing)) {
    return problem;
  }
  return sampling_problem(c, at, t.timing);
}

std::optional<SchemaProblem> stability_problem(const Transcript& t) {
  if (!t.stability) {
    return std::nullopt;
  }
  const StabilityCheck& s = *t.stability;
  const CaseResult* timed = nullptr;
  for (const CaseResult* c : t.cases_named(s.case_name)) {
    if (c->size_label == s.size_label && c->elements == s.elements) {
      timed = c;
    }
  }
  if (timed == nullptr) {
    return SchemaProblem{"/stability/elements", "no case " + s.case_name + " was timed at " +
                                                    std::to_string(s.elements) + " elements"};
  }
  if (!agree(s.first_median_ms, timed->summary.median)) {
    return mismatch("/stability/first_median_ms", s.first_median_ms, timed->summary.median,
                    "the median of the case it times again");
  }
  const double second = median(s.second_samples_ms);
  if (!agree(s.second_median_ms, second)) {
    return mismatch("/stability/second_median_ms", s.second_median_ms, second, "its second_samples_ms");
  }
  const double difference = relative_difference(s.first_median_ms, s.second_median_ms);
  if (!agree(s.relative_difference, difference)) {
    return mismatch("/stability/relative_difference", s.relative_difference, difference, "its two medians");
  }
  return std::nullopt;
}

std::optional<SchemaProblem> correctness_problem(const Transcript& t) {
  for (std::size_t i = 0; i < t.correctness.size(); ++i) {
    const CorrectnessCheck& c = t.correctness[i];
    const std::string at = "/correctness/checks/" + std::to_string(i);
    if (c.mismatches > c.elements) {
      return SchemaProblem{at + "/mismatches", std::to_string(c.mismatches) + " mismatches among " +
                                                   std::to_string(c.elements) + " elements"};
    }
    if (c.passed != (c.mismatches == 0)) {
      return SchemaProblem{at + "/passed", std::string(c.passed ? "true" : "false") + " with " +
                                               std::to_string(c.mismatches) +
                                               " mismatches (a check passes exactly when none mismatches)"};
    }
  }
  for (std::size_t i = 0; i < t.bitwise.size(); ++i) {
    const BitwiseComparison& b = t.bitwise[i];
    if (b.differing > b.elements) {
      return SchemaProblem{
          "/correctness/bitwise/" + std::to_string(i) + "/differing",
          std::to_string(b.differing) + " differing among " + std::to_string(b.elements) + " elements"};
    }
  }
  return std::nullopt;
}

std::optional<SchemaProblem> prediction_problem(const Transcript& t) {
  for (std::size_t i = 0; i < t.predictions.size(); ++i) {
    const PredictionRecord& p = t.predictions[i];
    const CaseResult* slower = t.find_case(p.slower_case);
    const CaseResult* faster = t.find_case(p.faster_case);
    if (slower == nullptr || faster == nullptr) {
      continue;  // a transcription may predict for cases its source did not publish
    }
    const PredictedRatios computed = predicted_ratios(slower->model, faster->model);
    const std::string at = "/predictions/" + std::to_string(i);
    if (!agree(p.ratios.bytes, computed.bytes)) {
      return mismatch(at + "/byte_ratio", p.ratios.bytes, computed.bytes, "the byte models of its two cases");
    }
    if (!agree(p.ratios.launches, computed.launches)) {
      return mismatch(at + "/launch_ratio", p.ratios.launches, computed.launches,
                      "the byte models of its two cases");
    }
    // 1.6.0: each ratio measured, and its interval, against the two cases' medians and rounds.
    const std::vector<PredictionMeasurement> measured = measure_prediction(t, p);
    for (std::size_t m = 0; m < p.measured.size(); ++m) {
      const PredictionMeasurement& recorded = p.measured[m];
      const std::string where = at + "/measured/" + std::to_string(m);
      const auto same = std::find_if(measured.begin(), measured.end(), [&](const PredictionMeasurement& c) {
        return c.size_label == recorded.size_label && c.elements == recorded.elements;
      });
      if (same == measured.end()) {
        return SchemaProblem{where, "no ratio of its two cases was timed at '" + recorded.size_label + "' (" +
                                        std::to_string(recorded.elements) + " elements)"};
      }
      if (!agree(recorded.ratio, same->ratio)) {
        return mismatch(where + "/ratio", recorded.ratio, same->ratio, "the two cases' medians");
      }
      if (!same_interval(recorded.interval, same->interval)) {
        return SchemaProblem{where + "/interval",
                             interval_text(recorded.interval) +
                                 " does not follow from the two cases' rounds (which give " +
                                 interval_text(same->interval) + ")"};
      }
    }
  }
  return std::nullopt;
}

std::optional<SchemaProblem> profile_problem(const Transcript& t) {
  if (!t.profile) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < t.profile->cases.size(); ++i) {
    const ProfiledCase& p = t.profile->cases[i];
    const CaseResult* c = t.find_case(p.name, p.size_label);
    if (c != nullptr && !agree(p.model_bytes_per_element, c->model.bytes_per_element())) {
      return mismatch("/profile/cases/" + std::to_string(i) + "/model_bytes_per_element",
                      p.model_bytes_per_element, c->model.bytes_per_element(), "the case's byte model");
    }
  }
  return std::nullopt;
}

}  // namespace

FigureCheck check_figures(const Transcript& t, const Lab* lab) {
  FigureCheck check;
  for (std::size_t i = 0; i < t.cases.size() && !check.forged; ++i) {
    check.forged = case_problem(t, i, lab);
  }
  for (const auto& figures : {stability_problem, correctness_problem, prediction_problem, profile_problem}) {
    if (!check.forged) {
      check.forged = figures(t);
    }
  }
  check.declaration = check_against_declaration(t, lab);
  if (!check.forged) {
    check.forged = check.declaration.forged;
  }
  return check;
}

std::optional<SchemaProblem> inconsistent_figure(const Transcript& t, const Lab* lab) {
  return check_figures(t, lab).forged;
}

}  // namespace labrun
