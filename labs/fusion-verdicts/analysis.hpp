#pragma once
// The figures the lab's tables, claims and plots share, computed from a transcript alone: an
// unfused/fused pair at one size or over a sweep, the size where a sweep settles at its byte
// ratio, the reuse sweep and where materialising starts to win. Host code, no CUDA.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace verdicts {

//! An unfused and a fused case timed at the same n.
struct PairPoint {
  std::uint64_t elements = 0;
  std::string size_label;  //!< of the unfused case
  double unfused_ms = 0.0;
  double fused_ms = 0.0;
  double speedup = 0.0;     //!< unfused_ms / fused_ms
  double byte_ratio = 0.0;  //!< unfused model bytes / fused model bytes
  //! Bytes the fusion removes: model bytes of the unfused case minus the fused case's, at n.
  double eliminated_bytes = 0.0;
  //! The effective bandwidth of the eliminated traffic, GB/s (10^9 B/s): eliminated_bytes over
  //! (unfused_ms - fused_ms). Empty when either difference is not positive.
  std::optional<double> eliminated_gb_per_s;
};

//! The pair at one size label; empty unless both cases have a positive central time there.
[[nodiscard]] std::optional<PairPoint> pair_at(const labrun::Transcript& t, const std::string& unfused,
                                               const std::string& fused, const std::string& size_label);

//! The pair at every n both ran (whatever the size label), in ascending n.
[[nodiscard]] std::vector<PairPoint> pair_sweep(const labrun::Transcript& t, const std::string& unfused,
                                                const std::string& fused);

//! Whether a speedup is within `tolerance` (a fraction) of the point's byte ratio.
[[nodiscard]] bool at_byte_ratio(const PairPoint& point, double tolerance);

//! The index of the first point of the longest run, ending at the largest n, whose speedups are
//! all within `tolerance` of their byte ratios: the size from which the speedup has settled.
//! Empty when the largest n itself is off (or there are no points).
[[nodiscard]] std::optional<std::size_t> settling_index(const std::vector<PairPoint>& points,
                                                        double tolerance);

//! The card's L2 in bytes, from the "device" group's l2_bytes; empty when unknown or not positive.
[[nodiscard]] std::optional<double> l2_bytes(const labrun::Transcript& t);

//! The GB/s of a case (model bytes over central time), or empty when it was not timed there.
[[nodiscard]] std::optional<double> case_gb_per_s(const labrun::Transcript& t, const std::string& name,
                                                  const std::string& size_label);

//! A recompute and a materialise case at one reuse factor R.
struct ReusePoint {
  unsigned reuse = 0;
  double recompute_ms = 0.0;
  double materialise_ms = 0.0;
  double ratio = 0.0;  //!< materialise_ms / recompute_ms: above 1, recomputing wins
};

//! Every R of the cheap (or expensive) value at which both versions were timed, ascending.
//! Reads the recompute part's cases at whatever size they ran (the first result of each name).
[[nodiscard]] std::vector<ReusePoint> reuse_sweep(const labrun::Transcript& t, bool expensive);

//! The index of the first point of the longest run, ending at the largest R, at which
//! materialising is faster (ratio < 1). Empty when recomputing wins (or ties) at the largest R.
[[nodiscard]] std::optional<std::size_t> materialise_wins_from(const std::vector<ReusePoint>& points);

//! "recompute wins at every R (R = 1 to 256)", "recompute up to R = 2, materialise from R = 4",
//! "materialise wins at every R (R = 1 to 256)", "recompute wins at the largest R (R = 1 to 256)"
//! (materialise won somewhere below it), or "not run".
[[nodiscard]] std::string reuse_summary(const std::vector<ReusePoint>& points);

}  // namespace verdicts
