#pragma once
// The day-48 lab's plots as data, computed from a transcript alone (drawn by src/plots/draw_plots).

#include <vector>

#include "core/transcript.hpp"
#include "plots/plot_spec.hpp"

namespace day48 {

//! In this order, each only when the transcript holds its cases:
//!  - "bandwidth-<size label>" per part-2 size: effective GB/s of every part-2 case (model bytes over
//!    median time), with the measured ceiling (the fastest copy case at that size) and, when the
//!    "device" group has memory_peak_gb_per_s, the theoretical peak;
//!  - "sweep": part 3's staged and fused medians against n (log-log), and staged / fused against n
//!    with the byte and launch ratios of their models, marking n x 4 B = L2 when l2_bytes is known;
//!  - "width-<size label>" per part-4 size: median time, and theoretical occupancy where recorded,
//!    against K, the elements per thread.
[[nodiscard]] std::vector<labrun::PlotSpec> plots(const labrun::Transcript& transcript);

}  // namespace day48
