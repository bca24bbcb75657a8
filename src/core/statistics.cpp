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

double relative_difference(double a, double b) {
  const double mid = (a + b) / 2.0;
  if (mid == 0.0) {
    return 0.0;
  }
  return std::fabs(a - b) / std::fabs(mid);
}

}  // namespace labrun
