#pragma once
// The chain in float64 on the host: the reference every version is checked against.

#include <vector>

namespace day48 {

//! y[i] = clamp(gelu(x[i] * g + b) + r[i]) in double precision.
[[nodiscard]] std::vector<double> chain_reference(const std::vector<float>& x,
                                                  const std::vector<float>& residual);

}  // namespace day48
