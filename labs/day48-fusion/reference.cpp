#include "reference.hpp"

#include <stdexcept>

namespace day48 {

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
