#pragma once
// The chain in float64 on the host: the reference every version is checked against.

#include <vector>

namespace day48 {

//! Compositions of the four stages: the right one and the wrong ones a grader recognises.
enum class Composition {
  kCorrect,              //!< clamp(gelu(scale_bias(x)) + r)
  kGeluTwice,            //!< clamp(gelu(gelu(scale_bias(x))) + r): stage 2 applied again
  kSkipScaleBias,        //!< clamp(gelu(x) + r)
  kSkipGelu,             //!< clamp(scale_bias(x) + r)
  kSkipResidual,         //!< clamp(gelu(scale_bias(x)))
  kSkipClamp,            //!< gelu(scale_bias(x)) + r
  kClampBeforeResidual,  //!< clamp(gelu(scale_bias(x))) + r: stages 3 and 4 swapped
  kGeluBeforeScaleBias,  //!< clamp(scale_bias(gelu(x)) + r): stages 1 and 2 swapped
};
inline constexpr Composition kWrongCompositions[] = {
    Composition::kGeluTwice,          Composition::kSkipScaleBias, Composition::kSkipGelu,
    Composition::kSkipResidual,       Composition::kSkipClamp,     Composition::kClampBeforeResidual,
    Composition::kGeluBeforeScaleBias};
//! "gelu-twice", "skip-scale-bias", ...
[[nodiscard]] const char* composition_name(Composition composition);

//! One element of a composition, in double precision.
[[nodiscard]] double chain_element(Composition composition, float x, float residual);

//! y[i] = clamp(gelu(x[i] * g + b) + r[i]) in double precision.
[[nodiscard]] std::vector<double> chain_reference(const std::vector<float>& x,
                                                  const std::vector<float>& residual);

}  // namespace day48
