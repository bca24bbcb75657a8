#pragma once
// Summaries of raw timing samples. Units are whatever the samples carry (the harness uses
// milliseconds from CUDA events).

#include <vector>

namespace labrun {

struct SampleSummary {
  int count = 0;
  double median = 0.0;
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  //! (max - min) / median: the full range of the samples relative to their median.
  double relative_spread = 0.0;
  double q1 = 0.0;  //!< first quartile (quantile 0.25)
  double q3 = 0.0;  //!< third quartile (quantile 0.75)
  //! Width of the 95% confidence interval of the median over the median (core/sampling.hpp);
  //! infinity below 6 samples (and with none).
  double relative_median_ci = 0.0;
};

//! Summarises samples; an empty input gives a zero summary with count 0 (and an infinite interval).
[[nodiscard]] SampleSummary summarize(const std::vector<double>& samples);

//! Median of the samples (mean of the middle two for an even count); 0 when empty.
[[nodiscard]] double median(std::vector<double> samples);

//! The q-quantile (0 <= q <= 1) with linear interpolation between order statistics; 0 when empty.
[[nodiscard]] double quantile(std::vector<double> samples, double q);

//! |a - b| / ((a + b) / 2): relative difference of two positive figures; 0 when both are 0.
[[nodiscard]] double relative_difference(double a, double b);

}  // namespace labrun
