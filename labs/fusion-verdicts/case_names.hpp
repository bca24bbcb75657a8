#pragma once
// Every fusion-verdicts case's name, written once: the declarations (declarations.cpp), the claims
// and predictions (lab.cpp), the tables (tables.cpp), the figures they share (analysis.cpp) and the
// plots (plots.cpp) all use these, so renaming a case is one edit here and a misspelt case is a
// compile error. Committed transcripts hold these names: a rename makes their rows unreadable to the
// tables, so the names stay as they are.

#include <string>

#include "lab.hpp"

namespace verdicts::cases {

// The floor the eliminated traffic is judged against.
inline const std::string kCopy = case_name(kFloorPart, "copy");
// Elementwise then elementwise.
inline const std::string kPairTwoPasses = case_name(kPairPart, "two-passes");
inline const std::string kPairFused = case_name(kPairPart, "fused");
// Elementwise then reduction.
inline const std::string kSumTwoKernels = case_name(kSumPart, "two-kernels");
inline const std::string kSumFolded = case_name(kSumPart, "folded");
// Reduction then elementwise.
inline const std::string kNormaliseTwoKernels = case_name(kNormalisePart, "two-kernels");
inline const std::string kNormaliseCooperative = case_name(kNormalisePart, "cooperative");

//! Stencil then stencil at a radius (one of kStencilRadii): "fusion-verdicts/stencil-pair/fused-r4".
[[nodiscard]] inline std::string stencil(int radius, bool fused) {
  return case_name(kStencilPart, stencil_case(radius, fused));
}

//! Recompute or materialise at a reuse factor (one of kReuseFactors):
//! "fusion-verdicts/recompute/cheap-materialise-r8".
[[nodiscard]] inline std::string reuse(bool expensive, bool recompute, unsigned factor) {
  return case_name(kReusePart, reuse_case(expensive, recompute, factor));
}

}  // namespace verdicts::cases
