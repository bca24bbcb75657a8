// The day-48 kernels. Every kernel guards i < n, so the odd correctness size exercises the tail.

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "chain_math.hpp"
#include "kernels.hpp"
#include "stages.cuh"
#include "timing/cuda_check.hpp"

namespace day48 {
namespace {

__device__ __forceinline__ std::size_t global_index() {
  return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}

__global__ void fill_inputs_kernel(float* __restrict__ x, float* __restrict__ residual, std::size_t n,
                                   std::uint64_t seed) {
  const std::size_t i = global_index();
  if (i < n) {
    x[i] = input_x_at(seed, i);
    residual[i] = residual_at(seed, i);
  }
}

__global__ void do_nothing() {}

__global__ void copy_floor(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = in[i];
  }
}

// The practical ceiling's kernel: 16-byte loads and stores, a grid sized to fill the card once,
// each thread striding over the vector part; the first n % 4 threads copy the scalar tail.
__global__ void copy_vectorized(const float4* __restrict__ in, float4* __restrict__ out, std::size_t vectors,
                                const float* __restrict__ in_tail, float* __restrict__ out_tail,
                                std::size_t tail) {
  const std::size_t stride = gridDim.x * static_cast<std::size_t>(blockDim.x);
  for (std::size_t i = global_index(); i < vectors; i += stride) {
    out[i] = in[i];
  }
  const std::size_t t = global_index();
  if (t < tail) {
    out_tail[t] = in_tail[t];
  }
}

__global__ void apply_scale_bias(const float* __restrict__ x, float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = scale_bias(x[i]);
  }
}

__global__ void apply_gelu(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = gelu(in[i]);
  }
}

__global__ void apply_add_residual(const float* __restrict__ in, const float* __restrict__ residual,
                                   float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = add_residual(in[i], residual[i]);
  }
}

__global__ void apply_clamp_range(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = clamp_range(in[i]);
  }
}

__global__ void chain_fused(const float* __restrict__ x, const float* __restrict__ residual,
                            float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    float v = scale_bias(x[i]);
    v = gelu(v);
    v = add_residual(v, residual[i]);
    out[i] = clamp_range(v);
  }
}

// The exercise's half-way fusion: stages 1 and 2, then stages 3 and 4.
__global__ void halfway_scale_bias_gelu(const float* __restrict__ x, float* __restrict__ halfway,
                                        std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    halfway[i] = gelu(scale_bias(x[i]));
  }
}

__global__ void halfway_residual_clamp(const float* __restrict__ halfway, const float* __restrict__ residual,
                                       float* __restrict__ out, std::size_t n) {
  const std::size_t i = global_index();
  if (i < n) {
    out[i] = clamp_range(add_residual(halfway[i], residual[i]));
  }
}

// The fused chain with kWidth elements per thread, one grid apart so every warp's loads stay
// coalesced. The three loops are separate so that all kWidth values are live at once.
template <int kWidth>
__global__ void chain_fused_wide(const float* __restrict__ x, const float* __restrict__ residual,
                                 float* __restrict__ out, std::size_t n) {
  const std::size_t base = global_index();
  const std::size_t stride = gridDim.x * static_cast<std::size_t>(blockDim.x);
  float v[kWidth];
#pragma unroll
  for (int k = 0; k < kWidth; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * stride;
    v[k] = (i < n) ? scale_bias(x[i]) : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kWidth; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * stride;
    v[k] = add_residual(gelu(v[k]), (i < n) ? residual[i] : 0.0f);
  }
#pragma unroll
  for (int k = 0; k < kWidth; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * stride;
    if (i < n) {
      out[i] = clamp_range(v[k]);
    }
  }
}

using WideKernel = void (*)(const float*, const float*, float*, std::size_t);

WideKernel wide_kernel(int width) {
  switch (width) {
    case 1: return chain_fused_wide<1>;
    case 2: return chain_fused_wide<2>;
    case 4: return chain_fused_wide<4>;
    case 8: return chain_fused_wide<8>;
    case 16: return chain_fused_wide<16>;
    case 32: return chain_fused_wide<32>;
    default: throw std::invalid_argument("fused-wide width " + std::to_string(width) + " is not built");
  }
}

}  // namespace

