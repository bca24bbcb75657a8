// The fusion-verdicts kernels. Every kernel guards its indices against n, so the odd correctness
// size exercises the tail of every grid and the edge of every stencil tile.

#include <cooperative_groups.h>

#include <stdexcept>
#include <string>

#include "kernels.hpp"
#include "stages.cuh"
#include "timing/cuda_check.hpp"

namespace verdicts {
namespace {

__global__ void copy_floor(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = in[i];
  }
}

// ---- elementwise then elementwise ----------------------------------------------------------

__global__ void scale_pass(const float* __restrict__ x, float* __restrict__ scaled, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    scaled[i] = scale_stage(x[i]);
  }
}

__global__ void bias_pass(const float* __restrict__ scaled, float* __restrict__ y, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    y[i] = bias_stage(scaled[i]);
  }
}

__global__ void scale_bias_fused(const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    y[i] = bias_stage(scale_stage(x[i]));
  }
}

// ---- elementwise then reduction --------------------------------------------------------------

__global__ void square_pass(const float* __restrict__ x, float* __restrict__ squares, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    squares[i] = square_stage(x[i]);
  }
}

// One partial sum per block over a grid-stride loop: of in[i] (the two-kernel version reads the
// squares) or of in[i] squared on load (the folded version reads x).
template <bool kSquareOnLoad>
__global__ void partial_sums(const float* __restrict__ in, float* __restrict__ partials, std::size_t n) {
  __shared__ float scratch[kThreadsPerBlock];
  const float block_total = block_sum(thread_partial_sum<kSquareOnLoad>(in, n), scratch);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
  }
}

// One block: the total of the partial sums.
__global__ void finish_sum(const float* partials, unsigned count, float* __restrict__ sum) {
  __shared__ float scratch[kThreadsPerBlock];
  const float total = total_of_partials(partials, count, scratch);
  if (threadIdx.x == 0) {
    *sum = total;
  }
}

// ---- reduction then elementwise --------------------------------------------------------------

// Phase 2 as its own kernel: every block totals the partials of phase 1 (partial_sums<true>),
// then scales its grid-stride share of x.
__global__ void normalise_from_partials(const float* __restrict__ x, const float* partials, unsigned count,
                                        float* __restrict__ y, std::size_t n) {
  __shared__ float scratch[kThreadsPerBlock];
  const float total = total_of_partials(partials, count, scratch);
  scale_all(x, y, n, rms_inverse(total, n));
}

// Both phases in one kernel. `partials` is written and then read within the launch, so it is
// neither const nor __restrict__ (no read-only cache path), and the barrier orders the two.
__global__ void normalise_cooperative(const float* __restrict__ x, float* partials, float* __restrict__ y,
                                      std::size_t n) {
  __shared__ float scratch[kThreadsPerBlock];
  const float block_total = block_sum(thread_partial_sum<true>(x, n), scratch);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
  }
  cooperative_groups::this_grid().sync();
  const float total = total_of_partials(partials, gridDim.x, scratch);
  scale_all(x, y, n, rms_inverse(total, n));
}

// ---- stencil then stencil --------------------------------------------------------------------

// The element `offset` places from the tile's first output, or 0 outside [0, n): both passes
// treat values beyond the array as zero.
__device__ __forceinline__ float load_or_zero(const float* __restrict__ in, std::size_t tile_start,
                                              long long offset, std::size_t n) {
  const long long index = static_cast<long long>(tile_start) + offset;
  return (index >= 0 && static_cast<unsigned long long>(index) < n) ? in[index] : 0.0f;
}

// One box-average pass: the block loads its tile and R halo elements each side into shared
// memory, then each thread averages its 2R + 1 window.
template <int kRadius>
__global__ void stencil_pass(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  constexpr int kLoaded = kStencilTile + 2 * kRadius;
  __shared__ float window[kLoaded];
  const std::size_t tile_start = blockIdx.x * static_cast<std::size_t>(kStencilTile);
  for (int j = static_cast<int>(threadIdx.x); j < kLoaded; j += kThreadsPerBlock) {
    window[j] = load_or_zero(in, tile_start, j - kRadius, n);
  }
  __syncthreads();
  const std::size_t i = tile_start + threadIdx.x;
  if (i < n) {
    out[i] = box_average<kRadius>(window + threadIdx.x);
  }
}

