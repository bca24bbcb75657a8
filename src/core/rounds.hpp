#pragma once
// Rounds (schema 1.6.0): a run measures every case R times, each round on freshly allocated buffers
// and in a case order of its own, so that what changes from run to run (where the buffers land, what
// ran before a case, the clocks' drift) changes from round to round too, and the spread of the
// rounds' medians can bound a figure. Host logic only: the stop rule of one round, each round's
// order, a round's samples merged into its case, a transcript seen one round at a time, and the 95%
// intervals from between-round variation (docs/measurement.md, "Rounds and intervals").

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sampling.hpp"
#include "core/statistics.hpp"
#include "core/transcript.hpp"

namespace labrun {

//! The default number of rounds. Provisional: chosen from the cost model of docs/measurement.md
//! until the device benchmark there measures verdict stability and interval coverage at 3, 5 and 8.
inline constexpr int kDefaultRounds = 5;
//! An adaptive round takes at least this many samples: fewer leave its median's interval unbounded
//! (core/sampling.hpp), so a round could never stop on it.
inline constexpr int kMinSamplesPerAdaptiveRound = 6;

//! The stop rule of one round of a case, from the run's `rule` for the whole case: --reps,
//! --max-samples and --case-time-limit split evenly between `rounds` (rounded up), an adaptive round
//! taking at least kMinSamplesPerAdaptiveRound, and the median's interval target widened by
//! sqrt(rounds), so that the case's median over all its rounds is about as precise as one round of
//! the whole budget was. One round is `rule` itself. Throws std::invalid_argument below 1 round.
[[nodiscard]] SamplingRule round_rule(const SamplingRule& rule, int rounds);

//! The order of the planned cases 0..count-1 in round `round` (from 0) of `rounds`: with one round
//! the plan's own order (0, 1, ...); with more, each round a seeded permutation of its own, from the
//! run's `seed` and the round's number (the same seed gives the same orders on every machine).
[[nodiscard]] std::vector<std::size_t> round_order(std::size_t count, int round, int rounds,
                                                   std::uint64_t seed);

//! One round of one case as the sampler took it.
struct RoundSamples {
  std::vector<double> samples_ms;
  std::vector<std::optional<double>> sm_clock_mhz;  //!< one per sample; nullopt: not read
  std::vector<std::size_t> gate_timeout_samples;    //!< indices into this round's samples
  StopReason stop_reason = StopReason::kFixedCount;
  double sampling_seconds = 0.0;
};

//! Appends a round to `result`: its samples, clocks and gate time-outs (indices shifted past the
//! earlier rounds' samples), its RoundRecord, and then the case's summary of every sample, its
//! sampling seconds (summed), its stop reason (the one most rounds stopped for; a tie goes to the
//! earliest round's) and its median's 95% interval (case_median_interval).
void append_round(CaseResult& result, const RoundSamples& round);

//! The case's rounds: its RoundRecords' count, or 1 for a case that records none (schema < 1.6.0).
[[nodiscard]] std::size_t rounds_of(const CaseResult& result);
//! The median of each round's samples, in round order; the summary's median for a case of one round.
[[nodiscard]] std::vector<double> round_medians(const CaseResult& result);
//! The 95% interval of the case's median from between-round variation: between_round_interval of
//! summary.median over round_medians; nullopt below 2 rounds.
[[nodiscard]] std::optional<Interval> case_median_interval(const CaseResult& result);

//! The rounds every timed case of the transcript has (the fewest of any case with samples); 1 for a
//! transcript that records none (schema < 1.6.0) or has no sampled case.
[[nodiscard]] std::size_t round_count(const Transcript& transcript);

//! The transcript as round `round` alone saw it: each case with samples keeps that round's samples
//! and clocks (summary recomputed from them, its one RoundRecord, no interval); a case with no such
//! round is left out; a case without samples (transcribed) stays as it is in round 0 and is left out
//! of later ones. Everything else is copied. Claims evaluated on it give that round's figures.
[[nodiscard]] Transcript round_view(const Transcript& transcript, std::size_t round);

//! central(slower) / central(faster) with its 95% interval from between-round variation, paired by
//! round (each round's median ratio, so what a round shares between the two cases cancels); the
//! interval is nullopt unless both cases have the same number of rounds, at least 2.
[[nodiscard]] PredictionMeasurement measured_ratio(const CaseResult& slower, const CaseResult& faster);

//! A prediction measured at every size both of its cases ran (the slower case's sizes in run order,
//! each with the faster case at the same size label and a positive central time).
[[nodiscard]] std::vector<PredictionMeasurement> measure_prediction(const Transcript& transcript,
                                                                    const PredictionRecord& prediction);

//! How the run's 95% intervals are computed, in words, as the transcript records it.
[[nodiscard]] std::string interval_method_text();

}  // namespace labrun
