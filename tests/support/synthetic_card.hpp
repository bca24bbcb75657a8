#pragma once
// Synthetic day-48 transcripts of cards this project never ran on, for the aggregate's tests.
// Every one is marked synthetic (provenance "synthetic", with a note saying what built it): none is
// ever a measurement.

#include <string>
#include <vector>

#include "claims/claims.hpp"
#include "core/transcript.hpp"

namespace labrun::testing {

//! What a synthetic card looks like. Times are per case at the lesson's n = 16,777,216.
struct SyntheticCard {
  std::string device = "Synthetic GPU";
  std::string uuid = "GPU-00000000-0000-4000-8000-000000000001";
  std::string host = "synthetic-host";
  std::string started_utc = "2026-12-01T10:00:00Z";
  std::string timing_mode = "hot";
  std::string configuration = "full";
  double copy_floor_ms = 0.1;       //!< 8 B per element: 1342 GB/s at 0.1 ms
  double ceiling_over_floor = 1.1;  //!< the vectorised copy's GB/s over the floor's
  double peak_gb_per_s = 2000.0;
  double staged_over_fused = 3.0;  //!< at the lesson and card-scaled sizes, and the sweep from `settles_from`
  std::uint64_t settles_from = 262144;  //!< below it the sweep's ratio is `small_ratio`
  double small_ratio = 2.0;
  double launch_us = 2.5;  //!< part 1's empty launch, per launch
};

//! The full environment a measured transcript records (core/environment_contract.hpp), every fact
//! known, for `card`.
[[nodiscard]] std::vector<FactGroup> synthetic_environment(const SyntheticCard& card);

//! A synthetic 1.4.0 day-48 transcript of `card`: part 1's launch case, part 2 at the lesson and
//! card-scaled sizes, part 3's sweep from 1024 to 16,777,216, its predictions, and `claims`
//! evaluated on its own figures (none when null).
[[nodiscard]] Transcript synthetic_day48_transcript(const SyntheticCard& card,
                                                    const std::vector<ClaimSpec>* claims = nullptr);

}  // namespace labrun::testing
