#pragma once
// Cases the harness declares for any lab (with the kernels of reference_kernels.cu): the cases that
// measure the card rather than the lesson, each with its byte and flop model and its check.
// - add_peak_fma_case: independent fused multiply-adds and no traffic; its GFLOP/s is the compute
//   ceiling of the roofline (Lab::roofline, evidence/roofline.hpp).
// - add_copy_cases: a copy of one element per thread and a device-to-device cudaMemcpy; their best
//   GB/s is the memory ceiling.
// - add_launch_cost_case: an empty kernel launched back to back; its time per launch is what a
//   launch costs.
// Each returns the full names of the cases it declared, for the lab's claims and its roofline.

#include <cstdint>
#include <string>
#include <vector>

#include "cases/declared_lab.hpp"

namespace labrun {

//! Elements the peak-FMA case runs at (its size "fixed"): 4,194,304 threads, each doing
//! kPeakFmaFlopsPerElement operations, many waves of blocks on any card.
inline constexpr std::uint64_t kPeakFmaElements = std::uint64_t{1} << 22;

//! Declares "<lab>/<part>/peak-fma" at kPeakFmaElements (size label "fixed"), writing one float per
//! element to an output of its own (kPeakFmaElements floats), with the correctness version
//! "peak-fma": every element against the same chains in float64 (relative 1e-4: each chain's
//! rounding errors shrink by 0.99 a step). Model: 4 B written, 1 launch, kPeakFmaFlopsPerElement
//! flops. Returns the case's name.
std::string add_peak_fma_case(LabDeclaration& lab, const std::string& part);

//! The names add_copy_cases declared.
struct CopyCases {
  std::string copy;    //!< "<lab>/<part>/copy": one element per thread
  std::string memcpy;  //!< "<lab>/<part>/copy-memcpy": cudaMemcpyAsync, device to device
};
//! Declares the two copies from `from` (an input) to `to` at `sizes`, each checked bit for bit
//! against its input (versions "copy", "copy-memcpy"). Model: 4 B read, 4 B written, 1 launch, 0
//! flops.
CopyCases add_copy_cases(LabDeclaration& lab, const std::string& part, BufferId from, BufferId to,
                         const std::vector<SizeRequest>& sizes);

//! Declares "<lab>/<part>/empty-launch": an empty kernel of one block of one thread,
//! `launches_per_sample` launches back to back per sample (size "single", 1 element). Model: no
//! bytes, 1 launch, 0 flops. Returns the case's name.
std::string add_launch_cost_case(LabDeclaration& lab, const std::string& part,
                                 int launches_per_sample = 1000);

//! The names add_card_cases declared.
struct CardCases {
  CopyCases copies;
  std::string peak_fma;
  std::string empty_launch;
};
//! Every case that measures the card, in `part`, in one call: add_copy_cases from the input `from`
//! to an output of their own at the lab's sizes (LabDeclaration::sizes) laid out as 1-D sizes (an
//! image's elements, the card-scaled size), then add_peak_fma_case and add_launch_cost_case. Their
//! roles are recorded in the declaration, which `declared` gives the Lab: the roofline's memory
//! ceiling (both copies) and compute ceiling (peak FMA), and the card figures' copy floor (the
//! copy), ceiling (the memcpy) and launch case. Throws std::invalid_argument when the lab has no
//! sizes yet.
CardCases add_card_cases(LabDeclaration& lab, const std::string& part, BufferId from);

//! The float64 value of peak-fma's element i: its chains' sums, as the kernel computes them.
[[nodiscard]] double peak_fma_reference(std::uint64_t i);

}  // namespace labrun
