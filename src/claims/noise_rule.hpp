#pragma once
// A claim never rests on a figure whose noise is larger than its tolerance (transcript 1.8.0): when
// a figure moves between a run's CUDA contexts by more than the claim allows it to be off, the run
// cannot tell held from failed at that precision, whatever its interval says, and the verdict is
// inconclusive with basis "noise". Hot timing of a small case is the usual cause: the host's launch
// latency varies by several percent at every level (docs/measurement.md, "Hot timing at small n").

#include <optional>
#include <vector>

#include "claims/claims.hpp"
#include "core/transcript.hpp"

namespace labrun {

//! The claim's tolerance as a fraction, read from its bound: (high - low) / (high + low) for a bound
//! of two positive ends (a ratio's expected x (1 +- t) gives t); |end / expected - 1| for a bound of
//! one end and a positive expectation; nullopt otherwise (no bound, a count bounded at 0).
[[nodiscard]] std::optional<double> relative_tolerance(const ClaimResult& claim);

//! The figure's noise between units: the standard deviation of the logarithms of its per-unit values
//! when `point` and every value are positive, else their standard deviation over |point|; nullopt
//! below 2 values, or for a value that is not finite, or a zero point with values that are not all
//! positive.
[[nodiscard]] std::optional<double> relative_noise(double point, const std::vector<double>& per_unit);

//! Makes `claim` inconclusive, basis "noise", with both figures in its detail, when its figure's
//! relative_noise over `per_unit` (the figure in each unit of the run) exceeds its
//! relative_tolerance; returns whether it did. A claim without a measured figure or a tolerance is
//! left as it is.
bool apply_noise_rule(ClaimResult& claim, const std::vector<double>& per_unit);

//! Hot timing (1.8.0): appends to `claim`'s detail each case it reads (spec.cases, at spec.size_label
//! when the claim reads one size) whose launch check found it launch-bound, with the host's share of
//! its hot figure, so a verdict that rests on the host's launch latency says so. Nothing for a claim
//! of versions (kBitwiseEqual) or a case without a launch check.
void note_launch_bound_figures(ClaimResult& claim, const ClaimSpec& spec, const Transcript& transcript);

}  // namespace labrun
