#pragma once
// Device helpers for the grader's own checking kernels (device_checks.cu and each exercise's
// checks): grid-stride indices, warp-wide sums, maxima and minima of counters, and the tolerance
// test every check applies. nvcc only.

#include <algorithm>
#include <cstddef>

namespace labrun::device {

//! A checking kernel's grid over `items`: kCheckThreads threads per block, at most 2048 blocks,
//! each thread striding over the grid.
inline constexpr unsigned kCheckThreads = 256;
inline unsigned check_blocks(std::size_t items) {
  constexpr std::size_t kMaxBlocks = 2048;
  const std::size_t blocks = (items + kCheckThreads - 1) / kCheckThreads;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(blocks, kMaxBlocks)));
}

__device__ __forceinline__ std::size_t first_index() {
  return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_stride() {
  return gridDim.x * static_cast<std::size_t>(blockDim.x);
}

//! Sums a value over the warp; lane 0 gets the total.
template <typename T>
__device__ __forceinline__ T warp_sum(T value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xFFFFFFFFu, value, offset);
  }
  return value;
}
__device__ __forceinline__ unsigned long long warp_max(unsigned long long value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value = max(value, __shfl_down_sync(0xFFFFFFFFu, value, offset));
  }
  return value;
}
__device__ __forceinline__ unsigned long long warp_min(unsigned long long value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value = min(value, __shfl_down_sync(0xFFFFFFFFu, value, offset));
  }
  return value;
}
__device__ __forceinline__ bool lane_zero() {
  return (threadIdx.x & 31u) == 0;
}

//! |got - expected| <= absolute + relative * |expected|.
__device__ __forceinline__ bool within(double got, double expected, double absolute, double relative) {
  return fabs(got - expected) <= absolute + relative * fabs(expected);
}

}  // namespace labrun::device
