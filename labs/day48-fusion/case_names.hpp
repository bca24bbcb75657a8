#pragma once
// Every day-48 case's name, written once: the declarations (declarations.cpp), the tables, claims
// and predictions (lab.cpp) and the plots (plots.cpp) all use these, so renaming a case is one edit
// here and a misspelt case is a compile error, not a table row that silently stays empty.

#include <string>

#include "lab.hpp"

namespace day48::cases {

// Part 1: what a launch costs.
inline const std::string kEmptySingleThread = case_name("part1", "empty-single-thread");
inline const std::string kEmptySingleLaunch = case_name("part1", "empty-single-launch");
//! The staged chain's launch count of empty launches between one pair of events: what an empty launch
//! costs where a sample's launches are queued ahead of the GPU, as the chain's are in cold and
//! hot-gated timing.
inline const std::string kEmptyStagedLaunches = case_name("part1", "empty-single-staged-launches");
inline const std::string kEmptyChainGrid = case_name("part1", "empty-chain-grid");
// Part 2: every version once, against the copy floor and the practical ceilings.
inline const std::string kCopyFloor = case_name("part2", "copy-floor");
inline const std::string kCopyVectorized = case_name("part2", "copy-vectorized");
inline const std::string kCopyMemcpy = case_name("part2", "copy-memcpy");
inline const std::string kStageScaleBias = case_name("part2", "stage-scale-bias");
inline const std::string kStageGelu = case_name("part2", "stage-gelu");
inline const std::string kStageAddResidual = case_name("part2", "stage-add-residual");
inline const std::string kStageClampRange = case_name("part2", "stage-clamp-range");
inline const std::string kStagedChain = case_name("part2", "staged-chain");
inline const std::string kFusedChain = case_name("part2", "fused-chain");
inline const std::string kHalfwayPair = case_name("part2", "halfway-pair");
//! A student's own half-way pair, declared by `labrun run day48-fusion --submission DIR`
//! (submission_case.cpp); absent from every other run.
inline const std::string kSubmission = case_name("part2", "submission");
// Part 3: the two chains swept over n.
inline const std::string kSweepStagedChain = case_name("part3", "staged-chain");
inline const std::string kSweepFusedChain = case_name("part3", "fused-chain");
// Part 5: launch cost against bytes.
inline const std::string kLaunchStagedChain = case_name("part5", "staged-chain");
inline const std::string kLaunchStagedChainGraph = case_name("part5", "staged-chain-graph");
inline const std::string kLaunchFusedChain = case_name("part5", "fused-chain");

//! The four stages of part 2, in chain order.
inline const std::string kStages[] = {kStageScaleBias, kStageGelu, kStageAddResidual, kStageClampRange};
//! The practical ceilings of part 2 (copies the floor is compared with).
inline const std::string kCeilingCopies[] = {kCopyVectorized, kCopyMemcpy};

//! Part 4's short names are this and the width K: "fused-wide-k8".
inline constexpr const char* kFusedWidePrefix = "fused-wide-k";
//! The short name of part 4's case at a width (one of kWidths): "fused-wide-k8".
[[nodiscard]] inline std::string fused_wide_short_name(int width) {
  return kFusedWidePrefix + std::to_string(width);
}
//! Part 4's case at a width (one of kWidths): chainFused widened to `width` elements per thread.
[[nodiscard]] inline std::string fused_wide(int width) {
  return case_name("part4", fused_wide_short_name(width));
}

}  // namespace day48::cases
