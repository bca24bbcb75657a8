#pragma once
// Day 20's launchers (kernels.cu), which the lab's cases (lab.cpp) and its graded exercise
// (grading/exercise.cpp: the reference and the timed lab cases) both run. Each checks its launch and
// throws labrun::CudaError. Host declarations only.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace day20 {

//! magnitude[y * width + x] = the Sobel magnitude at (x, y), edges clamped.
void launch_sobel(const float* image, float* magnitude, std::size_t width, std::size_t height,
                  cudaStream_t stream);
//! mask[i] = magnitude[i] > threshold ? 1 : 0 for i < n.
void launch_threshold(const float* magnitude, std::uint8_t* mask, std::size_t n, float threshold,
                      cudaStream_t stream);
//! Both in one kernel: the mask from the image, no magnitude stored.
void launch_fused(const float* image, std::uint8_t* mask, std::size_t width, std::size_t height,
                  float threshold, cudaStream_t stream);
//! The kernels' addresses, for their compiled facts.
const void* fused_kernel();
const void* sobel_kernel();

}  // namespace day20