// Both passes: the block loads its tile and 2R halo elements each side, computes the first pass
// over the tile and R beyond each side (the halo the neighbouring blocks also compute), then the
// second pass over the tile. First-pass values outside [0, n) are zero, as in the two passes.
template <int kRadius>
__global__ void stencil_fused(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  constexpr int kLoaded = kStencilTile + 4 * kRadius;
  constexpr int kFirstPass = kStencilTile + 2 * kRadius;
  __shared__ float inputs[kLoaded];
  __shared__ float first_pass[kFirstPass];
  const std::size_t tile_start = blockIdx.x * static_cast<std::size_t>(kStencilTile);
  for (int j = static_cast<int>(threadIdx.x); j < kLoaded; j += kThreadsPerBlock) {
    inputs[j] = load_or_zero(in, tile_start, j - 2 * kRadius, n);
  }
  __syncthreads();
  for (int j = static_cast<int>(threadIdx.x); j < kFirstPass; j += kThreadsPerBlock) {
    const long long index = static_cast<long long>(tile_start) + j - kRadius;
    const bool inside = index >= 0 && static_cast<unsigned long long>(index) < n;
    first_pass[j] = inside ? box_average<kRadius>(inputs + j) : 0.0f;
  }
  __syncthreads();
  const std::size_t i = tile_start + threadIdx.x;
  if (i < n) {
    out[i] = box_average<kRadius>(first_pass + threadIdx.x);
  }
}

using StencilKernel = void (*)(const float*, float*, std::size_t);

StencilKernel stencil_kernel(int radius, bool fused) {
  switch (radius) {
    case 1: return fused ? stencil_fused<1> : stencil_pass<1>;
    case 4: return fused ? stencil_fused<4> : stencil_pass<4>;
    case 16: return fused ? stencil_fused<16> : stencil_pass<16>;
    case 64: return fused ? stencil_fused<64> : stencil_pass<64>;
    default: throw std::invalid_argument("stencil radius " + std::to_string(radius) + " is not built");
  }
}

unsigned stencil_blocks(std::size_t n) {
  return static_cast<unsigned>((n + kStencilTile - 1) / kStencilTile);
}

// ---- recompute or materialise ----------------------------------------------------------------

template <bool kExpensive>
__global__ void recompute_values(const float* __restrict__ x, const float* __restrict__ a,
                                 float* __restrict__ y, std::size_t n, unsigned reuse_shift) {
  const std::size_t i = global_index();
  if (i < n) {
    y[i] = __fmul_rn(x[i], group_value<kExpensive>(a[i >> reuse_shift]));
  }
}

template <bool kExpensive>
__global__ void materialise_values(const float* __restrict__ a, float* __restrict__ values,
                                   std::size_t groups) {
  const std::size_t g = global_index();
  if (g < groups) {
    values[g] = group_value<kExpensive>(a[g]);
  }
}

__global__ void apply_values(const float* __restrict__ x, const float* __restrict__ values,
                             float* __restrict__ y, std::size_t n, unsigned reuse_shift) {
  const std::size_t i = global_index();
  if (i < n) {
    y[i] = __fmul_rn(x[i], values[i >> reuse_shift]);
  }
}

void require_reduction_grid(const Workspace& w) {
  if (w.reduction_blocks == 0 || w.partials == nullptr) {
    throw std::invalid_argument("the workspace has no reduction grid");
  }
}

}  // namespace

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

ReductionGrid reduction_grid() {
  int device = 0;
  LABRUN_CUDA_CHECK(cudaGetDevice(&device));
  ReductionGrid grid;
  int cooperative = 0;
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  grid.cooperative_launch = cooperative != 0;
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&grid.sm_count, cudaDevAttrMultiProcessorCount, device));
  LABRUN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&grid.blocks_per_sm, normalise_cooperative,
                                                                  kThreadsPerBlock, 0));
  grid.blocks = static_cast<unsigned>(grid.sm_count) * static_cast<unsigned>(grid.blocks_per_sm);
  return grid;
}

void launch_copy_floor(const Workspace& w, std::size_t n, cudaStream_t stream) {
  copy_floor<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.y, n);
  LABRUN_CHECK_LAUNCH("copy_floor");
}

void launch_pair_two_passes(const Workspace& w, std::size_t n, cudaStream_t stream) {
  scale_pass<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.mid, n);
  LABRUN_CHECK_LAUNCH("scale_pass");
  bias_pass<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.mid, w.y, n);
  LABRUN_CHECK_LAUNCH("bias_pass");
}

void launch_pair_fused(const Workspace& w, std::size_t n, cudaStream_t stream) {
  scale_bias_fused<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.y, n);
  LABRUN_CHECK_LAUNCH("scale_bias_fused");
}

void launch_sum_two_kernels(const Workspace& w, std::size_t n, cudaStream_t stream) {
  require_reduction_grid(w);
  square_pass<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.mid, n);
  LABRUN_CHECK_LAUNCH("square_pass");
  partial_sums<false><<<w.reduction_blocks, kThreadsPerBlock, 0, stream>>>(w.mid, w.partials, n);
  LABRUN_CHECK_LAUNCH("partial_sums<false>");
  finish_sum<<<1, kThreadsPerBlock, 0, stream>>>(w.partials, w.reduction_blocks, w.sum);
  LABRUN_CHECK_LAUNCH("finish_sum");
}

