#pragma once
// The four stages of the chain as device functions. The staged kernels and every fused kernel
// call these same functions, so the arithmetic is identical in all versions.

#include "chain_constants.hpp"

namespace day48 {

//! Stage 1: t1 = x * g + b.
__device__ __forceinline__ float scale_bias(float x) {
  return x * kScale + kBias;
}

//! Stage 2: GELU, exact (erf) form.
__device__ __forceinline__ float gelu(float v) {
  return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
}

//! Stage 3: t3 = t2 + r, the residual being a second input.
__device__ __forceinline__ float add_residual(float v, float residual) {
  return v + residual;
}

//! Stage 4: y = clamp(t3) to [kClampLow, kClampHigh].
__device__ __forceinline__ float clamp_range(float v) {
  return fminf(fmaxf(v, kClampLow), kClampHigh);
}

}  // namespace day48
