#include "exercise/launch_plan.hpp"

#include <algorithm>
#include <limits>

namespace labrun {

std::string LaunchPlan::describe() const {
  return std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " of " + std::to_string(threads) +
         " threads";
}

namespace {

// The thread limit every shape meets; false (with the plan's problem set) when it does not.
bool within_thread_limit(const LaunchShape& shape, int max_threads_per_block, LaunchPlan& plan) {
  plan.threads = static_cast<unsigned>(shape.threads_per_block);
  if (shape.threads_per_block > max_threads_per_block) {
    plan.problem = std::to_string(shape.threads_per_block) +
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

LaunchPlan plan_launch(const LaunchShape& shape, std::uint64_t n, int max_threads_per_block,
                       std::uint64_t resident_blocks) {
  LaunchPlan plan;
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
