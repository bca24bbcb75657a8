#pragma once
// How the harness samples a case: cold or hot L2, the order cases run in, and the rule that says
// when a case has enough samples. Host logic only; the GPU side is src/timing/sampler.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! kCold flushes the L2 (and resets persisting L2 lines) before every sample, so each sample
//! reads its inputs from device memory; kHot runs samples back to back, as the lesson does, each
//! starting on an idle GPU, so the host's launch latency falls inside it; kHotGated is kHot with
//! every sample queued behind a gate kernel that is released once all its launches are queued
//! (nvbench's blocking kernel), so a sample is GPU time alone.
enum class TimingMode { kHot, kCold, kHotGated };
[[nodiscard]] const char* timing_mode_name(TimingMode mode);  //!< "hot", "cold", "hot-gated"
//! Throws std::invalid_argument for any other text.
[[nodiscard]] TimingMode timing_mode_from_name(const std::string& name);

//! kDeclared runs each case to its stop in the lab's order; kShuffle does the same in a seeded
//! random order; kInterleave takes a batch of samples from every unfinished case in turn, so slow
//! drift (clocks, temperature) is spread over all cases instead of favouring the first ones.
enum class CaseOrder { kDeclared, kShuffle, kInterleave };
[[nodiscard]] const char* case_order_name(CaseOrder order);  //!< "declared", "shuffle", "interleave"
//! Throws std::invalid_argument for any other text.
[[nodiscard]] CaseOrder case_order_from_name(const std::string& name);

//! Why a case stopped taking samples.
enum class StopReason {
  kMedianConverged,  //!< at least min_samples, and the median's confidence interval is narrow enough
  kTimeLimit,        //!< the case's time budget was spent first
  kSampleCap,        //!< max_samples reached first
  kFixedCount,       //!< adaptive sampling was off: exactly min_samples were taken
};
[[nodiscard]] const char* stop_reason_name(StopReason reason);  //!< "median-converged", ...
//! Throws std::invalid_argument for any other text.
[[nodiscard]] StopReason stop_reason_from_name(const std::string& name);

//! Cases with more launches per sample than this are sampled hot, not gated: their launches could
//! fill the launch queue while the gate holds it, and the host could not then release the gate.
inline constexpr int kMaxGatedLaunchesPerSample = 64;
//! A gate not released within this long lets its sample go on; the sample is recorded as such.
inline constexpr unsigned long long kGateTimeoutNs = 100'000'000;

//! Hot timing's launch check (transcript 1.8.0): after each round of a hot case of at most this many
//! elements and at most kMaxGatedLaunchesPerSample launches per sample, kLaunchCheckSamplesPerRound
//! gated samples of the same region are taken, outside its hot samples. 2^18: the largest size the
//! lessons call small (docs/measurement.md).
inline constexpr std::uint64_t kLaunchCheckMaxElements = std::uint64_t{1} << 18;
//! Gated samples per round of a launch-checked case. 20 (5 until 2026-12-06): a claim judged on GPU
//! time alone reads each context's median of these samples, and with 5 a context's median ratio
//! varied by its own sampling error alone. Over the 10 hot day-48 runs of 2026-12-06 07:48Z (H100),
//! `halfway-against-fused`'s gated ratio moved between a run's 5 contexts by 0.12-0.70% (root mean
//! square 0.42%), what 5-sample medians of samples spread by 0.46-0.60% give (0.36-0.48%), so its
//! interval's half width followed that noise (0.2-1.5%) and reached the bound in 3 runs of 10.
//! 20 samples halve that error. A gated sample costs 0.07-0.2 ms beyond its GPU time there, so
//! the 15 more a round cost a hot day-48 run about 0.25 s (625 gated samples a run at 5, 2,500 at 20;
//! docs/measurement.md, "Twenty gated samples a round").
inline constexpr int kLaunchCheckSamplesPerRound = 20;
//! The launch check also covers, up to this many elements, every case that a claim of the lab sets
//! against a bound reads (claims/claims.hpp: reads_against_a_bound), so that such a claim can be judged
//! on GPU time alone too (core/rounds.hpp: gated_reading). 2^24: at day 48's lesson size the H200's
//! kernels take 35-230 us, and every hot sample there carries 5.1-6.6 us of the host's launch latency
//! (hot less hot-gated figure of each of part 2's ten cases, the 2026-12-05 evidence runs), 2.5% to 16%
//! of it. The claims' cases at 2^27 take 0.13-1.8 ms, and checking them would add their gated samples
//! to day 20's run, which has no wall time to spare (docs/measurement.md, "Hot timing at the lesson's
//! size").
inline constexpr std::uint64_t kClaimLaunchCheckMaxElements = std::uint64_t{1} << 24;
//! The words timing.launch_check gives that rule, followed by kClaimLaunchCheckMaxElements: what says a
//! run checked its claims' cases (the Markdown's launch-check table reads it).
inline constexpr const char* kClaimLaunchCheckWords =
    "the same after each round of every case a claim sets against a bound reads, up to";
