#include "core/sampling.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/statistics.hpp"

namespace labrun {

const char* timing_mode_name(TimingMode mode) {
  switch (mode) {
    case TimingMode::kHot: return "hot";
    case TimingMode::kCold: return "cold";
    case TimingMode::kHotGated: return "hot-gated";
  }
  return "hot";
}

TimingMode timing_mode_from_name(const std::string& name) {
  for (const TimingMode mode : {TimingMode::kHot, TimingMode::kCold, TimingMode::kHotGated}) {
    if (name == timing_mode_name(mode)) {
      return mode;
    }
  }
  throw std::invalid_argument("unknown timing mode '" + name + "' (hot, cold or hot-gated)");
}

bool launch_check_applies(TimingMode mode, std::uint64_t elements, int launches_per_event_pair,
                          bool read_against_a_bound) {
  const std::uint64_t most = read_against_a_bound ? kClaimLaunchCheckMaxElements : kLaunchCheckMaxElements;
  return mode == TimingMode::kHot && launches_per_event_pair <= kMaxGatedLaunchesPerSample &&
         elements <= most;
}

const char* case_order_name(CaseOrder order) {
  switch (order) {
    case CaseOrder::kDeclared: return "declared";
    case CaseOrder::kShuffle: return "shuffle";
    case CaseOrder::kInterleave: return "interleave";
  }
  return "declared";
}

CaseOrder case_order_from_name(const std::string& name) {
  for (const CaseOrder order : {CaseOrder::kDeclared, CaseOrder::kShuffle, CaseOrder::kInterleave}) {
    if (name == case_order_name(order)) {
      return order;
    }
  }
  throw std::invalid_argument("unknown case order '" + name + "' (declared, shuffle or interleave)");
}

const char* stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::kMedianConverged: return "median-converged";
    case StopReason::kTimeLimit: return "time-limit";
    case StopReason::kSampleCap: return "sample-cap";
    case StopReason::kFixedCount: return "fixed-count";
  }
  return "fixed-count";
}

StopReason stop_reason_from_name(const std::string& name) {
  for (const StopReason reason : {StopReason::kMedianConverged, StopReason::kTimeLimit,
                                  StopReason::kSampleCap, StopReason::kFixedCount}) {
    if (name == stop_reason_name(reason)) {
      return reason;
    }
  }
  throw std::invalid_argument("unknown stop reason '" + name + "'");
}

double relative_median_ci(std::vector<double> samples) {
  const std::size_t n = samples.size();
  if (n < 6) {
    return std::numeric_limits<double>::infinity();
  }
  std::sort(samples.begin(), samples.end());
  // 1-based ranks of the interval's ends: n/2 -+ 1.96 sqrt(n) / 2 (normal approximation of the
  // binomial), widened outwards to whole ranks.
  const double half_width = 0.98 * std::sqrt(static_cast<double>(n));
  const double centre = static_cast<double>(n) / 2.0;
  const auto lower_rank = static_cast<std::size_t>(std::max(1.0, std::floor(centre - half_width)));
  const auto upper_rank =
      static_cast<std::size_t>(std::min(static_cast<double>(n), std::ceil(centre + 1.0 + half_width)));
  const double middle = median(samples);
  const double width = samples[upper_rank - 1] - samples[lower_rank - 1];
  if (middle <= 0.0) {
    return width > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  }
  return width / middle;
}

std::optional<StopReason> stop_reason(const SamplingRule& rule, const std::vector<double>& samples,
                                      double elapsed_s) {
  const int taken = static_cast<int>(samples.size());
  if (!rule.adaptive()) {
    return taken >= rule.min_samples ? std::optional<StopReason>(StopReason::kFixedCount) : std::nullopt;
  }
  if (taken < rule.min_samples) {
    return std::nullopt;
  }
  if (relative_median_ci(samples) <= rule.target_relative_median_ci) {
    return StopReason::kMedianConverged;
  }
  if (taken >= rule.max_samples) {
    return StopReason::kSampleCap;
  }
  if (elapsed_s >= rule.case_time_limit_s) {
    return StopReason::kTimeLimit;
  }
  return std::nullopt;
}

std::vector<std::size_t> shuffled_order(std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) {
    order[i] = i;
  }
  // Fisher-Yates with splitmix64: std::shuffle's result differs between standard libraries.
  std::uint64_t state = seed;
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (std::size_t i = count; i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(next() % i);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

std::optional<double> median_cycles(const std::vector<double>& samples_ms,
                                    const std::vector<std::optional<double>>& sm_clock_mhz,
                                    int executions_per_sample) {
  std::vector<double> cycles;
  for (std::size_t i = 0; i < samples_ms.size() && i < sm_clock_mhz.size(); ++i) {
    if (sm_clock_mhz[i]) {
      cycles.push_back(samples_ms[i] * *sm_clock_mhz[i] * 1000.0 / std::max(1, executions_per_sample));
    }
  }
  if (cycles.empty()) {
    return std::nullopt;
  }
  return median(cycles);
}

std::vector<std::size_t> throttled_samples(const std::vector<std::optional<double>>& sm_clock_mhz,
                                           double threshold_mhz) {
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < sm_clock_mhz.size(); ++i) {
    if (sm_clock_mhz[i] && *sm_clock_mhz[i] < threshold_mhz) {
      indices.push_back(i);
    }
  }
  return indices;
}

double event_precision_ms(double ms) {
  if (!std::isfinite(ms)) {
    return ms;
  }
  // to_chars without a precision writes the shortest text that reads back as the same float;
  // from_chars (locale-free) then gives the double nearest that text, whose own shortest text is the
  // same digits.
  char text[64];
  const std::to_chars_result written = std::to_chars(text, text + sizeof text, static_cast<float>(ms));
  double value = ms;
  if (written.ec != std::errc() || std::from_chars(text, written.ptr, value).ec != std::errc()) {
    return ms;
  }
  return value;
}

}  // namespace labrun
