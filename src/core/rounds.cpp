#include "core/rounds.hpp"

#include <algorithm>
#include <cmath>
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

std::optional<Interval> case_median_interval(const CaseResult& result) {
  if (result.rounds.size() < 2) {
    return std::nullopt;
  }
  return between_round_interval(result.summary.median, round_medians(result));
}

void append_round(CaseResult& result, const RoundSamples& round) {
  const std::size_t offset = result.samples_ms.size();
  result.samples_ms.insert(result.samples_ms.end(), round.samples_ms.begin(), round.samples_ms.end());
  result.sample_sm_clock_mhz.insert(result.sample_sm_clock_mhz.end(), round.sm_clock_mhz.begin(),
                                    round.sm_clock_mhz.end());
  for (const std::size_t index : round.gate_timeout_samples) {
    result.gate_timeout_samples.push_back(offset + index);
  }
  result.rounds.push_back(RoundRecord{static_cast<int>(round.samples_ms.size()), median(round.samples_ms),
                                      stop_reason_name(round.stop_reason), round.sampling_seconds});
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
  result.median_interval_ms = case_median_interval(result);
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

Transcript round_view(const Transcript& transcript, std::size_t round) {
  Transcript view = transcript;
  view.cases.clear();
  for (const CaseResult& c : transcript.cases) {
    if (!c.has_samples() || c.rounds.empty()) {
      if (round == 0) {
        view.cases.push_back(c);
      }
      continue;
    }
    if (round >= c.rounds.size()) {
      continue;
    }
    std::size_t first = 0;
    for (std::size_t r = 0; r < round; ++r) {
      first += static_cast<std::size_t>(c.rounds[r].samples);
    }
    const std::size_t last =
        std::min(c.samples_ms.size(), first + static_cast<std::size_t>(c.rounds[round].samples));
    first = std::min(first, last);
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
    one.rounds = {c.rounds[round]};
    one.stop_reason = c.rounds[round].stop_reason;
    one.sampling_seconds = c.rounds[round].sampling_seconds;
    one.median_interval_ms.reset();
    view.cases.push_back(std::move(one));
  }
  return view;
}

PredictionMeasurement measured_ratio(const CaseResult& slower, const CaseResult& faster) {
  PredictionMeasurement measured;
  measured.size_label = slower.size_label;
  measured.elements = slower.elements;
  measured.ratio = slower.central_ms() / faster.central_ms();
  if (slower.rounds.size() >= 2 && slower.rounds.size() == faster.rounds.size()) {
    std::vector<double> per_round;
    for (std::size_t r = 0; r < slower.rounds.size(); ++r) {
      per_round.push_back(slower.rounds[r].median_ms / faster.rounds[r].median_ms);
    }
    measured.interval = between_round_interval(measured.ratio, per_round);
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
    measured.push_back(measured_ratio(*slower, *faster));
  }
  return measured;
}

std::string interval_method_text() {
  return "95% intervals from between-round variation: each figure computed again on each round's medians "
         "alone, and the run's figure times exp(+-t s / sqrt(R)), with s the standard deviation of the "
         "logarithms of the R round figures and t the 0.975 quantile of Student's t with R - 1 degrees of "
         "freedom (a figure that is not positive in every round: +-t s / sqrt(R) on the figures "
         "themselves); a ratio of two cases is paired round by round; no interval with one round";
}

}  // namespace labrun