//! Whether a case gets hot timing's launch check: in hot `mode` only, at most
//! kMaxGatedLaunchesPerSample launches between one pair of events (`launches_per_event_pair`: its
//! launches per sample times the samples timed together), and at most kLaunchCheckMaxElements
//! `elements`, or at most kClaimLaunchCheckMaxElements for a case a claim sets against a bound reads
//! (`read_against_a_bound`).
[[nodiscard]] bool launch_check_applies(TimingMode mode, std::uint64_t elements, int launches_per_event_pair,
                                        bool read_against_a_bound);
//! A hot figure whose gated median is below half of it (host launch latency at least this share of
//! it) is launch-bound: it times the host's launches more than the GPU's work.
inline constexpr double kLaunchBoundShare = 0.5;

struct SamplingRule {
  int warmups = 3;         //!< untimed executions before the first sample
  int min_samples = 20;    //!< never fewer, whatever the spread
  int max_samples = 1000;  //!< never more
  //! Stop once the 95% confidence interval of the median, relative to the median, is at most
  //! this (0.005 = 0.5%). 0 turns adaptive sampling off: exactly min_samples are taken.
  double target_relative_median_ci = 0.005;
  double case_time_limit_s = 1.0;  //!< wall seconds spent sampling one case, warm-ups included
  int batch = 5;                   //!< samples taken between two checks of the rule

  [[nodiscard]] bool adaptive() const { return target_relative_median_ci > 0.0; }
};

//! Width of the distribution-free 95% confidence interval of the median (order statistics at
//! ranks n/2 - 0.98 sqrt(n) and n/2 + 1 + 0.98 sqrt(n), widened to whole ranks), over the median. Infinity
//! below 6 samples, where the interval is unbounded; 0 when the median is 0 and the interval is empty.
[[nodiscard]] double relative_median_ci(std::vector<double> samples);

//! Whether sampling stops now, given the samples so far and the seconds spent on the case.
[[nodiscard]] std::optional<StopReason> stop_reason(const SamplingRule& rule,
                                                    const std::vector<double>& samples, double elapsed_s);

//! `ms` at the precision a CUDA event gives (cudaEventElapsedTime returns a float): the double nearest
//! the shortest decimal that reads back as the same float, so a transcript writes it in about 8
//! digits instead of 17, losing nothing the event measured (transcript 1.8.0). Not finite: unchanged.
[[nodiscard]] double event_precision_ms(double ms);

//! A seeded permutation of 0..count-1 (the same seed gives the same order on every machine).
[[nodiscard]] std::vector<std::size_t> shuffled_order(std::size_t count, std::uint64_t seed);

//! Per-sample SM cycles per region execution: ms x MHz x 1000 / executions_per_sample, median over
//! the samples whose clock is known; nullopt when none is.
[[nodiscard]] std::optional<double> median_cycles(const std::vector<double>& samples_ms,
                                                  const std::vector<std::optional<double>>& sm_clock_mhz,
                                                  int executions_per_sample);
//! Indices of samples whose clock is known and below threshold_mhz.
[[nodiscard]] std::vector<std::size_t> throttled_samples(
    const std::vector<std::optional<double>>& sm_clock_mhz, double threshold_mhz);

}  // namespace labrun
