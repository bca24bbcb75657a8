#pragma once
// The figures of one transcript that `labrun aggregate` summarises per card: the copy floor and
// ceiling, the cost of a launch, the size from which a swept pair settles at its byte ratio, the
// measured predicted ratios and the claims. Plain functions of a transcript and its lab's
// declarations (registry/lab.hpp, CardFigures); no GPU.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "claims/claims.hpp"
#include "core/transcript.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! A predicted ratio as one run measured it at one size.
struct MeasuredRatio {
  std::string description;  //!< the prediction's
  std::string size_label;
  double byte_ratio = 0.0;    //!< from the two cases' byte models in the transcript
  double launch_ratio = 0.0;  //!< likewise, launches
  double measured = 0.0;      //!< the slower case's central time over the faster case's
};

//! Where a swept pair's measured ratio settles near its byte ratio.
struct Settling {
  bool swept = false;  //!< both cases ran at two or more common sizes
  //! The smallest n from which the ratio stays within the tolerance of the byte ratio at every larger
  //! n the run timed; nullopt when swept and the ratio at the largest n is off (it never settles).
  std::optional<std::uint64_t> from_elements;
  double byte_ratio = 0.0;
};

struct RunFigures {
  std::string bandwidth_size_label;  //!< where the GB/s figures were read; empty when at no size
  std::optional<double> copy_floor_gb_per_s;
  //! The best GB/s of the lab's ceiling cases and the floor; nullopt when none of them ran.
  std::optional<double> ceiling_gb_per_s;
  std::optional<double> peak_gb_per_s;  //!< the device's theoretical peak (fact memory_peak_gb_per_s)
  //! The best copy (ceiling, else floor) over the peak; nullopt when either is unknown.
  std::optional<double> share_of_peak;
  std::optional<double> launch_us;  //!< the launch case's central time per launch, microseconds
  Settling settling;
  std::vector<MeasuredRatio> ratios;  //!< per prediction, at each of CardFigures::size_labels it ran at
  std::vector<ClaimResult> claims;    //!< as recorded, or evaluated when the transcript records none
};

//! The size label, of `preferred` in order, at which `case_name` ran in `transcript`; "" when none.
[[nodiscard]] std::string first_size_with(const Transcript& transcript, const std::string& case_name,
                                          const std::vector<std::string>& preferred);

//! Where the ratio of `slower_case` over `faster_case` settles within `tolerance` (a fraction) of
//! the byte ratio of their models, over every n both ran at.
[[nodiscard]] Settling settling_of(const Transcript& transcript, const std::string& slower_case,
                                   const std::string& faster_case, double tolerance);

//! Everything above for one transcript. `claims` evaluates the claims of a transcript that records
//! none (schema 1.0.0, a transcribed reference); nullptr when the lab is not part of this build.
[[nodiscard]] RunFigures run_figures(const Transcript& transcript, const CardFigures& figures,
                                     const std::vector<Prediction>& predictions,
                                     const std::vector<ClaimSpec>* claims);

}  // namespace labrun
