#include "exercise/launch_plan.hpp"

#include <algorithm>
#include <limits>

namespace labrun {

std::string LaunchPlan::describe() const {
  if (blocks_y > 1 || threads_y > 1) {
    return std::to_string(blocks) + " x " + std::to_string(blocks_y) + " blocks of " +
           std::to_string(threads) + " x " + std::to_string(threads_y) + " threads";
  }
  return std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " of " + std::to_string(threads) +
         " threads";
}

namespace {

// The thread limit every shape meets; false (with the plan's problem set) when it does not.
bool within_thread_limit(const LaunchShape& shape, int max_threads_per_block, LaunchPlan& plan) {
  plan.threads = static_cast<unsigned>(shape.threads_per_block);
  plan.threads_y = static_cast<unsigned>(shape.threads_y);
  if (shape.block_threads() > max_threads_per_block) {
    plan.problem = std::to_string(shape.block_threads()) +
                   " threads per block is more than this kernel can run (" +
                   std::to_string(max_threads_per_block) +
                   ", limited by its registers): declare fewer threads per block";
    return false;
  }
  return true;
}

}  // namespace

LaunchPlan plan_one_block(const LaunchShape& shape, int max_threads_per_block) {
  LaunchPlan plan;
  if (within_thread_limit(shape, max_threads_per_block, plan)) {
    plan.blocks = 1;
  }
  return plan;
}

LaunchPlan plan_image_launch(const LaunchShape& shape, std::uint64_t width, std::uint64_t height,
                             int max_threads_per_block) {
  LaunchPlan plan;
  if (!shape.two_d) {
    plan.problem =
        "this kernel runs over an image: declare threads_per_block and elements_per_thread as [x, y]";
    return plan;
  }
  if (!within_thread_limit(shape, max_threads_per_block, plan)) {
    return plan;
  }
  const auto cover = [](std::uint64_t extent, int threads, int elements) {
    const std::uint64_t per_block =
        static_cast<std::uint64_t>(threads) * static_cast<std::uint64_t>(elements);
    return std::max<std::uint64_t>((extent + per_block - 1) / per_block, 1);
  };
  const std::uint64_t x = cover(width, shape.threads_per_block, shape.elements_per_thread);
  const std::uint64_t y = cover(height, shape.threads_y, shape.elements_y);
  if (x > static_cast<std::uint64_t>(std::numeric_limits<int>::max()) || y > 65535) {
    plan.problem = "the shape needs " + std::to_string(x) + " x " + std::to_string(y) + " blocks for a " +
                   std::to_string(width) + " x " + std::to_string(height) +
                   " image, more than a grid may have";
    return plan;
  }
  plan.blocks = static_cast<unsigned>(x);
  plan.blocks_y = static_cast<unsigned>(y);
  return plan;
}

LaunchPlan plan_launch(const LaunchShape& shape, std::uint64_t n, int max_threads_per_block,
                       std::uint64_t resident_blocks) {
  LaunchPlan plan;
  if (shape.two_d) {
    plan.problem =
        "this kernel runs over [0, n): declare threads_per_block and elements_per_thread as numbers";
    return plan;
  }
  if (!within_thread_limit(shape, max_threads_per_block, plan)) {
    return plan;
  }
  const std::uint64_t threads = static_cast<std::uint64_t>(shape.threads_per_block);
  const std::uint64_t blocks_to_cover = (n + threads - 1) / threads;
  std::uint64_t blocks = 0;
  if (shape.grid_stride) {
    if (resident_blocks == 0) {
      plan.problem = "this kernel cannot run a block of " + std::to_string(shape.threads_per_block) +
                     " threads on this card (its occupancy is zero)";
      return plan;
    }
    blocks = std::min(blocks_to_cover, resident_blocks);
  } else {
    const std::uint64_t per_block = threads * static_cast<std::uint64_t>(shape.elements_per_thread);
    blocks = (n + per_block - 1) / per_block;
  }
  if (blocks > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    plan.problem = "the shape needs " + std::to_string(blocks) + " blocks at n = " + std::to_string(n) +
                   ", more than a grid may have";
    return plan;
  }
  plan.blocks = static_cast<unsigned>(std::max<std::uint64_t>(blocks, 1));
  return plan;
}

}  // namespace labrun
