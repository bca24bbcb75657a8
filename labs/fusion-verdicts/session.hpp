#pragma once
// The fusion-verdicts lab's GPU side: buffers, correctness runs and the region of every case.

#include <memory>

#include "registry/lab.hpp"

namespace verdicts {

//! Allocates the run's buffers on the current device and fills the inputs. Throws
//! labrun::CudaError.
[[nodiscard]] std::unique_ptr<labrun::LabSession> open_session(const labrun::SessionConfig& config);

}  // namespace verdicts
