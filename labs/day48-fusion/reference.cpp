#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "chain_constants.hpp"

namespace day48 {

namespace {

double scale_bias(double x) {
  return x * kScale + kBias;
}
double gelu(double v) {
  return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
}
double clamp_range(double v) {
  return std::clamp(v, static_cast<double>(kClampLow), static_cast<double>(kClampHigh));
}

}  // namespace

const char* composition_name(Composition composition) {
  switch (composition) {
    case Composition::kCorrect: return "correct";
    case Composition::kGeluTwice: return "gelu-twice";
    case Composition::kSkipScaleBias: return "skip-scale-bias";
    case Composition::kSkipGelu: return "skip-gelu";
    case Composition::kSkipResidual: return "skip-residual";
    case Composition::kSkipClamp: return "skip-clamp";
    case Composition::kClampBeforeResidual: return "clamp-before-residual";
    case Composition::kGeluBeforeScaleBias: return "gelu-before-scale-bias";
  }
  return "unknown";
}

double chain_element(Composition composition, float x_in, float residual_in) {
  const double x = x_in;
  const double r = residual_in;
  switch (composition) {
    case Composition::kCorrect: return clamp_range(gelu(scale_bias(x)) + r);
    case Composition::kGeluTwice: return clamp_range(gelu(gelu(scale_bias(x))) + r);
    case Composition::kSkipScaleBias: return clamp_range(gelu(x) + r);
    case Composition::kSkipGelu: return clamp_range(scale_bias(x) + r);
    case Composition::kSkipResidual: return clamp_range(gelu(scale_bias(x)));
    case Composition::kSkipClamp: return gelu(scale_bias(x)) + r;
    case Composition::kClampBeforeResidual: return clamp_range(gelu(scale_bias(x))) + r;
    case Composition::kGeluBeforeScaleBias: return clamp_range(scale_bias(gelu(x)) + r);
  }
  return 0.0;
}

std::vector<double> chain_reference(const std::vector<float>& x, const std::vector<float>& residual) {
  if (x.size() != residual.size()) {
    throw std::invalid_argument("chain_reference: x and residual differ in length");
  }
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = chain_element(Composition::kCorrect, x[i], residual[i]);
  }
  return y;
}

}  // namespace day48
