#include "core/rounds.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace labrun {

SamplingRule round_rule(const SamplingRule& rule, int rounds) {
  if (rounds < 1) {
    throw std::invalid_argument("a run takes at least one round");
  }
  if (rounds == 1) {
    return rule;
  }
  const auto share = [rounds](int total) { return (total + rounds - 1) / rounds; };
  SamplingRule round = rule;
  round.min_samples = share(rule.min_samples);
  round.max_samples = share(rule.max_samples);
  round.case_time_limit_s = rule.case_time_limit_s / static_cast<double>(rounds);
  if (rule.adaptive()) {
    round.min_samples = std::max(round.min_samples, kMinSamplesPerAdaptiveRound);
    round.max_samples = std::max(round.max_samples, round.min_samples);
    // The pooled median of R rounds of n samples is about as precise as one median of R n samples,
    // whose interval is sqrt(R) times narrower than each round's.
    round.target_relative_median_ci = rule.target_relative_median_ci * std::sqrt(static_cast<double>(rounds));
  }
  return round;
}

std::vector<std::size_t> round_order(std::size_t count, int round, int rounds, std::uint64_t seed) {
  if (rounds <= 1) {
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i) {
      order[i] = i;
    }
    return order;
  }
  // Each round's seed is the run's, moved by the golden-ratio increment once per round number, so the
  // rounds' permutations are as independent as splitmix64's outputs.
  return shuffled_order(count, seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(round) + 1));
}

bool takes_small_case_rounds(std::uint64_t elements, const TimingRecord& timing) {
  return timing.small_case_rounds > 0 && elements <= timing.small_case_rounds_max_elements;
}

int rounds_for_case(std::uint64_t elements, const TimingRecord& timing) {
  return takes_small_case_rounds(elements, timing) ? timing.small_case_rounds : timing.rounds;
}

int context_of_round(int round, int rounds_per_context) {
  return rounds_per_context > 0 ? round / rounds_per_context : 0;
}

bool round_starts_context(int round, int rounds_per_context) {
  return round > 0 && rounds_per_context > 0 && round % rounds_per_context == 0;
}

int contexts_for(int rounds, int rounds_per_context) {
  return rounds_per_context > 0 ? (rounds + rounds_per_context - 1) / rounds_per_context : 1;
}

std::size_t rounds_of(const CaseResult& result) {
  return result.rounds.empty() ? 1 : result.rounds.size();
}

std::vector<double> round_medians(const CaseResult& result) {
  if (result.rounds.empty()) {
    return {result.summary.median};
  }
  std::vector<double> medians;
  medians.reserve(result.rounds.size());
  for (const RoundRecord& round : result.rounds) {
    medians.push_back(round.median_ms);
  }
  return medians;
}

std::vector<std::vector<std::size_t>> interval_units(const CaseResult& result) {
  if (result.rounds.empty()) {
    return {{0}};
  }
  const bool contexts = std::all_of(result.rounds.begin(), result.rounds.end(),
                                    [](const RoundRecord& r) { return r.context.has_value(); });
  std::vector<std::vector<std::size_t>> units;
  for (std::size_t r = 0; r < result.rounds.size(); ++r) {
    if (units.empty() || !contexts || result.rounds[r].context != result.rounds[r - 1].context) {
      units.emplace_back();
    }
    units.back().push_back(r);
  }
  return units;
}

namespace {

// Where each round's samples start in samples_ms, and one past the last round's end.
std::vector<std::size_t> round_starts(const CaseResult& result) {
  std::vector<std::size_t> starts{0};
  for (const RoundRecord& round : result.rounds) {
    starts.push_back(std::min(result.samples_ms.size(),
                              starts.back() + static_cast<std::size_t>(std::max(round.samples, 0))));
  }
  return starts;
}

}  // namespace

std::vector<double> unit_medians(const CaseResult& result) {
  if (result.rounds.empty()) {
    return {result.summary.median};
  }
  const std::vector<std::size_t> starts = round_starts(result);
  std::vector<double> medians;
  for (const std::vector<std::size_t>& unit : interval_units(result)) {
    if (unit.size() == 1) {
      medians.push_back(result.rounds[unit.front()].median_ms);
      continue;
    }
    medians.push_back(median(std::vector<double>(
        result.samples_ms.begin() + static_cast<std::ptrdiff_t>(starts[unit.front()]),
        result.samples_ms.begin() + static_cast<std::ptrdiff_t>(starts[unit.back() + 1]))));
  }
  return medians;
}

