#pragma once
// The stages of every case as device functions. Unfused and fused kernels call the same functions
// in the same order, so each pair computes bit-identical results: the explicit _rn intrinsics keep
// nvcc from contracting a multiply and an add into a fused multiply-add in one version only.

#include <cstddef>

#include "constants.hpp"

namespace verdicts {

__device__ __forceinline__ std::size_t global_index() {
  return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}

__device__ __forceinline__ std::size_t grid_stride() {
  return gridDim.x * static_cast<std::size_t>(blockDim.x);
}

//! The elementwise pair's first stage: tmp = x * kScale.
__device__ __forceinline__ float scale_stage(float x) {
  return __fmul_rn(x, kScale);
}

//! The elementwise pair's second stage: y = tmp + kBias.
__device__ __forceinline__ float bias_stage(float scaled) {
  return __fadd_rn(scaled, kBias);
}

//! The pointwise stage feeding the sum: t = x * x.
__device__ __forceinline__ float square_stage(float x) {
  return __fmul_rn(x, x);
}

//! The mean of 2R + 1 consecutive values starting at window[0], summed left to right.
template <int kRadius>
__device__ __forceinline__ float box_average(const float* window) {
  constexpr int kPoints = 2 * kRadius + 1;
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kPoints; ++k) {
    sum = __fadd_rn(sum, window[k]);
  }
  return __fmul_rn(sum, 1.0f / static_cast<float>(kPoints));
}

//! The cheap per-group value: one fused multiply-add.
__device__ __forceinline__ float cheap_value(float a) {
  return fmaf(a, kCheapSlope, kCheapOffset);
}

//! The expensive per-group value: kExpensiveTerms accurate sines and exponentials.
__device__ __forceinline__ float expensive_value(float a) {
  float sum = 0.0f;
  for (int k = 1; k <= kExpensiveTerms; ++k) {
    sum = __fadd_rn(sum, expf(sinf(__fmul_rn(a, static_cast<float>(k)))));
  }
  return __fmul_rn(sum, 1.0f / static_cast<float>(kExpensiveTerms));
}

template <bool kExpensive>
__device__ __forceinline__ float group_value(float a) {
  if constexpr (kExpensive) {
    return expensive_value(a);
  } else {
    return cheap_value(a);
  }
}

//! The sum of `value` over the block (kThreadsPerBlock threads), in a fixed tree order; every
//! thread of the block receives it. `scratch` holds kThreadsPerBlock floats of shared memory.
__device__ __forceinline__ float block_sum(float value, float* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned stride = kThreadsPerBlock / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) {
      scratch[threadIdx.x] = __fadd_rn(scratch[threadIdx.x], scratch[threadIdx.x + stride]);
    }
    __syncthreads();
  }
  const float total = scratch[0];
  __syncthreads();  // the scratch may be reused by the caller
  return total;
}

//! This thread's share of a grid-stride sum over in[0, n): in[i] (or in[i] squared) for
//! i = first, first + stride, ... accumulated in that order. Four loads are issued before their
//! four adds so that each thread keeps several reads in flight; the order of the adds is that of
//! the plain loop.
template <bool kSquareOnLoad>
__device__ __forceinline__ float thread_partial_sum(const float* __restrict__ in, std::size_t n) {
  const std::size_t stride = grid_stride();
  std::size_t i = global_index();
  float accumulator = 0.0f;
  for (; i + 3 * stride < n; i += 4 * stride) {
    float v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      v[k] = in[i + static_cast<std::size_t>(k) * stride];
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      accumulator = __fadd_rn(accumulator, kSquareOnLoad ? square_stage(v[k]) : v[k]);
    }
  }
  for (; i < n; i += stride) {
    const float v = in[i];
    accumulator = __fadd_rn(accumulator, kSquareOnLoad ? square_stage(v) : v);
  }
  return accumulator;
}

//! The total of `count` block partial sums, summed the same way by every block. The partials are
//! read through L2 (__ldcg): in the cooperative kernel they were written by other blocks of the
//! same launch, so the SM's L1 must not serve them.
__device__ __forceinline__ float total_of_partials(const float* partials, unsigned count, float* scratch) {
  float accumulator = 0.0f;
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x) {
    accumulator = __fadd_rn(accumulator, __ldcg(partials + j));
  }
  return block_sum(accumulator, scratch);
}

//! 1 / sqrt(mean of squares + epsilon) from the sum of squares of n values.
__device__ __forceinline__ float rms_inverse(float sum_of_squares, std::size_t n) {
  return 1.0f / sqrtf(__fadd_rn(sum_of_squares / static_cast<float>(n), kRmsEpsilon));
}

//! y[i] = x[i] * inverse over a grid-stride loop, four loads in flight per thread.
__device__ __forceinline__ void scale_all(const float* __restrict__ x, float* __restrict__ y, std::size_t n,
                                          float inverse) {
  const std::size_t stride = grid_stride();
  std::size_t i = global_index();
  for (; i + 3 * stride < n; i += 4 * stride) {
    float v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      v[k] = x[i + static_cast<std::size_t>(k) * stride];
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      y[i + static_cast<std::size_t>(k) * stride] = __fmul_rn(v[k], inverse);
    }
  }
  for (; i < n; i += stride) {
    y[i] = __fmul_rn(x[i], inverse);
  }
}

}  // namespace verdicts
