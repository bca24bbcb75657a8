#pragma once
// Launchers for the day-48 kernels (defined in kernels.cu). Host-includable: the session and the
// tests call these; every launcher checks its launch and throws labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace day48 {

//! Device buffers of one run; every pointer holds at least the run's largest n floats.
struct ChainBuffers {
  float* x = nullptr;         //!< input
  float* residual = nullptr;  //!< second input of stage 3
  float* t1 = nullptr;        //!< staged chain's intermediates
  float* t2 = nullptr;
  float* t3 = nullptr;
  float* y = nullptr;         //!< output of every chain version
  float* halfway = nullptr;   //!< the half-way pair's own intermediate
  float* copy_out = nullptr;  //!< the copy floor's destination
};

//! Blocks of kThreadsPerBlock threads covering n elements at `per_thread` elements each.
[[nodiscard]] unsigned blocks_for(std::size_t n, int per_thread);

//! Fills x and the residual with seeded uniform values on the device.
void fill_inputs(const ChainBuffers& b, std::size_t n, std::uint64_t seed, cudaStream_t stream);

//! An empty kernel launched as blocks x threads.
void launch_do_nothing(unsigned blocks, unsigned threads, cudaStream_t stream);
//! out[i] = in[i]: the floor no elementwise pass over the same data can beat.
void launch_copy_floor(const float* in, float* out, std::size_t n, cudaStream_t stream);
//! The same copy as the card's practical ceiling: 16-byte accesses, a grid-stride loop over a grid
//! that fills every SM once.
void launch_copy_vectorized(const float* in, float* out, std::size_t n, cudaStream_t stream);
//! The same copy as the driver does it: cudaMemcpyAsync, device to device.
void launch_copy_memcpy(const float* in, float* out, std::size_t n, cudaStream_t stream);

void launch_stage_scale_bias(const ChainBuffers& b, std::size_t n, cudaStream_t stream);    // x -> t1
void launch_stage_gelu(const ChainBuffers& b, std::size_t n, cudaStream_t stream);          // t1 -> t2
void launch_stage_add_residual(const ChainBuffers& b, std::size_t n, cudaStream_t stream);  // t2, r -> t3
void launch_stage_clamp_range(const ChainBuffers& b, std::size_t n, cudaStream_t stream);   // t3 -> y

//! Four kernels: x -> t1 -> t2 -> (+r) t3 -> y.
void launch_staged_chain(const ChainBuffers& b, std::size_t n, cudaStream_t stream);
//! One kernel: x, r -> y.
void launch_fused_chain(const ChainBuffers& b, std::size_t n, cudaStream_t stream);
//! The exercise: stages 1+2 (x -> halfway), then stages 3+4 (halfway, r -> y).
void launch_halfway_pair(const ChainBuffers& b, std::size_t n, cudaStream_t stream);
//! The fused chain with `width` elements per thread (one of kWidths); throws std::invalid_argument
//! for any other width.
void launch_fused_wide(int width, const ChainBuffers& b, std::size_t n, cudaStream_t stream);

//! The fused chain kernel of `width` elements per thread (one of kWidths), for
//! labrun::kernel_resources (cases/declared_lab.hpp); throws std::invalid_argument for any other width.
[[nodiscard]] const void* fused_wide_kernel(int width);

//! The fused chain kernel, for labrun::compiled_kernel_facts (cases/declared_lab.hpp): the machine
//! code and PTX this build runs as on the current device.
[[nodiscard]] const void* fused_chain_kernel();

}  // namespace day48
