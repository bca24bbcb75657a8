#pragma once
// The day-48 exercise: what a submission is (docs/grading.md).
//
// A submission is one CUDA source file of device code. It may include this header, "stages.cuh"
// (included here: the lab's four stage functions), "chain_constants.hpp" and CUDA's own headers,
// nothing else. It defines exactly these two kernels, with C linkage so that the grader finds them
// by name:
//
//   extern "C" __global__ void halfway_stages_1_2(const float* x, float* intermediate, std::size_t n);
//   extern "C" __global__ void halfway_stages_3_4(const float* intermediate, const float* residual,
//                                                 float* y, std::size_t n);
//
// The first applies stages 1 and 2 (scale_bias, then gelu) to x[i] and stores the result in
// intermediate[i]; the second adds residual[i] to intermediate[i], applies clamp_range and stores
// the result in y[i]; both for every i in [0, n). The grader launches them itself, the first then
// the second, on a stream of its own, with the launch shape the manifest declares for each:
//
//   {"threads_per_block": T, "elements_per_thread": E}: ceil(n / (T * E)) blocks of T threads, so
//       thread t of block b covers E elements (how they are laid out is the kernel's choice);
//   {"threads_per_block": T, "grid_stride": true}: enough blocks of T threads to fill the card
//       once, at most ceil(n / T); the kernel loops over [0, n) with a grid-sized stride.
//
// Every buffer starts 256-byte aligned (as cudaMalloc gives), so 16-byte vector accesses are safe
// from element 0. Host code in the file is never compiled into anything that runs: the grader
// compiles device code only (a cubin) and launches the two kernels from its own process.

#include <cstddef>

#include "stages.cuh"
