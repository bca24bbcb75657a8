// Day 20's kernels: a Sobel edge magnitude on a float image, a threshold of it to a byte mask, and
// the two fused into one kernel. kernels.hpp declares the launchers; every launcher checks its
// launch and throws labrun::CudaError. Images are row-major floats of width x height, no padding;
// every kernel guards its indices, so any width and height is valid (the check runs at an odd one).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels.hpp"
#include "timing/cuda_check.hpp"

namespace day20 {
namespace {

// A block of 32 x 8 threads: a warp spans one row of 32 pixels, so its loads of each of the three
// rows it reads are contiguous.
constexpr unsigned kBlockWidth = 32;
constexpr unsigned kBlockHeight = 8;
constexpr unsigned kThreadsPerBlock = 256;  // the threshold's 1-D blocks

dim3 image_grid(std::size_t width, std::size_t height) {
  return dim3(static_cast<unsigned>((width + kBlockWidth - 1) / kBlockWidth),
              static_cast<unsigned>((height + kBlockHeight - 1) / kBlockHeight));
}

// The Sobel magnitude at (x, y), edges clamped (the nearest pixel inside stands in for one outside):
// gx = [-1 0 1; -2 0 2; -1 0 1], gy = [-1 -2 -1; 0 0 0; 1 2 1], magnitude sqrt(gx^2 + gy^2).
// 18 flops as the flop model counts them: 7 for each gradient, 3 for the squares' sum, 1 square root.
__device__ __forceinline__ float sobel_at(const float* __restrict__ image, std::size_t width,
                                          std::size_t height, std::size_t x, std::size_t y) {
  const std::size_t left = x > 0 ? x - 1 : 0;
  const std::size_t right = x + 1 < width ? x + 1 : x;
  const float* above = image + (y > 0 ? y - 1 : 0) * width;
  const float* row = image + y * width;
  const float* below = image + (y + 1 < height ? y + 1 : y) * width;
  const float gx =
      (above[right] + 2.0f * row[right] + below[right]) - (above[left] + 2.0f * row[left] + below[left]);
  const float gy =
      (below[left] + 2.0f * below[x] + below[right]) - (above[left] + 2.0f * above[x] + above[right]);
  return sqrtf(gx * gx + gy * gy);
}

__global__ void sobel_magnitude(const float* __restrict__ image, float* __restrict__ magnitude,
                                std::size_t width, std::size_t height) {
  const std::size_t x = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t y = blockIdx.y * static_cast<std::size_t>(blockDim.y) + threadIdx.y;
  if (x < width && y < height) {
    magnitude[y * width + x] = sobel_at(image, width, height, x, y);
  }
}

__global__ void threshold_mask(const float* __restrict__ magnitude, std::uint8_t* __restrict__ mask,
                               std::size_t n, float threshold) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    mask[i] = magnitude[i] > threshold ? 1 : 0;
  }
}

__global__ void sobel_threshold_fused(const float* __restrict__ image, std::uint8_t* __restrict__ mask,
                                      std::size_t width, std::size_t height, float threshold) {
  const std::size_t x = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t y = blockIdx.y * static_cast<std::size_t>(blockDim.y) + threadIdx.y;
  if (x < width && y < height) {
    mask[y * width + x] = sobel_at(image, width, height, x, y) > threshold ? 1 : 0;
  }
}

}  // namespace

void launch_sobel(const float* image, float* magnitude, std::size_t width, std::size_t height,
                  cudaStream_t stream) {
  if (width == 0 || height == 0) {
    return;
  }
  sobel_magnitude<<<image_grid(width, height), dim3(kBlockWidth, kBlockHeight), 0, stream>>>(image, magnitude,
                                                                                             width, height);
  LABRUN_CHECK_LAUNCH("sobel_magnitude");
}

void launch_threshold(const float* magnitude, std::uint8_t* mask, std::size_t n, float threshold,
                      cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  threshold_mask<<<static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock), kThreadsPerBlock, 0,
                   stream>>>(magnitude, mask, n, threshold);
  LABRUN_CHECK_LAUNCH("threshold_mask");
}

void launch_fused(const float* image, std::uint8_t* mask, std::size_t width, std::size_t height,
                  float threshold, cudaStream_t stream) {
  if (width == 0 || height == 0) {
    return;
  }
  sobel_threshold_fused<<<image_grid(width, height), dim3(kBlockWidth, kBlockHeight), 0, stream>>>(
      image, mask, width, height, threshold);
  LABRUN_CHECK_LAUNCH("sobel_threshold_fused");
}

const void* fused_kernel() {
  return reinterpret_cast<const void*>(&sobel_threshold_fused);
}

const void* sobel_kernel() {
  return reinterpret_cast<const void*>(&sobel_magnitude);
}

}  // namespace day20
