#pragma once
// The day-48 lab's GPU side: buffers, correctness runs and timed regions.

#include <memory>

#include "registry/lab.hpp"

namespace day48 {

//! Allocates the run's buffers on device 0 and fills the inputs. Throws labrun::CudaError.
[[nodiscard]] std::unique_ptr<labrun::LabSession> open_session(const labrun::SessionConfig& config);

}  // namespace day48
