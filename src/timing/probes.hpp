#pragma once
// Small kernels the harness itself runs around a lab's cases (defined in probes.cu). Every
// launcher checks its launch and throws CudaError.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace labrun {

//! Reads `count` 16-byte words of `buffer` with a grid-stride loop, so the L2 ends up holding
//! only clean lines of the buffer: a cold sample then reads its own inputs from device memory
//! without first paying for write-backs of the flush. Writes to `sink` only if the sum is a value
//! no real input produces, which keeps the compiler from dropping the loads.
//! With `clock_out` (two words of device memory), one thread also times the SM clock while the flush
//! runs, as launch_clock_probe does but with no kernel of its own: {clock64 cycles, %globaltimer ns}
//! from an edge of the timer to an edge at least 20 us later, or {0, 0} when the timer did not tick.
//! A cold sample's clock is read this way because a kernel of its own between cold samples makes
//! samples of three or more queued launches alternate between two levels (docs/measurement.md, "The
//! SM clock of every sample").
void launch_l2_flush_read(const uint4* buffer, std::size_t count, unsigned* sink, int sm_count,
                          cudaStream_t stream, unsigned long long* clock_out = nullptr);

//! One thread spins from an edge of %globaltimer until at least `spin_ns` nanoseconds of it have
//! passed and writes {SM clock64 cycles elapsed, globaltimer nanoseconds elapsed} to out[0..1]:
//! cycles per nanosecond is the SM clock while it ran. Writes {0, 0} if the timer has not done so
//! within about 2^31 cycles (a timer that does not tick).
void launch_clock_probe(unsigned long long* out, unsigned long long spin_ns, cudaStream_t stream);

//! One thread spins until *release is non-zero (a host-mapped flag the host sets once a sample's
//! launches are queued behind this kernel) or `timeout_ns` of %globaltimer have passed, and sets
//! *timed_out to 1 in the second case.
void launch_gate(const volatile int* release, volatile int* timed_out, unsigned long long timeout_ns,
                 cudaStream_t stream);

//! An empty kernel named labrun_profile_marker: the profiling pass launches one between cases, so
//! the kernels Nsight Compute reports can be told apart by case.
void launch_profile_marker(cudaStream_t stream);

}  // namespace labrun
