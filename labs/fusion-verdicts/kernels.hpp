#pragma once
// Launchers for the fusion-verdicts kernels (defined in kernels.cu). Host-includable: the
// declarations (declarations.cpp) and the tests call these. Every launcher checks its launches and
// throws labrun::CudaError; none synchronises.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace verdicts {

//! The device memory of one run and the reduction grid. Every n-sized pointer holds at least the
//! run's largest n floats; cases share them, and every case writes what it reads before reading it.
struct Workspace {
  float* x = nullptr;         //!< input of every case (seeded: declarations.cpp)
  float* a = nullptr;         //!< per-group input of the recompute cases (seeded)
  float* mid = nullptr;       //!< the unfused versions' intermediate (tmp, t, u or the values v)
  float* y = nullptr;         //!< output of every case with an n-sized output
  float* partials = nullptr;  //!< reduction_blocks floats: one partial sum per block
  float* sum = nullptr;       //!< one float: the elementwise-then-reduction result
  //! Blocks of every grid-stride reduction: as many as can be resident at once (blocks per SM of
  //! the cooperative kernel x SMs), so that the cooperative and two-kernel versions share a grid.
  unsigned reduction_blocks = 0;
  bool cooperative_launch = false;  //!< cudaDevAttrCooperativeLaunch of the current device
};

//! Blocks of kThreadsPerBlock threads covering n elements, one per thread.
[[nodiscard]] unsigned blocks_for(std::size_t n);

//! The grid-stride reductions' grid on the current device.
struct ReductionGrid {
  int sm_count = 0;
  int blocks_per_sm = 0;  //!< cudaOccupancyMaxActiveBlocksPerMultiprocessor of the cooperative kernel
  unsigned blocks = 0;    //!< sm_count x blocks_per_sm
  bool cooperative_launch = false;
};
[[nodiscard]] ReductionGrid reduction_grid();

//! y = x: the floor no pass of one read and one write can beat.
void launch_copy_floor(const Workspace& w, std::size_t n, cudaStream_t stream);

//! Two kernels: scale x -> mid, bias mid -> y.
void launch_pair_two_passes(const Workspace& w, std::size_t n, cudaStream_t stream);
//! One kernel: x -> y.
void launch_pair_fused(const Workspace& w, std::size_t n, cudaStream_t stream);

//! Square x -> mid, grid-stride sum of mid -> partials, one block sums the partials -> sum.
void launch_sum_two_kernels(const Workspace& w, std::size_t n, cudaStream_t stream);
//! The square folded into the sum's loads: x -> partials, then partials -> sum.
void launch_sum_folded(const Workspace& w, std::size_t n, cudaStream_t stream);

//! Sum of squares of x -> partials; then every block totals the partials and writes
//! y = x / rms. Both kernels on the reduction grid.
void launch_normalise_two_kernels(const Workspace& w, std::size_t n, cudaStream_t stream);
//! The same two phases in one cooperative kernel, a grid-wide barrier between them. Throws
//! labrun::CudaError (cudaErrorNotSupported) when the device cannot launch cooperative kernels.
void launch_normalise_cooperative(const Workspace& w, std::size_t n, cudaStream_t stream);

//! Two box-average passes of radius `radius` (one of kStencilRadii): x -> mid -> y. Throws
//! std::invalid_argument for any other radius.
void launch_stencil_two_passes(int radius, const Workspace& w, std::size_t n, cudaStream_t stream);
//! Both passes in one kernel through a shared-memory tile that recomputes the first pass's halo.
void launch_stencil_fused(int radius, const Workspace& w, std::size_t n, cudaStream_t stream);

//! The shape of a stencil kernel's tile, for the case's attributes.
struct StencilShape {
  int radius = 0;
  int tile = 0;  //!< outputs per block
  int halo = 0;  //!< input elements loaded beyond each side of the tile
  //! First-pass outputs computed per block beyond the tile's own, as a fraction of the tile:
  //! the recomputed halo (2R / tile for the fused kernel, 0 for the two passes).
  double recomputed_fraction = 0.0;
  std::size_t shared_bytes = 0;  //!< static shared memory per block
};
[[nodiscard]] StencilShape stencil_shape(int radius, bool fused);

//! y[i] = x[i] * f(a[i >> reuse_shift]), f recomputed by every thread (one kernel).
void launch_recompute(bool expensive, unsigned reuse_shift, const Workspace& w, std::size_t n,
                      cudaStream_t stream);
//! mid[g] = f(a[g]) once per group (one thread per group), then y[i] = x[i] * mid[i >> reuse_shift].
void launch_materialise(bool expensive, unsigned reuse_shift, const Workspace& w, std::size_t n,
                        cudaStream_t stream);
//! Groups of 2^reuse_shift elements covering n: the values the materialising version computes.
[[nodiscard]] std::size_t groups_for(std::size_t n, unsigned reuse_shift);

//! The fused pair's kernel, for labrun::compiled_kernel_facts (cases/declared_lab.hpp): the machine
//! code and PTX this build runs as on the current device.
[[nodiscard]] const void* fused_pair_kernel();

}  // namespace verdicts
