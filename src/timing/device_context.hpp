#pragma once
// The process's CUDA context on the current device, opened and renewed on purpose: a run measures its
// rounds in several contexts because a small case's level moves between contexts far more than
// between rounds inside one (docs/measurement.md, "Where the variance lives").

namespace labrun {

//! Creates the current device's primary context if it does not exist yet (cudaFree(nullptr)) and
//! returns the wall seconds that took. Throws CudaError.
[[nodiscard]] double open_device_context();

//! Destroys the current device's primary context with everything in it (cudaDeviceReset) and creates
//! a new one; returns the wall seconds both took. Every buffer, event, stream, graph and host-mapped
//! allocation of the old context is gone afterwards: the caller frees its own before, and creates
//! them again after. Throws CudaError.
[[nodiscard]] double renew_device_context();

}  // namespace labrun
