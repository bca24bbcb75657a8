// The sobel-threshold exercise's graded inputs and the classes its classic mistakes fall in
// (exercise.cpp declares them). Every launcher checks its launch and throws labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "timing/cuda_check.hpp"

namespace day20::grading {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// splitmix64's finaliser: each pixel's draw from (seed, index) alone.
__device__ std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Whole pixel values 0 to 3: every gradient is a whole number from -12 to 12, so every magnitude
// is the square root of a whole number, computed exactly up to the square root's rounding.
__global__ void whole_pixels(float* image, std::size_t n, std::uint64_t seed) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    image[i] = static_cast<float>(mix(seed ^ mix(i + 1)) & 3u);
  }
}

// Bit 0: a pixel of the one-pixel frame, where the edges are clamped. Bit 1: a pixel whose
// magnitude, as the lab's Sobel kernel computed it, equals the threshold exactly.
__global__ void mistake_classes(const float* magnitude, unsigned char* classes, std::size_t width,
                                std::size_t height, float threshold) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < width * height) {
    const std::size_t x = i % width;
    const std::size_t y = i / width;
    const bool frame = x == 0 || y == 0 || x + 1 == width || y + 1 == height;
    classes[i] = static_cast<unsigned char>((frame ? 1u : 0u) | (magnitude[i] == threshold ? 2u : 0u));
  }
}

}  // namespace

void fill_whole_pixels(float* image, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
  whole_pixels<<<blocks_for(n), kThreads, 0, stream>>>(image, n, seed);
  LABRUN_CHECK_LAUNCH("whole_pixels");
}

void mark_classes(const float* magnitude, unsigned char* classes, std::size_t width, std::size_t height,
                  float threshold, cudaStream_t stream) {
  mistake_classes<<<blocks_for(width * height), kThreads, 0, stream>>>(magnitude, classes, width, height,
                                                                       threshold);
  LABRUN_CHECK_LAUNCH("mistake_classes");
}

}  // namespace day20::grading
