#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "chain_constants.hpp"

namespace day48 {

std::vector<double> chain_reference(const std::vector<float>& x, const std::vector<float>& residual) {
  if (x.size() != residual.size()) {
    throw std::invalid_argument("chain_reference: x and residual differ in length");
  }
  std::vector<double> y(x.size());
  const double inverse_sqrt2 = 1.0 / std::sqrt(2.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double t1 = static_cast<double>(x[i]) * kScale + kBias;
    const double t2 = 0.5 * t1 * (1.0 + std::erf(t1 * inverse_sqrt2));
    const double t3 = t2 + static_cast<double>(residual[i]);
    y[i] = std::clamp(t3, static_cast<double>(kClampLow), static_cast<double>(kClampHigh));
  }
  return y;
}

}  // namespace day48
