#pragma once
// The grid the grader launches a submission's kernel with, from the launch shape its manifest
// declares (docs/grading.md, "A submission", explains the shapes). Host logic only.

#include <cstdint>
#include <string>

#include "grading/manifest.hpp"

namespace labrun {

struct LaunchPlan {
  unsigned blocks = 0;    //!< the grid's x extent
  unsigned threads = 0;   //!< the block's x extent
  std::string problem;    //!< why the shape cannot be launched for this kernel; empty when it can
  unsigned blocks_y = 1;  //!< a 2-D grid's y extent (plan_image_launch)
  unsigned threads_y = 1;
  //! "4099 blocks of 256 threads", "32 x 125 blocks of 32 x 8 threads"
  [[nodiscard]] std::string describe() const;
};

//! `max_threads_per_block`: the kernel's own limit (cudaFuncAttributes, lower than 1024 when it uses
//! many registers); `resident_blocks`: blocks of this size the whole card holds at once (SM count
//! times the kernel's occupancy), used for grid-stride shapes. n must be positive.
[[nodiscard]] LaunchPlan plan_launch(const LaunchShape& shape, std::uint64_t n, int max_threads_per_block,
                                     std::uint64_t resident_blocks);

//! A kernel over an image of width x height (exercise.hpp's ContractKernel::image): a 2-D shape's
//! grid of ceil(width / (x threads * x elements)) x ceil(height / (y threads * y elements)) blocks. A
//! 1-D shape is refused: the contract asks for [x, y] pairs.
[[nodiscard]] LaunchPlan plan_image_launch(const LaunchShape& shape, std::uint64_t width,
                                           std::uint64_t height, int max_threads_per_block);

//! One block of the shape's threads, whatever n: a contract's finishing step (exercise.hpp's
//! ContractKernel::one_block). Only the thread limit can refuse it.
[[nodiscard]] LaunchPlan plan_one_block(const LaunchShape& shape, int max_threads_per_block);

}  // namespace labrun
