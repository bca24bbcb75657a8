#pragma once
// Summaries of raw timing samples. Units are whatever the samples carry (the harness uses
// milliseconds from CUDA events).

#include <optional>
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

//! A closed interval [low, high] around a figure, in the figure's unit.
struct Interval {
  double low = 0.0;
  double high = 0.0;
  [[nodiscard]] bool contains(double value) const { return low <= value && value <= high; }
};

//! The 0.975 quantile of Student's t distribution with `degrees_of_freedom` (at least 1): the
//! factor of a two-sided 95% interval from that many degrees of freedom. Exact to 6 decimals from a
//! table up to 30, the Cornish-Fisher expansion beyond (within 2e-6 of the exact value).
[[nodiscard]] double student_t_975(int degrees_of_freedom);

//! How much a figure moves between the units of a run (rounds, or CUDA contexts).
struct UnitSpread {
  double deviation = 0.0;    //!< the standard deviation (n - 1) of the logarithms, or of the values
  bool logarithmic = false;  //!< true: of the logarithms, a fraction of the figure
};
//! The spread of a figure's values in each unit (`per_unit`, 2 or more) around `point`, the figure of
//! the whole run: of their logarithms when `point` and every value are positive (times and ratios of
//! times spread in proportion to their size), else of the values themselves. nullopt below 2 values,
//! or when `point` or a value is not finite.
[[nodiscard]] std::optional<UnitSpread> unit_spread(double point, const std::vector<double>& per_unit);

//! The 95% interval of a figure from its value in each of R independent rounds (`per_round`),
//! centred on `point`, the figure of the whole run: point x exp(+-t s / sqrt(R)), with s the
//! standard deviation of log(per_round) and t = student_t_975(R - 1), when `point` and every round
//! are positive (times and ratios of times: their spread is relative); point +- t s / sqrt(R),
//! with s the standard deviation of per_round itself, otherwise. nullopt below 2 rounds, or when a
//! value is not finite. `process_allowance` k (1.8.0's timing.process_allowance; 0: none) widens it for
//! a level the rounds cannot see, whose standard deviation is taken to be k s: the half width is then
//! t s sqrt(1 / R + k^2) (docs/measurement.md, "What contexts cannot see"). `process_floor` f (a
//! fraction of the figure; 0: none) is the least standard deviation that level is taken to have,
//! whatever the rounds' s: the half width is then t sqrt(s^2 / R + max(k s, f)^2) (f |point| on the
//! figures themselves), for a figure whose process-level offset was measured not to shrink with its
//! context-level spread (docs/measurement.md, "Figures that time the host's launch rate").
[[nodiscard]] std::optional<Interval> between_round_interval(double point,
                                                             const std::vector<double>& per_round,
                                                             double process_allowance = 0.0,
                                                             double process_floor = 0.0);

//! The 95% interval of a ratio of two runs' figures, numerator over denominator, from each run's
//! rounds (`numerator_rounds`, `denominator_rounds`: the figure in each round of that run, 2 or more
//! each, all positive): point x exp(+-t se), with se^2 the sum over the two runs of the variance of
//! log(round figure) over its rounds, and t = student_t_975 of the Welch-Satterthwaite degrees of
//! freedom (rounded down). The runs' rounds are independent, so unlike between_round_interval no
//! round of one is paired with a round of the other. nullopt when a run has fewer than 2 rounds, or
//! a value is not positive and finite. A run's process allowance k (`numerator_allowance`,
//! `denominator_allowance`; 0: none) widens its term from s^2 / R to s^2 (1 / R + k^2), as
//! between_round_interval does: two runs are two processes.
[[nodiscard]] std::optional<Interval> between_run_ratio_interval(
    double point, const std::vector<double>& numerator_rounds, const std::vector<double>& denominator_rounds,
    double numerator_allowance = 0.0, double denominator_allowance = 0.0);

}  // namespace labrun