std::optional<Interval> case_median_interval(const CaseResult& result, double process_allowance) {
  const std::vector<double> medians = unit_medians(result);
  if (medians.size() < 2) {
    return std::nullopt;
  }
  return between_round_interval(result.central_ms(), medians, process_allowance);
}

double unit_geometric_mean(const CaseResult& result) {
  const std::vector<double> medians = unit_medians(result);
  if (medians.size() < 2) {
    return result.summary.median;
  }
  double log_sum = 0.0;
  for (const double m : medians) {
    if (!(m > 0.0) || !std::isfinite(m)) {
      return result.summary.median;
    }
    log_sum += std::log(m);
  }
  return std::exp(log_sum / static_cast<double>(medians.size()));
}

LaunchLatencyCheck launch_latency_check(std::vector<double> gated_samples_ms, double hot_median_ms) {
  LaunchLatencyCheck check;
  check.gated_median_ms = median(gated_samples_ms);
  check.gated_samples_ms = std::move(gated_samples_ms);
  check.host_share = hot_median_ms > 0.0 ? std::max(0.0, 1.0 - check.gated_median_ms / hot_median_ms) : 0.0;
  check.launch_bound = check.host_share >= kLaunchBoundShare;
  return check;
}

void append_round(CaseResult& result, const RoundSamples& round, double process_allowance, CasePoint figure) {
  const std::size_t offset = result.samples_ms.size();
  result.samples_ms.insert(result.samples_ms.end(), round.samples_ms.begin(), round.samples_ms.end());
  result.sample_sm_clock_mhz.insert(result.sample_sm_clock_mhz.end(), round.sm_clock_mhz.begin(),
                                    round.sm_clock_mhz.end());
  for (const std::size_t index : round.gate_timeout_samples) {
    result.gate_timeout_samples.push_back(offset + index);
  }
  result.rounds.push_back(RoundRecord{static_cast<int>(round.samples_ms.size()), median(round.samples_ms),
                                      stop_reason_name(round.stop_reason), round.sampling_seconds,
                                      round.context});
  result.summary = summarize(result.samples_ms);
  result.sampling_seconds += round.sampling_seconds;
  // The reason most rounds stopped for; among equally common ones, the earliest round's.
  std::size_t best_count = 0;
  for (const RoundRecord& candidate : result.rounds) {
    const auto count = static_cast<std::size_t>(
        std::count_if(result.rounds.begin(), result.rounds.end(),
                      [&](const RoundRecord& r) { return r.stop_reason == candidate.stop_reason; }));
    if (count > best_count) {
      best_count = count;
      result.stop_reason = candidate.stop_reason;
    }
  }
  if (figure == CasePoint::kUnitGeometricMean) {
    result.figure_ms = unit_geometric_mean(result);
  }
  result.median_interval_ms = case_median_interval(result, process_allowance);
  if (!round.launch_check_ms.empty() || result.launch_check) {
    std::vector<double> gated =
        result.launch_check ? result.launch_check->gated_samples_ms : std::vector<double>{};
    gated.insert(gated.end(), round.launch_check_ms.begin(), round.launch_check_ms.end());
    result.launch_check = launch_latency_check(std::move(gated), result.summary.median);
  }
}

double process_allowance_of(const Transcript& transcript) {
  return transcript.timing ? transcript.timing->process_allowance : 0.0;
}

bool times_host_launch_rate(const CaseResult& c) {
  return c.launches_per_sample > kMaxGatedLaunchesPerSample && c.elements <= kLaunchCheckMaxElements;
}

bool host_bound_case(const CaseResult& c) {
  return times_host_launch_rate(c) || (c.launch_check && c.launch_check->launch_bound);
}

bool claims_allow_by_figure_kind(const Transcript& transcript) {
  return transcript.timing &&
         transcript.timing->interval_method.find(kFigureKindAllowanceWords) != std::string::npos;
}

bool claims_pick_on_the_run(const Transcript& transcript) {
  return transcript.timing &&
         transcript.timing->interval_method.find(kPickOnTheRunWords) != std::string::npos;
}

bool claims_read_gpu_alone(const Transcript& transcript) {
  return transcript.timing && transcript.timing->mode == timing_mode_name(TimingMode::kHot) &&
         transcript.timing->interval_method.find(kGpuAloneWords) != std::string::npos;
}

