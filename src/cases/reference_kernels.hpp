#pragma once
// Kernels the harness gives every lab, behind launchers (defined in reference_kernels.cu): the
// reference cases of cases/reference_cases.hpp (a peak-FMA kernel for the roofline's compute
// ceiling, a copy and an empty launch). Host-includable; each launcher checks its launch and throws
// labrun::CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cases/seeded_uniform.hpp"  // LABRUN_HOST_DEVICE

namespace labrun {

//! The peak-FMA kernel's shape: each thread carries this many independent chains of fused
//! multiply-adds (enough to keep every FP32 pipe of an SM busy while each waits on its last result),
//! each this long, and then adds its chains together.
inline constexpr int kPeakFmaChains = 8;
inline constexpr int kPeakFmaSteps = 256;
//! x <- x * a + b in every step: |a| < 1, so each chain settles towards b / (1 - a) = 25 without
//! reaching it in 256 steps, and rounding errors shrink rather than grow.
inline constexpr float kPeakFmaScale = 0.99f;
inline constexpr float kPeakFmaOffset = 0.25f;
//! Floating-point operations per element: two per fused multiply-add, one per add of the chains.
inline constexpr double kPeakFmaFlopsPerElement = 2.0 * kPeakFmaChains * kPeakFmaSteps + (kPeakFmaChains - 1);

//! Chain c of element i starts at this value (in [0, 1.875], exact in float).
[[nodiscard]] LABRUN_HOST_DEVICE inline float peak_fma_start(std::size_t i, int chain) {
  return static_cast<float>(i % 1024) * (1.0f / 1024.0f) + static_cast<float>(chain) * 0.125f;
}

//! out[i] for i < n: the sum of element i's chains after kPeakFmaSteps steps; reads no memory.
void launch_peak_fma(float* out, std::size_t n, cudaStream_t stream);
//! The kernel launch_peak_fma launches, for compiled_kernel_facts and kernel_resources.
[[nodiscard]] const void* peak_fma_kernel();

//! out[i] = in[i], one element per thread: the floor no elementwise pass over the same data can beat.
void launch_copy(const float* in, float* out, std::size_t n, cudaStream_t stream);
//! The same copy as the driver does it: cudaMemcpyAsync, device to device.
void launch_copy_memcpy(const float* in, float* out, std::size_t n, cudaStream_t stream);
//! An empty kernel of one block of one thread: what a launch costs.
void launch_empty(cudaStream_t stream);

}  // namespace labrun
