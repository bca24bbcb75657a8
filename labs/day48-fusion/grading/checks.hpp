#pragma once
// Day 48's checking kernels: the harness's chain-pair checks (exercise/chain_pair_checks.cuh) made
// from the lab's own chain (chain_math.hpp, stages.cuh) in checks.cu. Host-includable.

#include "exercise/chain_pair_checks.hpp"

namespace day48::grading {

//! The chain's checks: x and the residual from their seeds, stage 2's output, the seven wrong
//! compositions of reference.hpp's kWrongCompositions, in order.
[[nodiscard]] labrun::ChainPairChecks halfway_checks();

}  // namespace day48::grading
