// Day 34's kernels: one step of a 5-point stencil over a float grid, out = 0.5 c + 0.125 (l + r + u + d),
// edges clamped (a neighbour outside the grid is the nearest cell inside). The naive kernel reads its
// five cells from global memory; the tiled one has each 32 x 8 block stage a 34 x 10 tile (its cells
// and a one-cell halo, corners included) in shared memory first: 340 loads for 256 cells, 1.328 a
// cell. Grids are row-major width x height, and every index is guarded, so any size is valid.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "timing/cuda_check.hpp"

namespace day34 {
namespace {

constexpr int kBlockWidth = 32;  // a warp spans one row: its loads of a row are contiguous
constexpr int kBlockHeight = 8;
constexpr int kTileWidth = kBlockWidth + 2;
constexpr int kTileHeight = kBlockHeight + 2;
constexpr dim3 kBlock(kBlockWidth, kBlockHeight);

// 6 flops as the flop model counts them: three adds for the neighbours, two multiplies, one add.
__device__ __forceinline__ float smooth(float centre, float left, float right, float up, float down) {
  return 0.5f * centre + 0.125f * ((left + right) + (up + down));
}

__device__ __forceinline__ std::size_t clamped(long long i, std::size_t extent) {
  return i < 0 ? 0 : (static_cast<std::size_t>(i) < extent ? static_cast<std::size_t>(i) : extent - 1);
}

__global__ void stencil_naive(const float* __restrict__ in, float* __restrict__ out, std::size_t width,
                              std::size_t height) {
  const std::size_t x = blockIdx.x * static_cast<std::size_t>(kBlockWidth) + threadIdx.x;
  const std::size_t y = blockIdx.y * static_cast<std::size_t>(kBlockHeight) + threadIdx.y;
  if (x < width && y < height) {
    const float* row = in + y * width;
    out[y * width + x] =
        smooth(row[x], row[x > 0 ? x - 1 : 0], row[x + 1 < width ? x + 1 : x],
               in[(y > 0 ? y - 1 : 0) * width + x], in[(y + 1 < height ? y + 1 : y) * width + x]);
  }
}

__global__ void stencil_tiled(const float* __restrict__ in, float* __restrict__ out, std::size_t width,
                              std::size_t height) {
  __shared__ float tile[kTileHeight][kTileWidth];
  const long long left = static_cast<long long>(blockIdx.x) * kBlockWidth - 1;
  const long long top = static_cast<long long>(blockIdx.y) * kBlockHeight - 1;
  // The block's 256 threads load the 340 cells in two passes; every thread reaches the barrier.
  for (int i = threadIdx.y * kBlockWidth + threadIdx.x; i < kTileWidth * kTileHeight;
       i += kBlockWidth * kBlockHeight) {
    tile[i / kTileWidth][i % kTileWidth] =
        in[clamped(top + i / kTileWidth, height) * width + clamped(left + i % kTileWidth, width)];
  }
  __syncthreads();
  const std::size_t x = static_cast<std::size_t>(left + 1) + threadIdx.x;
  const std::size_t y = static_cast<std::size_t>(top + 1) + threadIdx.y;
  if (x < width && y < height) {
    const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;  // the cell's place in the tile
    out[y * width + x] =
        smooth(tile[ty][tx], tile[ty][tx - 1], tile[ty][tx + 1], tile[ty - 1][tx], tile[ty + 1][tx]);
  }
}

dim3 grid_for(std::size_t width, std::size_t height) {
  return dim3(static_cast<unsigned>((width + kBlockWidth - 1) / kBlockWidth),
              static_cast<unsigned>((height + kBlockHeight - 1) / kBlockHeight));
}

}  // namespace

void launch_naive(const float* in, float* out, std::size_t width, std::size_t height, cudaStream_t stream) {
  if (width > 0 && height > 0) {
    stencil_naive<<<grid_for(width, height), kBlock, 0, stream>>>(in, out, width, height);
    LABRUN_CHECK_LAUNCH("stencil_naive");
  }
}

void launch_tiled(const float* in, float* out, std::size_t width, std::size_t height, cudaStream_t stream) {
  if (width > 0 && height > 0) {
    stencil_tiled<<<grid_for(width, height), kBlock, 0, stream>>>(in, out, width, height);
    LABRUN_CHECK_LAUNCH("stencil_tiled");
  }
}

const void* naive_kernel() {
  return reinterpret_cast<const void*>(&stencil_naive);
}

const void* tiled_kernel() {
  return reinterpret_cast<const void*>(&stencil_tiled);
}

}  // namespace day34
