#pragma once
// The chain's inputs and its float64 reference as functions of (seed, index), compiled for the
// host (reference.cpp) and the device (the lab's input fill and the grader's checks) alike, so that
// a trusted kernel can regenerate any input or reference value without reading a buffer.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cases/seeded_uniform.hpp"
#include "chain_constants.hpp"

#if defined(__CUDACC__)
#define DAY48_HOST_DEVICE __host__ __device__
#else
#define DAY48_HOST_DEVICE
#endif

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
inline constexpr int kCompositionCount = 8;

//! Element i of the input x for `seed`.
DAY48_HOST_DEVICE inline float input_x_at(std::uint64_t seed, std::uint64_t i) {
  return labrun::seeded_uniform(seed, kInputStream, i, kInputLow, kInputHigh);
}
//! Element i of the residual for `seed`.
DAY48_HOST_DEVICE inline float residual_at(std::uint64_t seed, std::uint64_t i) {
  return labrun::seeded_uniform(seed, kResidualStream, i, -kResidualSpan, kResidualSpan);
}

namespace reference {

DAY48_HOST_DEVICE inline double scale_bias(double x) {
  return x * static_cast<double>(kScale) + static_cast<double>(kBias);
}
DAY48_HOST_DEVICE inline double gelu(double v) {
  return 0.5 * v * (1.0 + erf(v / sqrt(2.0)));
}
DAY48_HOST_DEVICE inline double clamp_range(double v) {
  return fmin(fmax(v, static_cast<double>(kClampLow)), static_cast<double>(kClampHigh));
}

}  // namespace reference

//! One element of a composition, in double precision, from float inputs.
DAY48_HOST_DEVICE inline double chain_element(Composition composition, float x_in, float residual_in) {
  using reference::clamp_range;
  using reference::gelu;
  using reference::scale_bias;
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

//! Stage 2's output (what the half-way pair's intermediate holds), in double precision.
DAY48_HOST_DEVICE inline double intermediate_element(float x_in) {
  return reference::gelu(reference::scale_bias(static_cast<double>(x_in)));
}

}  // namespace day48
