#include "reference.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "constants.hpp"

namespace verdicts {
namespace {

// One box average of 2 * radius + 1 points of `in`, zero outside [0, n).
std::vector<double> box_average(const std::vector<double>& in, int radius) {
  const auto n = static_cast<std::ptrdiff_t>(in.size());
  const double points = 2.0 * radius + 1.0;
  std::vector<double> out(in.size());
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    double sum = 0.0;
    for (std::ptrdiff_t j = i - radius; j <= i + radius; ++j) {
      if (j >= 0 && j < n) {
        sum += in[static_cast<std::size_t>(j)];
      }
    }
    out[static_cast<std::size_t>(i)] = sum / points;
  }
  return out;
}

}  // namespace

std::vector<double> scale_bias_reference(const std::vector<float>& x) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = static_cast<double>(x[i]) * kScale + kBias;
  }
  return y;
}

double sum_of_squares_reference(const std::vector<float>& x) {
  double sum = 0.0;
  for (const float v : x) {
    sum += static_cast<double>(v) * v;
  }
  return sum;
}

std::vector<double> rms_normalise_reference(const std::vector<float>& x) {
  if (x.empty()) {
    return {};
  }
  const double mean_square = sum_of_squares_reference(x) / static_cast<double>(x.size());
  const double inverse = 1.0 / std::sqrt(mean_square + kRmsEpsilon);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = x[i] * inverse;
  }
  return y;
}

std::vector<double> stencil_pair_reference(const std::vector<float>& x, int radius) {
  if (radius < 0) {
    throw std::invalid_argument("stencil_pair_reference: negative radius");
  }
  const std::vector<double> input(x.begin(), x.end());
  return box_average(box_average(input, radius), radius);
}

double cheap_value_reference(float a) {
  return static_cast<double>(a) * kCheapSlope + kCheapOffset;
}

double expensive_value_reference(float a) {
  double sum = 0.0;
  for (int k = 1; k <= kExpensiveTerms; ++k) {
    sum += std::exp(std::sin(static_cast<double>(a) * k));
  }
  return sum / kExpensiveTerms;
}

std::vector<double> reuse_reference(const std::vector<float>& x, const std::vector<double>& values,
                                    unsigned reuse) {
  if (reuse == 0) {
    throw std::invalid_argument("reuse_reference: reuse must be positive");
  }
  if (!x.empty() && (x.size() - 1) / reuse >= values.size()) {
    throw std::invalid_argument("reuse_reference: fewer values than groups");
  }
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = x[i] * values[i / reuse];
  }
  return y;
}

}  // namespace verdicts