bool has_gated_reading(const CaseResult& c) {
  if (!c.launch_check || c.rounds.empty() || c.launch_check->gated_samples_ms.empty()) {
    return false;
  }
  const std::size_t gated = c.launch_check->gated_samples_ms.size();
  return gated % c.rounds.size() == 0;
}

Transcript gated_reading(const Transcript& transcript) {
  Transcript reading = transcript;
  const double allowance = process_allowance_of(transcript);
  for (CaseResult& c : reading.cases) {
    if (!has_gated_reading(c)) {
      continue;
    }
    const std::vector<double> gated = c.launch_check->gated_samples_ms;
    const std::size_t per_round = gated.size() / c.rounds.size();
    const std::vector<RoundRecord> hot_rounds = c.rounds;
    const CasePoint figure = c.figure_ms ? CasePoint::kUnitGeometricMean : CasePoint::kPooledMedian;
    c.samples_ms.clear();
    c.sample_sm_clock_mhz.clear();
    c.throttled_samples.clear();
    c.gate_timeout_samples.clear();
    c.rounds.clear();
    c.sampling_seconds = 0.0;
    c.figure_ms.reset();
    c.median_interval_ms.reset();
    c.launch_check.reset();
    c.timing_mode = timing_mode_name(TimingMode::kHotGated);
    for (std::size_t r = 0; r < hot_rounds.size(); ++r) {
      RoundSamples round;
      round.samples_ms.assign(gated.begin() + static_cast<std::ptrdiff_t>(r * per_round),
                              gated.begin() + static_cast<std::ptrdiff_t>((r + 1) * per_round));
      round.sm_clock_mhz.assign(per_round, std::nullopt);
      round.context = hot_rounds[r].context;
      append_round(c, round, allowance, figure);
    }
  }
  return reading;
}

ProcessTerm claim_process_term(const std::vector<const CaseResult*>& cases, double recorded) {
  if (!(recorded > 0.0)) {
    return {};
  }
  const auto any = [&](bool (*test)(const CaseResult&)) {
    return std::any_of(cases.begin(), cases.end(), [&](const CaseResult* c) { return c && test(*c); });
  };
  if (any(times_host_launch_rate)) {
    return {recorded, kLaunchRateProcessFloor};
  }
  if (any(host_bound_case)) {
    return {recorded, 0.0};
  }
  return {std::min(recorded, kGpuBoundProcessAllowance), 0.0};
}

std::size_t round_count(const Transcript& transcript) {
  std::optional<std::size_t> fewest;
  for (const CaseResult& c : transcript.cases) {
    if (c.has_samples()) {
      fewest = std::min(fewest.value_or(rounds_of(c)), rounds_of(c));
    }
  }
  return fewest.value_or(1);
}

std::size_t unit_count(const Transcript& transcript) {
  std::optional<std::size_t> fewest;
  for (const CaseResult& c : transcript.cases) {
    if (c.has_samples()) {
      const std::size_t units = interval_units(c).size();
      fewest = std::min(fewest.value_or(units), units);
    }
  }
  return fewest.value_or(1);
}

std::size_t most_units(const Transcript& transcript) {
  std::size_t most = 1;
  for (const CaseResult& c : transcript.cases) {
    if (c.has_samples()) {
      most = std::max(most, interval_units(c).size());
    }
  }
  return most;
}

std::optional<std::size_t> shared_units(const std::vector<const CaseResult*>& cases) {
  std::optional<std::size_t> fewest;
  for (const CaseResult* c : cases) {
    if (c != nullptr && c->has_samples()) {
      const std::size_t units = interval_units(*c).size();
      fewest = std::min(fewest.value_or(units), units);
    }
  }
  return fewest;
}

