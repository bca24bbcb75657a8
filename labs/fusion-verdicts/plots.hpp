#pragma once
// The fusion-verdicts lab's plots as data, computed from a transcript alone (drawn by src/plots).

#include <vector>

#include "core/transcript.hpp"
#include "plots/plot_spec.hpp"

namespace verdicts {

//! In this order, each only when the transcript holds its cases:
//!  - "l2-crossover": the elementwise pair's speedup (two passes over fused) against n, with its
//!    byte ratio and, when the device's l2_bytes is known, a vertical line at n x 4 B = L2; and
//!    the eliminated traffic's GB/s against n, with the copy floor's GB/s at each size it ran;
//!  - "stencil-radius-<size label>": fused stencil speedup against the radius, with the byte ratio;
//!  - "recompute-or-materialise": materialise over recompute against R, cheap and expensive, with
//!    the break-even line at 1, and both versions' medians against R.
[[nodiscard]] std::vector<labrun::PlotSpec> plots(const labrun::Transcript& transcript);

}  // namespace verdicts
