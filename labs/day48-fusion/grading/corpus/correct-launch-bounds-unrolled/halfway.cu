// Grading corpus: correct-launch-bounds-unrolled. A correct pair compiled with __launch_bounds__,
// two float4s per thread (eight elements), the n mod 8 elements of an odd n taken one by one by
// the thread past the last whole group: faster than the lab's scalar pair, and full marks (the
// bound is what the card's memory allows for 12 bytes read and 8 written, never the lab's pair).

#include "grading/submission.cuh"

extern "C" __global__ void __launch_bounds__(256)
    halfway_stages_1_2(const float* __restrict__ x, float* __restrict__ intermediate, std::size_t n) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t groups = n / 8;
  if (g < groups) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const float4 in = reinterpret_cast<const float4*>(x)[2 * g + half];
      float4 out;
      out.x = day48::gelu(day48::scale_bias(in.x));
      out.y = day48::gelu(day48::scale_bias(in.y));
      out.z = day48::gelu(day48::scale_bias(in.z));
      out.w = day48::gelu(day48::scale_bias(in.w));
      reinterpret_cast<float4*>(intermediate)[2 * g + half] = out;
    }
  } else if (g == groups) {
    for (std::size_t i = 8 * groups; i < n; ++i) {
      intermediate[i] = day48::gelu(day48::scale_bias(x[i]));
    }
  }
}

extern "C" __global__ void __launch_bounds__(256)
    halfway_stages_3_4(const float* __restrict__ intermediate, const float* __restrict__ residual,
                       float* __restrict__ y, std::size_t n) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t groups = n / 8;
  if (g < groups) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const float4 t = reinterpret_cast<const float4*>(intermediate)[2 * g + half];
      const float4 r = reinterpret_cast<const float4*>(residual)[2 * g + half];
      float4 out;
      out.x = day48::clamp_range(day48::add_residual(t.x, r.x));
      out.y = day48::clamp_range(day48::add_residual(t.y, r.y));
      out.z = day48::clamp_range(day48::add_residual(t.z, r.z));
      out.w = day48::clamp_range(day48::add_residual(t.w, r.w));
      reinterpret_cast<float4*>(y)[2 * g + half] = out;
    }
  } else if (g == groups) {
    for (std::size_t i = 8 * groups; i < n; ++i) {
      y[i] = day48::clamp_range(day48::add_residual(intermediate[i], residual[i]));
    }
  }
}