namespace {

// The transcript with each sampled case cut down to its rounds [first_round, last_round] (inclusive;
// `rounds_wanted` gives them, nullopt: the case has none of the view's and is left out); a case
// without samples or rounds stays as it is in the view `keep_unsampled`, and is left out of others.
template <typename RoundsWanted>
Transcript view_of_rounds(const Transcript& transcript, bool keep_unsampled, RoundsWanted rounds_wanted) {
  Transcript view = transcript;
  view.cases.clear();
  for (const CaseResult& c : transcript.cases) {
    if (!c.has_samples() || c.rounds.empty()) {
      if (keep_unsampled) {
        view.cases.push_back(c);
      }
      continue;
    }
    const std::optional<std::pair<std::size_t, std::size_t>> wanted = rounds_wanted(c);
    if (!wanted) {
      continue;
    }
    const std::vector<std::size_t> starts = round_starts(c);
    const std::size_t last = starts[wanted->second + 1];
    const std::size_t first = std::min(starts[wanted->first], last);
    CaseResult one = c;
    one.samples_ms.assign(c.samples_ms.begin() + static_cast<std::ptrdiff_t>(first),
                          c.samples_ms.begin() + static_cast<std::ptrdiff_t>(last));
    one.sample_sm_clock_mhz.clear();
    for (std::size_t i = first; i < last && i < c.sample_sm_clock_mhz.size(); ++i) {
      one.sample_sm_clock_mhz.push_back(c.sample_sm_clock_mhz[i]);
    }
    const auto within = [&](const std::vector<std::size_t>& indices) {
      std::vector<std::size_t> kept;
      for (const std::size_t index : indices) {
        if (index >= first && index < last) {
          kept.push_back(index - first);
        }
      }
      return kept;
    };
    one.throttled_samples = within(c.throttled_samples);
    one.gate_timeout_samples = within(c.gate_timeout_samples);
    one.summary = summarize(one.samples_ms);
    one.rounds.assign(c.rounds.begin() + static_cast<std::ptrdiff_t>(wanted->first),
                      c.rounds.begin() + static_cast<std::ptrdiff_t>(wanted->second + 1));
    one.stop_reason = one.rounds.front().stop_reason;
    one.sampling_seconds = 0.0;
    for (const RoundRecord& r : one.rounds) {
      one.sampling_seconds += r.sampling_seconds;
    }
    one.median_interval_ms.reset();
    one.figure_ms.reset();  // the view's figure is its own samples' median
    one.launch_check.reset();
    view.cases.push_back(std::move(one));
  }
  return view;
}

}  // namespace

Transcript round_view(const Transcript& transcript, std::size_t round) {
  return view_of_rounds(transcript, round == 0,
                        [round](const CaseResult& c) -> std::optional<std::pair<std::size_t, std::size_t>> {
                          if (round >= c.rounds.size()) {
                            return std::nullopt;
                          }
                          return std::make_pair(round, round);
                        });
}

Transcript unit_view(const Transcript& transcript, std::size_t unit) {
  return view_of_rounds(transcript, unit == 0,
                        [unit](const CaseResult& c) -> std::optional<std::pair<std::size_t, std::size_t>> {
                          const std::vector<std::vector<std::size_t>> units = interval_units(c);
                          if (unit >= units.size()) {
                            return std::nullopt;
                          }
                          return std::make_pair(units[unit].front(), units[unit].back());
                        });
}

PredictionMeasurement measured_ratio(const CaseResult& slower, const CaseResult& faster,
                                     const ProcessTerm& process) {
  PredictionMeasurement measured;
  measured.size_label = slower.size_label;
  measured.elements = slower.elements;
  measured.ratio = slower.central_ms() / faster.central_ms();
  const std::vector<double> slower_units = unit_medians(slower);
  const std::vector<double> faster_units = unit_medians(faster);
  const std::size_t shared = std::min(slower_units.size(), faster_units.size());
  if (!slower.rounds.empty() && !faster.rounds.empty() && shared >= 2) {
    std::vector<double> per_unit;
    for (std::size_t u = 0; u < shared; ++u) {
      per_unit.push_back(slower_units[u] / faster_units[u]);
    }
    measured.interval = between_round_interval(measured.ratio, per_unit, process.allowance, process.floor);
  }
  return measured;
}

std::vector<PredictionMeasurement> measure_prediction(const Transcript& transcript,
                                                      const PredictionRecord& prediction) {
  std::vector<PredictionMeasurement> measured;
  for (const CaseResult* slower : transcript.cases_named(prediction.slower_case)) {
    const CaseResult* faster = transcript.find_case(prediction.faster_case, slower->size_label);
    if (faster == nullptr || !(faster->central_ms() > 0.0)) {
      continue;
    }
    measured.push_back(measured_ratio(*slower, *faster, ProcessTerm{process_allowance_of(transcript), 0.0}));
  }
  return measured;
}

