// Grading corpus: correct-vectorised. A correct pair written with float4 loads and stores, four
// elements per thread, the tail handled by one thread: faster than the lab's scalar pair, and it
// must get full marks.

#include "grading/submission.cuh"

// Four elements per thread as one float4 (every buffer starts 256-byte aligned); the thread just
// past the last whole vector handles the n % 4 elements left over.
extern "C" __global__ void halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate,
                                              std::size_t n) {
  const std::size_t v = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 4;
  if (v < vectors) {
    const float4 in = reinterpret_cast<const float4*>(x)[v];
    float4 out;
    out.x = day48::gelu(day48::scale_bias(in.x));
    out.y = day48::gelu(day48::scale_bias(in.y));
    out.z = day48::gelu(day48::scale_bias(in.z));
    out.w = day48::gelu(day48::scale_bias(in.w));
    reinterpret_cast<float4*>(intermediate)[v] = out;
  } else if (v == vectors) {
    for (std::size_t i = 4 * vectors; i < n; ++i) {
      intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
    }
  }
}

extern "C" __global__ void halfway_stages_3_4(const float* __restrict__ intermediate,
                                              const float* __restrict__ residual, float* __restrict__ y,
                                              std::size_t n) {
  const std::size_t v = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = n / 4;
  if (v < vectors) {
    const float4 t = reinterpret_cast<const float4*>(intermediate)[v];
    const float4 r = reinterpret_cast<const float4*>(residual)[v];
    float4 out;
    out.x = day48::clamp_range(day48::add_residual(t.x, r.x));
    out.y = day48::clamp_range(day48::add_residual(t.y, r.y));
    out.z = day48::clamp_range(day48::add_residual(t.z, r.z));
    out.w = day48::clamp_range(day48::add_residual(t.w, r.w));
    reinterpret_cast<float4*>(y)[v] = out;
  } else if (v == vectors) {
    for (std::size_t i = 4 * vectors; i < n; ++i) {
      y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
    }
  }
}
