#include "core/statistics.hpp"

#include "core/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace labrun {

double median(std::vector<double> samples) {
  if (samples.empty()) {
    return 0.0;
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t middle = samples.size() / 2;
  if (samples.size() % 2 == 1) {
    return samples[middle];
  }
  return (samples[middle - 1] + samples[middle]) / 2.0;
}

SampleSummary summarize(const std::vector<double>& samples) {
  SampleSummary summary;
  if (samples.empty()) {
    summary.relative_median_ci = std::numeric_limits<double>::infinity();  // no samples: no interval
    return summary;
  }
  summary.count = static_cast<int>(samples.size());
  summary.median = median(samples);
  summary.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  const auto [lowest, highest] = std::minmax_element(samples.begin(), samples.end());
  summary.min = *lowest;
  summary.max = *highest;
  summary.relative_spread = summary.median > 0.0 ? (summary.max - summary.min) / summary.median : 0.0;
  summary.q1 = quantile(samples, 0.25);
  summary.q3 = quantile(samples, 0.75);
  summary.relative_median_ci = relative_median_ci(samples);
  return summary;
}

double quantile(std::vector<double> samples, double q) {
  if (samples.empty()) {
    return 0.0;
  }
  std::sort(samples.begin(), samples.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(samples.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, samples.size() - 1);
  const double weight = position - static_cast<double>(below);
  return samples[below] * (1.0 - weight) + samples[above] * weight;
}

double student_t_975(int degrees_of_freedom) {
  // The exact quantiles for df = 1..30 (the density integrated numerically), to 6 decimals, as
  // published tables give them.
  static constexpr double kTable[] = {
      12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
      2.200985,  2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
      2.079614,  2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272};
  constexpr int kTabled = static_cast<int>(sizeof kTable / sizeof kTable[0]);
  if (degrees_of_freedom < 1) {
    return std::numeric_limits<double>::infinity();
  }
  if (degrees_of_freedom <= kTabled) {
    return kTable[degrees_of_freedom - 1];
  }
  // Cornish-Fisher expansion of the t quantile around the normal one, to the third order in 1/df.
  constexpr double z = 1.959963984540054;
  const double v = static_cast<double>(degrees_of_freedom);
  const double z3 = z * z * z;
  const double z5 = z3 * z * z;
  const double z7 = z5 * z * z;
  return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v) +
         (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v);
}

std::optional<UnitSpread> unit_spread(double point, const std::vector<double>& per_unit) {
  if (per_unit.size() < 2 || !std::isfinite(point)) {
    return std::nullopt;
  }
  bool positive = point > 0.0;
  for (const double value : per_unit) {
    if (!std::isfinite(value)) {
      return std::nullopt;
    }
    positive = positive && value > 0.0;
  }
  // Two passes for the standard deviation: the values are close together, and one pass of sums of
  // squares would lose them to cancellation.
  std::vector<double> values(per_unit);
  if (positive) {
    for (double& value : values) {
      value = std::log(value);
    }
  }
  const double count = static_cast<double>(values.size());
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / count;
  double squares = 0.0;
  for (const double value : values) {
    squares += (value - mean) * (value - mean);
  }
  return UnitSpread{std::sqrt(squares / (count - 1.0)), positive};
}

std::optional<Interval> between_round_interval(double point, const std::vector<double>& per_round,
                                               double process_allowance, double process_floor) {
  const std::optional<UnitSpread> spread = unit_spread(point, per_round);
  if (!spread) {
    return std::nullopt;
  }
  const double count = static_cast<double>(per_round.size());
  const double t = student_t_975(static_cast<int>(per_round.size()) - 1);
  // Without an allowance or a floor, exactly the arithmetic older transcripts' intervals were
  // recorded with; with an allowance alone, exactly 1.9.0's.
  double half_width = t * spread->deviation / std::sqrt(count);
  if (process_floor > 0.0) {
    const double floor = spread->logarithmic ? process_floor : process_floor * std::fabs(point);
    const double process = std::max(process_allowance * spread->deviation, floor);
    half_width = t * std::sqrt(spread->deviation * spread->deviation / count + process * process);
  } else if (process_allowance > 0.0) {
    half_width = t * spread->deviation * std::sqrt(1.0 / count + process_allowance * process_allowance);
  }
  if (spread->logarithmic) {
    return Interval{point * std::exp(-half_width), point * std::exp(half_width)};
  }
  return Interval{point - half_width, point + half_width};
}

namespace {

// The variance of log(values) over the values, divided by their count: the squared standard error
// of their mean logarithm. nullopt for fewer than 2 values or one that is not positive and finite.
std::optional<double> log_mean_variance(const std::vector<double>& values) {
  if (values.size() < 2) {
    return std::nullopt;
  }
  std::vector<double> logs;
  logs.reserve(values.size());
  for (const double value : values) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      return std::nullopt;
    }
    logs.push_back(std::log(value));
  }
  const double count = static_cast<double>(logs.size());
  const double mean = std::accumulate(logs.begin(), logs.end(), 0.0) / count;
  double squares = 0.0;
  for (const double value : logs) {
    squares += (value - mean) * (value - mean);
  }
  return squares / (count - 1.0) / count;
}

}  // namespace

std::optional<Interval> between_run_ratio_interval(double point, const std::vector<double>& numerator_rounds,
                                                   const std::vector<double>& denominator_rounds,
                                                   double numerator_allowance, double denominator_allowance) {
  std::optional<double> a = log_mean_variance(numerator_rounds);
  std::optional<double> b = log_mean_variance(denominator_rounds);
  if (!a || !b || !(point > 0.0) || !std::isfinite(point)) {
    return std::nullopt;
  }
  const double a_count = static_cast<double>(numerator_rounds.size());
  const double b_count = static_cast<double>(denominator_rounds.size());
  // s^2 / R becomes s^2 (1 / R + k^2) = (s^2 / R) (1 + R k^2); no allowance leaves it as it was.
  if (numerator_allowance > 0.0) {
    *a *= 1.0 + a_count * numerator_allowance * numerator_allowance;
  }
  if (denominator_allowance > 0.0) {
    *b *= 1.0 + b_count * denominator_allowance * denominator_allowance;
  }
  const double variance = *a + *b;
  if (variance == 0.0) {
    return Interval{point, point};
  }
  const double degrees = variance * variance / (*a * *a / (a_count - 1.0) + *b * *b / (b_count - 1.0));
  const int whole = std::max(1, static_cast<int>(std::floor(degrees)));
  const double half_width = student_t_975(whole) * std::sqrt(variance);
  return Interval{point * std::exp(-half_width), point * std::exp(half_width)};
}

double relative_difference(double a, double b) {
  const double mid = (a + b) / 2.0;
  if (mid == 0.0) {
    return 0.0;
  }
  return std::fabs(a - b) / std::fabs(mid);
}

}  // namespace labrun
