#pragma once
// The lab's own claim rules (labrun::ClaimKind::kCustom): each fills a ClaimResult's figures,
// verdict, measured, expected, tolerance and detail from a transcript alone.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "claims/claims.hpp"
#include "core/transcript.hpp"

namespace verdicts {

//! Where the pair's speedup settles at its byte ratio, against the card's L2.
struct CrossoverRule {
  std::string unfused;
  std::string fused;
  double tolerance = 0.10;  //!< a speedup within this fraction of the byte ratio has settled
  //! Held when the settling size (n x element bytes) is between these multiples of the L2.
  double low_l2_multiple = 0.25;
  double high_l2_multiple = 4.0;
  //! The sweep must reach this multiple of the L2, or the claim is not measured.
  double required_l2_multiple = 2.0;
};
//! measured: the settling n x 4 B over the L2 bytes; not measured without the L2 size or a sweep
//! reaching required_l2_multiple; failed when the largest n is off the byte ratio.
void judge_crossover(const CrossoverRule& rule, const labrun::Transcript& t, labrun::ClaimResult& result);
//! The 95% interval of the settling multiple judge_crossover measured, from each size's speedup interval
//! against its band (labrun::settling_range): from the size it settles at if every size whose interval
//! crosses an end of the band is settled, to the one it settles at if none is; past the sweep's end (twice
//! its largest multiple) when the largest size's interval is not wholly inside. nullopt when a size has no
//! interval (a run of one context) or the claim measured no multiple.
[[nodiscard]] std::optional<labrun::Interval> crossover_interval(const CrossoverRule& rule,
                                                                 const labrun::Transcript& t,
                                                                 const labrun::ClaimResult& result);

//! The chapter's method: the time a fusion saves, divided by the bytes it removes, is the
//! bandwidth of the eliminated traffic; it should be near the card's practical ceiling, here the
//! copy floor's GB/s at the same size.
struct EliminatedTrafficRule {
  std::vector<std::pair<std::string, std::string>> pairs;  //!< (unfused, fused)
  std::string copy_floor;
  std::string size_label;
  double low = 0.8;  //!< every pair's eliminated GB/s within [low, high] x the copy floor's
  double high = 1.25;
};
//! measured: the multiple furthest from 1 (by ratio) over the pairs timed.
void judge_eliminated_traffic(const EliminatedTrafficRule& rule, const labrun::Transcript& t,
                              labrun::ClaimResult& result);

//! The cheap value: recomputing is no slower than materialising, at every R, by more than
//! `tolerance`.
struct CheapReuseRule {
  double tolerance = 0.05;
};
//! measured: the lowest materialise / recompute ratio over R.
void judge_cheap_reuse(const CheapReuseRule& rule, const labrun::Transcript& t, labrun::ClaimResult& result);

//! The expensive value: a reuse factor exists inside the sweep from which materialising wins at
//! every larger R, while recomputing wins at the smallest R.
//! measured: that R; failed when recomputing wins at the largest R, or materialising already at
//! the smallest.
void judge_expensive_reuse(const labrun::Transcript& t, labrun::ClaimResult& result);

}  // namespace verdicts
