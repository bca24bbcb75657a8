#pragma once
// The chain in float64 on the host: the reference every version is checked against.

#include <vector>

#include "chain_math.hpp"

namespace day48 {

inline constexpr Composition kWrongCompositions[] = {
    Composition::kGeluTwice,          Composition::kSkipScaleBias, Composition::kSkipGelu,
    Composition::kSkipResidual,       Composition::kSkipClamp,     Composition::kClampBeforeResidual,
    Composition::kGeluBeforeScaleBias};
//! "gelu-twice", "skip-scale-bias", ...
[[nodiscard]] const char* composition_name(Composition composition);

//! y[i] = clamp(gelu(x[i] * g + b) + r[i]) in double precision.
[[nodiscard]] std::vector<double> chain_reference(const std::vector<float>& x,
                                                  const std::vector<float>& residual);

}  // namespace day48