namespace {

std::string fixed_text(double value, int decimals = 2) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(decimals) << value;
  return text.str();
}

}  // namespace

std::string interval_method_text(double process_allowance) {
  std::string text =
      "95% intervals from between-context variation: each figure computed again on the medians of "
      "each CUDA context's rounds alone, and the run's figure times exp(+-t s / sqrt(C)), with s the "
      "standard deviation of the logarithms of the C context figures and t the 0.975 quantile of "
      "Student's t with C - 1 degrees of freedom (a figure that is not positive in every context: "
      "+-t s / sqrt(C) on the figures themselves); a ratio of two cases is paired context by context, "
      "and a ratio or claim that reads cases of unequal numbers of contexts over the contexts they all "
      "ran in (the fewer: C is theirs); "
      "no interval with one context; a claim whose figure's s exceeds its tolerance is inconclusive";
  if (process_allowance > 0.0) {
    std::ostringstream k;
    k << std::fixed << std::setprecision(2) << process_allowance;
    text +=
        "; every interval also allows for a process-level offset the contexts cannot see, of k = " + k.str() +
        " times the contexts' standard deviation: half width t s sqrt(1 / C + k^2) (k measured on the "
        "H200, 2026-12-03: 10 processes x 5 contexts per timing mode); " +
        std::string(kFigureKindAllowanceWords) +
        " (none timing the host's launch rate, none launch-bound in hot timing) allows k = " +
        fixed_text(std::min(process_allowance, kGpuBoundProcessAllowance)) +
        ", and one that reads a case timing the host's launch rate (more than 64 launches per sample at "
        "most 2^18 elements) a process-level standard deviation of at least " +
        fixed_text(100.0 * kLaunchRateProcessFloor, 1) + "%: half width t sqrt(s^2 / C + max(k s, that)^2)";
  }
  text += std::string("; ") + kPickOnTheRunWords +
          " (the lowest per-launch time over a sweep, the fastest of several cases) and takes its interval "
          "from that figure's contexts, and a figure that is a position in a sweep (where a speedup settles) "
          "takes its interval from the intervals of the sweep's figures; " +
          kGpuAloneWords +
          " (the gated samples hot timing's launch check takes after each round: GPU time alone), and its "
          "interval spans both readings' intervals, so that it is held or failed only where the host's "
          "launch latency in the hot samples does not decide the verdict; where its hot figure moves between "
          "contexts by more than its tolerance and the gated one does not, it rests on the gated reading, "
          "the hot interval spanned in";
  return text;
}

std::string round_context_text(int rounds, int rounds_per_context) {
  const int contexts = contexts_for(rounds, rounds_per_context);
  if (contexts <= 1) {
    return "every round in the run's one CUDA context";
  }
  return std::to_string(rounds_per_context) + (rounds_per_context == 1 ? " round" : " rounds") +
         " per CUDA context, " + std::to_string(contexts) +
         " contexts: before each later context the run frees the lab's buffers and its sampling tools, "
         "destroys its context (cudaDeviceReset), creates a new one and opens the lab's session in it again "
         "(buffers allocated, inputs filled from the same seed, primed); the correctness check ran once, in "
         "the first";
}

std::string small_case_rounds_text(int rounds, int small_case_rounds, int rounds_per_context,
                                   std::uint64_t max_elements) {
  if (small_case_rounds <= rounds) {
    return "";
  }
  return "cases of at most " + std::to_string(max_elements) + " elements take " +
         std::to_string(small_case_rounds) + " rounds (" +
         std::to_string(contexts_for(small_case_rounds, rounds_per_context)) + " contexts), the others " +
         std::to_string(rounds) + ": rounds " + std::to_string(rounds + 1) + " to " +
         std::to_string(small_case_rounds) +
         " time those cases alone, each starting a context as any round does, and their --reps, "
         "--max-samples and --case-time-limit are split between their " +
         std::to_string(small_case_rounds) + " rounds";
}

std::string small_case_contexts_words() {
  if (kSmallCaseContextsCold == kSmallCaseContextsHotGated) {
    return std::to_string(kSmallCaseContextsCold) + " CUDA contexts in cold and hot-gated timing";
  }
  return std::to_string(kSmallCaseContextsCold) + " CUDA contexts in cold and " +
         std::to_string(kSmallCaseContextsHotGated) + " in hot-gated timing";
}

}  // namespace labrun