void launch_sum_folded(const Workspace& w, std::size_t n, cudaStream_t stream) {
  require_reduction_grid(w);
  partial_sums<true><<<w.reduction_blocks, kThreadsPerBlock, 0, stream>>>(w.x, w.partials, n);
  LABRUN_CHECK_LAUNCH("partial_sums<true>");
  finish_sum<<<1, kThreadsPerBlock, 0, stream>>>(w.partials, w.reduction_blocks, w.sum);
  LABRUN_CHECK_LAUNCH("finish_sum");
}

void launch_normalise_two_kernels(const Workspace& w, std::size_t n, cudaStream_t stream) {
  require_reduction_grid(w);
  partial_sums<true><<<w.reduction_blocks, kThreadsPerBlock, 0, stream>>>(w.x, w.partials, n);
  LABRUN_CHECK_LAUNCH("partial_sums<true>");
  normalise_from_partials<<<w.reduction_blocks, kThreadsPerBlock, 0, stream>>>(w.x, w.partials,
                                                                               w.reduction_blocks, w.y, n);
  LABRUN_CHECK_LAUNCH("normalise_from_partials");
}

void launch_normalise_cooperative(const Workspace& w, std::size_t n, cudaStream_t stream) {
  require_reduction_grid(w);
  if (!w.cooperative_launch) {
    throw labrun::CudaError(
        cudaErrorNotSupported,
        "cudaLaunchCooperativeKernel: this device reports cudaDevAttrCooperativeLaunch = 0, "
        "so reduction-elementwise/cooperative cannot run on it",
        __FILE__, __LINE__);
  }
  const float* x = w.x;
  float* partials = w.partials;
  float* y = w.y;
  std::size_t elements = n;
  void* arguments[] = {&x, &partials, &y, &elements};
  // The grid is the occupancy calculator's co-resident maximum, which a cooperative launch needs;
  // a grid the device cannot hold at once fails with cudaErrorCooperativeLaunchTooLarge.
  LABRUN_CUDA_CHECK(cudaLaunchCooperativeKernel(normalise_cooperative, dim3(w.reduction_blocks),
                                                dim3(kThreadsPerBlock), arguments, 0, stream));
}

void launch_stencil_two_passes(int radius, const Workspace& w, std::size_t n, cudaStream_t stream) {
  const StencilKernel pass = stencil_kernel(radius, false);
  pass<<<stencil_blocks(n), kThreadsPerBlock, 0, stream>>>(w.x, w.mid, n);
  LABRUN_CHECK_LAUNCH("stencil_pass (first)");
  pass<<<stencil_blocks(n), kThreadsPerBlock, 0, stream>>>(w.mid, w.y, n);
  LABRUN_CHECK_LAUNCH("stencil_pass (second)");
}

void launch_stencil_fused(int radius, const Workspace& w, std::size_t n, cudaStream_t stream) {
  const StencilKernel fused = stencil_kernel(radius, true);
  fused<<<stencil_blocks(n), kThreadsPerBlock, 0, stream>>>(w.x, w.y, n);
  LABRUN_CHECK_LAUNCH("stencil_fused");
}

StencilShape stencil_shape(int radius, bool fused) {
  const StencilKernel kernel = stencil_kernel(radius, fused);
  cudaFuncAttributes attributes{};
  LABRUN_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  StencilShape shape;
  shape.radius = radius;
  shape.tile = kStencilTile;
  shape.halo = fused ? 2 * radius : radius;
  shape.recomputed_fraction = fused ? 2.0 * radius / kStencilTile : 0.0;
  shape.shared_bytes = attributes.sharedSizeBytes;
  return shape;
}

std::size_t groups_for(std::size_t n, unsigned reuse_shift) {
  const std::size_t reuse = std::size_t{1} << reuse_shift;
  return (n + reuse - 1) >> reuse_shift;
}

void launch_recompute(bool expensive, unsigned reuse_shift, const Workspace& w, std::size_t n,
                      cudaStream_t stream) {
  if (expensive) {
    recompute_values<true><<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.a, w.y, n, reuse_shift);
  } else {
    recompute_values<false><<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.a, w.y, n, reuse_shift);
  }
  LABRUN_CHECK_LAUNCH("recompute_values");
}

void launch_materialise(bool expensive, unsigned reuse_shift, const Workspace& w, std::size_t n,
                        cudaStream_t stream) {
  const std::size_t groups = groups_for(n, reuse_shift);
  if (expensive) {
    materialise_values<true><<<blocks_for(groups), kThreadsPerBlock, 0, stream>>>(w.a, w.mid, groups);
  } else {
    materialise_values<false><<<blocks_for(groups), kThreadsPerBlock, 0, stream>>>(w.a, w.mid, groups);
  }
  LABRUN_CHECK_LAUNCH("materialise_values");
  apply_values<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(w.x, w.mid, w.y, n, reuse_shift);
  LABRUN_CHECK_LAUNCH("apply_values");
}

const void* fused_pair_kernel() {
  return reinterpret_cast<const void*>(&scale_bias_fused);
}

}  // namespace verdicts
