#pragma once
// The fusion-verdicts lab as the harness sees it: cases, byte models, claims, tables and plots.

#include <cstdint>
#include <string>
#include <vector>

#include "registry/lab.hpp"

namespace verdicts {

inline constexpr const char* kLabName = "fusion-verdicts";
//! The fixed size every case but the sweep runs at (64 MiB of floats), and the odd correctness size.
inline constexpr std::uint64_t kLessonElements = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kCorrectnessElements = 1049187;
//! The elementwise pair's sweep: every power of two from kSweepFirst to kSweepLast elements.
inline constexpr std::uint64_t kSweepFirst = std::uint64_t{1} << 10;
inline constexpr std::uint64_t kSweepLast = std::uint64_t{1} << 27;
//! Bytes of one element of every buffer (float).
inline constexpr double kElementBytes = 4.0;

// The lab's parts, one per row of the chapter's verdict table that it measures, and the floor.
inline constexpr const char* kFloorPart = "floor";
inline constexpr const char* kPairPart = "elementwise-pair";
inline constexpr const char* kSumPart = "elementwise-reduction";
inline constexpr const char* kNormalisePart = "reduction-elementwise";
inline constexpr const char* kStencilPart = "stencil-pair";
inline constexpr const char* kReusePart = "recompute";

//! The size label the verdict claims are judged at: the L2 cannot hold the traffic there.
inline constexpr const char* kClaimSize = "card-scaled";

// The claims' ids (lab.cpp declares them; the verdict table shows their verdicts).
inline constexpr const char* kPairClaim = "elementwise-pair-fuses-at-the-byte-ratio";
inline constexpr const char* kCrossoverClaim = "speedup-settles-at-the-byte-ratio-beyond-l2";
inline constexpr const char* kSumClaim = "pointwise-stage-folds-into-the-reduction";
inline constexpr const char* kNormaliseClaim = "grid-barrier-buys-nothing-at-equal-bytes";
inline constexpr const char* kStencilClaim = "stencil-pair-fuses-at-the-byte-ratio";
inline constexpr const char* kEliminatedClaim = "time-saved-is-eliminated-traffic-at-copy-bandwidth";
inline constexpr const char* kCheapReuseClaim = "cheap-value-recompute-wins-at-every-reuse";
inline constexpr const char* kExpensiveReuseClaim = "expensive-value-materialise-wins-with-reuse";

//! "fusion-verdicts/<part>/<name>".
[[nodiscard]] std::string case_name(const std::string& part, const std::string& name);
//! The correctness version covering a case: "<part>-<name>" ("elementwise-pair-fused").
[[nodiscard]] std::string version_name(const std::string& part, const std::string& name);
//! "two-passes-r4", "fused-r4".
[[nodiscard]] std::string stencil_case(int radius, bool fused);
//! "cheap-recompute-r8", "expensive-materialise-r8".
[[nodiscard]] std::string reuse_case(bool expensive, bool recompute, unsigned reuse);

[[nodiscard]] labrun::Lab make_lab();

//! The lab's tables, from a transcript alone: the chapter's verdict table measured (once per size
//! the verdict rows ran at), the L2 crossover sweep, the reductions, the stencils and the
//! recompute sweep.
[[nodiscard]] std::vector<labrun::Table> render_tables(const labrun::Transcript& transcript);

}  // namespace verdicts