unsigned blocks_for(std::size_t n, int per_thread) {
  const std::size_t per_block =
      static_cast<std::size_t>(kThreadsPerBlock) * static_cast<std::size_t>(per_thread);
  return static_cast<unsigned>((n + per_block - 1) / per_block);
}

void fill_inputs(const ChainBuffers& b, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
  fill_inputs_kernel<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.x, b.residual, n, seed);
  LABRUN_CHECK_LAUNCH("fill_inputs_kernel");
}

void launch_do_nothing(unsigned blocks, unsigned threads, cudaStream_t stream) {
  do_nothing<<<blocks, threads, 0, stream>>>();
  LABRUN_CHECK_LAUNCH("do_nothing");
}

void launch_copy_floor(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  copy_floor<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(in, out, n);
  LABRUN_CHECK_LAUNCH("copy_floor");
}

unsigned copy_vectorized_blocks() {
  static const unsigned blocks = [] {
    int device = 0;
    int sm_count = 0;
    int per_sm = 0;
    LABRUN_CUDA_CHECK(cudaGetDevice(&device));
    LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    LABRUN_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_vectorized, kThreadsPerBlock, 0));
    return static_cast<unsigned>(sm_count * per_sm);
  }();
  return blocks;
}

void launch_copy_vectorized(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  // 16-byte accesses need 16-byte aligned buffers (cudaMalloc gives 256).
  if (reinterpret_cast<std::uintptr_t>(in) % alignof(float4) != 0 ||
      reinterpret_cast<std::uintptr_t>(out) % alignof(float4) != 0) {
    throw std::invalid_argument("launch_copy_vectorized needs 16-byte aligned buffers");
  }
  const std::size_t vectors = n / 4;
  const std::size_t tail = n % 4;
  const std::size_t vector_blocks = (vectors + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const unsigned blocks = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(vector_blocks, copy_vectorized_blocks())));
  copy_vectorized<<<blocks, kThreadsPerBlock, 0, stream>>>(reinterpret_cast<const float4*>(in),
                                                           reinterpret_cast<float4*>(out), vectors,
                                                           in + 4 * vectors, out + 4 * vectors, tail);
  LABRUN_CHECK_LAUNCH("copy_vectorized");
}

void launch_copy_memcpy(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

void launch_stage_scale_bias(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  apply_scale_bias<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.x, b.t1, n);
  LABRUN_CHECK_LAUNCH("apply_scale_bias");
}

void launch_stage_gelu(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  apply_gelu<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.t1, b.t2, n);
  LABRUN_CHECK_LAUNCH("apply_gelu");
}

void launch_stage_add_residual(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  apply_add_residual<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.t2, b.residual, b.t3, n);
  LABRUN_CHECK_LAUNCH("apply_add_residual");
}

void launch_stage_clamp_range(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  apply_clamp_range<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.t3, b.y, n);
  LABRUN_CHECK_LAUNCH("apply_clamp_range");
}

void launch_staged_chain(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  launch_stage_scale_bias(b, n, stream);
  launch_stage_gelu(b, n, stream);
  launch_stage_add_residual(b, n, stream);
  launch_stage_clamp_range(b, n, stream);
}

void launch_fused_chain(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  chain_fused<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.x, b.residual, b.y, n);
  LABRUN_CHECK_LAUNCH("chain_fused");
}

void launch_halfway_pair(const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  halfway_scale_bias_gelu<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.x, b.halfway, n);
  LABRUN_CHECK_LAUNCH("halfway_scale_bias_gelu");
  halfway_residual_clamp<<<blocks_for(n, 1), kThreadsPerBlock, 0, stream>>>(b.halfway, b.residual, b.y, n);
  LABRUN_CHECK_LAUNCH("halfway_residual_clamp");
}

void launch_fused_wide(int width, const ChainBuffers& b, std::size_t n, cudaStream_t stream) {
  const WideKernel kernel = wide_kernel(width);
  kernel<<<blocks_for(n, width), kThreadsPerBlock, 0, stream>>>(b.x, b.residual, b.y, n);
  LABRUN_CHECK_LAUNCH("chain_fused_wide");
}

const void* fused_chain_kernel() {
  return reinterpret_cast<const void*>(&chain_fused);
}

const void* fused_wide_kernel(int width) {
  return reinterpret_cast<const void*>(wide_kernel(width));
}

}  // namespace day48
