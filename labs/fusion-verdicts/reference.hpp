#pragma once
// Every case's computation in float64 on the host: the references every version is checked
// against, from the same constants the kernels use (constants.hpp).

#include <vector>

namespace verdicts {

//! y[i] = x[i] * kScale + kBias.
[[nodiscard]] std::vector<double> scale_bias_reference(const std::vector<float>& x);

//! The sum of x[i]^2.
[[nodiscard]] double sum_of_squares_reference(const std::vector<float>& x);

//! y[i] = x[i] / sqrt(mean of x^2 + kRmsEpsilon).
[[nodiscard]] std::vector<double> rms_normalise_reference(const std::vector<float>& x);

//! Two box averages of 2 * radius + 1 points, values outside [0, n) taken as zero in both.
[[nodiscard]] std::vector<double> stencil_pair_reference(const std::vector<float>& x, int radius);

//! The per-group values: a * kCheapSlope + kCheapOffset, and the mean over k = 1..kExpensiveTerms
//! of exp(sin(k * a)).
[[nodiscard]] double cheap_value_reference(float a);
[[nodiscard]] double expensive_value_reference(float a);

//! y[i] = x[i] * values[i / reuse], where values[g] is the reference value of group g.
[[nodiscard]] std::vector<double> reuse_reference(const std::vector<float>& x,
                                                  const std::vector<double>& values, unsigned reuse);

}  // namespace verdicts
