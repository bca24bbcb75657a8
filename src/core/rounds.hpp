#pragma once
// Rounds (schema 1.6.0): a run measures every case R times, each round on freshly allocated buffers
// and in a case order of its own, so that what changes from run to run (where the buffers land, what
// ran before a case, the clocks' drift) changes from round to round too, and the spread of the
// rounds' medians can bound a figure. Contexts (schema 1.8.0): the rounds run in groups of
// rounds_per_context, each group in a CUDA context of its own, because a small case's level moves
// between contexts far more than between rounds inside one (docs/measurement.md, "Where the variance
// lives"); the contexts are then the units an interval is made of. Host logic only: the stop rule of
// one round, each round's order and context, a round's samples merged into its case, a transcript
// seen one round or one unit at a time, and the 95% intervals from between-unit variation.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sampling.hpp"
#include "core/statistics.hpp"
#include "core/transcript.hpp"

namespace labrun {

//! The default number of rounds: 5, each in a CUDA context of its own (kDefaultRoundsPerContext), so
//! an interval has 4 degrees of freedom from the contexts (docs/measurement.md says why 5).
inline constexpr int kDefaultRounds = 5;
//! The default rounds per CUDA context: 1. Kalibera and Jones's rule with the H200's measured
//! variance by level and costs gives ceil(sqrt(c_context / c_round x T2_round / T2_context)) = 1
//! (docs/measurement.md, "Where the variance lives").
inline constexpr int kDefaultRoundsPerContext = 1;
//! The process allowance k of a run of 2 CUDA contexts or more (TimingRecord::process_allowance): a
//! figure's 95% interval allows for a process-level offset of k times its between-context standard
//! deviation. 1.0 from the H200 benchmark of 2026-12-03 (10 processes x 5 contexts per timing mode):
//! the process component reached the context component for part 1's host-bound launch (9-11% each),
//! and 0.2 to 0.5 times it for the small cases and the ratios of large ones (docs/measurement.md,
//! "What contexts cannot see").
inline constexpr double kProcessAllowance = 1.0;
//! The process allowance of a claim's figure that reads no host-bound case (host_bound_case): 0.6,
//! above every k measured for GPU-bound figures on the H200 (small cases in cold and hot-gated
//! timing: at most 0.42; ratios of large cases: T_process 0-0.12% against T_context 0.06-0.8%),
//! where kProcessAllowance widened their intervals 2.45 times past the contexts' own and left claims
//! near a bound (day 48's half-way pair over fused) held or failed by how wide each run's
//! 4-degree-of-freedom interval happened to be (docs/measurement.md, "One allowance per kind of
//! figure").
inline constexpr double kGpuBoundProcessAllowance = 0.6;
//! The least standard deviation (of the logarithm) of the process-level offset of a claim's figure
//! that reads a case timing the host's launch rate (times_host_launch_rate): 7.5%, the root mean
//! square of the 8 process components such cases measured on the H200 (2.6% to 11.3%, 6 to 10 runs
//! each: day 48's empty-single-thread in three modes and day 20's empty-launch, benchmarks of
//! 2026-12-03 15:09Z and 18:04Z). A process's launch rate is an offset of its own, not in proportion
//! to how much its contexts spread (k = T_process / T_context ranged from 0.33 to 1.64 over the same
//! measurements), so k s alone gives a run whose contexts happen to agree an interval that misses the
//! other runs (docs/measurement.md, "One allowance per kind of figure").
inline constexpr double kLaunchRateProcessFloor = 0.075;
//! 1.11.0: the cases that take more rounds than the others in cold and hot-gated timing: at most 2^16
//! elements, where a case's level moves with its CUDA context by 2.3-2.6% (T_context) and the process
//! adds about nothing (T_process 0.0%, medians over day 48's 13 small cases, H200 benchmarks of
//! 2026-12-03 18:04Z and 21:40Z), so only more contexts bring the run-to-run range of its figure under
//! 3% (docs/measurement.md, "More contexts for the small cases").
inline constexpr std::uint64_t kSmallCaseRoundsMaxElements = std::uint64_t{1} << 16;
//! The CUDA contexts every small case is timed in, at least, in cold timing: 15 (a run of more rounds
//! times them in all of its own; 10 from 1.11.0 to 2026-12-06). Sized first from the 2026-12-03
//! benchmarks: the expected median range over the small cases was 2.4-2.9% at 10 contexts (3.5-3.9% at
//! 5), and a context that only the small cases run in costs its creation (0.16-0.19 s), their sampling
//! budget being shared over all their rounds (docs/measurement.md, "More contexts for the small
//! cases"). At 10, nine cold benchmarks measured 1.3-3.6% against the 3% target, and two missed it
//! (3.6%, 3.3%); the last of them (H100, 2026-12-06 09:46Z) put the process level at 0.5% against
//! T_context 2.7%, as hot-gated timing does, so Kalibera and Jones's rule gives
//! sqrt(c_process / c_context x T2_context / T2_process) = sqrt(1.5 s / 0.19 s x 29) = 15 contexts a
//! process ("Fifteen contexts for the small cases in cold timing too").
inline constexpr int kSmallCaseContextsCold = 15;
//! The same in hot-gated timing: 15. At 10, three H200 benchmarks measured 2.3%, 3.0% and 3.2% against
//! the 3% target: there, unlike cold, the process adds a level of its own (T_process 0.5% against
//! T_context 2.4%, medians over day 48's small cases, 2026-12-04 20:35Z), so the range falls more
//! slowly with contexts. The model gives 2.9% at 10 and 2.6% at 15; each extra context costs about
//! 0.25 s (docs/measurement.md, "Fifteen contexts for the small cases in hot-gated timing").
inline constexpr int kSmallCaseContextsHotGated = 15;
//! Those two counts in words, as the plan and `--help` give them: "15 CUDA contexts in cold and
//! hot-gated timing" while they are one count, else "N CUDA contexts in cold and M in hot-gated timing".
[[nodiscard]] std::string small_case_contexts_words();
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

//! 1.11.0: whether a case of `elements` takes the small cases' rounds of a transcript recorded with
//! `timing` (elements at most timing.small_case_rounds_max_elements; never before 1.11.0).
[[nodiscard]] bool takes_small_case_rounds(std::uint64_t elements, const TimingRecord& timing);
//! The rounds a case of `elements` takes in a run recorded with `timing`: timing.small_case_rounds for
//! a small case (takes_small_case_rounds), else timing.rounds.
[[nodiscard]] int rounds_for_case(std::uint64_t elements, const TimingRecord& timing);

//! The CUDA context (from 0) round `round` (from 0) runs in, with `rounds_per_context` rounds in each.
[[nodiscard]] int context_of_round(int round, int rounds_per_context);
//! Whether round `round` (from 0) is the first of a context after the first: the run creates a new
//! CUDA context before it.
[[nodiscard]] bool round_starts_context(int round, int rounds_per_context);
//! The contexts `rounds` rounds take, `rounds_per_context` in each (the last may hold fewer).
[[nodiscard]] int contexts_for(int rounds, int rounds_per_context);

//! One round of one case as the sampler took it.
struct RoundSamples {
  std::vector<double> samples_ms;
  std::vector<std::optional<double>> sm_clock_mhz;  //!< one per sample; nullopt: not read
  std::vector<std::size_t> gate_timeout_samples;    //!< indices into this round's samples
  StopReason stop_reason = StopReason::kFixedCount;
  double sampling_seconds = 0.0;
  std::optional<int> context = std::nullopt;  //!< the CUDA context it ran in (1.8.0)
  std::vector<double> launch_check_ms;        //!< hot timing: its gated samples (1.8.0); empty: none
};

//! How a case's figure (CaseResult::central_ms) is taken from its samples.
enum class CasePoint {
  //! The median of every sample, pooled over its rounds (every transcript before 1.10.0): no
  //! CaseResult::figure_ms is recorded.
  kPooledMedian,
  //! 1.10.0: the geometric mean of its interval units' medians (unit_geometric_mean), recorded as
  //! CaseResult::figure_ms. Each CUDA context counts once, however many samples it took, and the
  //! figure is the centre of the log-scale t-interval made of the same units (docs/measurement.md,
  //! "The case's figure").
  kUnitGeometricMean,
};

//! The runs labrun makes: each case's figure the geometric mean of its contexts' medians.
inline constexpr CasePoint kRunCasePoint = CasePoint::kUnitGeometricMean;

//! The geometric mean of the case's unit medians (unit_medians); the pooled median
//! (summary.median) when it has fewer than 2 units or a unit median is not positive and finite.
[[nodiscard]] double unit_geometric_mean(const CaseResult& result);

//! Appends a round to `result`: its samples, clocks and gate time-outs (indices shifted past the
//! earlier rounds' samples), its RoundRecord (with its context), its launch check's gated samples,
//! and then the case's summary of every sample, its sampling seconds (summed), its stop reason (the
//! one most rounds stopped for; a tie goes to the earliest round's), its figure (`figure`:
//! kUnitGeometricMean records figure_ms = unit_geometric_mean; kPooledMedian records none), its
//! figure's 95% interval (case_median_interval, with `process_allowance`) and its launch check
//! (launch_latency_check, when it has gated samples; against the pooled median of its hot samples).
void append_round(CaseResult& result, const RoundSamples& round, double process_allowance = 0.0,
                  CasePoint figure = CasePoint::kPooledMedian);

//! The launch check of a hot case from its gated samples (ms) and its hot median (ms): their median,
//! the host's share of the hot median (1 - gated / hot, at least 0; 0 for a hot median that is not
//! positive) and whether that share is at least kLaunchBoundShare.
[[nodiscard]] LaunchLatencyCheck launch_latency_check(std::vector<double> gated_samples_ms,
                                                      double hot_median_ms);

//! The case's rounds: its RoundRecords' count, or 1 for a case that records none (schema < 1.6.0).
[[nodiscard]] std::size_t rounds_of(const CaseResult& result);
//! The median of each round's samples, in round order; the summary's median for a case of one round.
[[nodiscard]] std::vector<double> round_medians(const CaseResult& result);

//! The units a case's interval is made of, each the indices of its rounds, in order: one per CUDA
//! context its rounds ran in (1.8.0), or one per round when a round records no context (before
//! 1.8.0, every round ran in the run's one context and was judged as a unit of its own); one unit
//! of round 0 for a case that records no rounds.
[[nodiscard]] std::vector<std::vector<std::size_t>> interval_units(const CaseResult& result);
//! The median of each unit's samples (its rounds' pooled), in unit order; with one round per unit,
//! the rounds' medians.
[[nodiscard]] std::vector<double> unit_medians(const CaseResult& result);
//! The 95% interval of the case's figure from between-unit variation: between_round_interval of
//! central_ms() (figure_ms when recorded, else summary.median) over unit_medians, with
//! `process_allowance`; nullopt below 2 units.
[[nodiscard]] std::optional<Interval> case_median_interval(const CaseResult& result,
                                                           double process_allowance = 0.0);

//! The transcript's process allowance (timing.process_allowance); 0 without a timing record.
[[nodiscard]] double process_allowance_of(const Transcript& transcript);

//! Whether `c` times the host's launch rate: more than kMaxGatedLaunchesPerSample launches back to
//! back per sample (sampled hot in every timing mode, cold for its first launch only) of a region of
//! at most kLaunchCheckMaxElements elements, whose GPU work is shorter than the host's launch.
[[nodiscard]] bool times_host_launch_rate(const CaseResult& c);
//! Whether `c`'s figure rests on the host: it times the host's launch rate, or it is a hot case
//! whose launch check found it launch-bound.
[[nodiscard]] bool host_bound_case(const CaseResult& c);

//! How a claim's interval allows for a process-level offset (between_round_interval's
//! process_allowance and process_floor).
struct ProcessTerm {
  double allowance = 0.0;  //!< k
  double floor = 0.0;      //!< the least process-level standard deviation, a fraction; 0: none
};
//! The words interval_method_text adds for a run whose claims allow for the process level by the
//! kind of figure they read (claim_process_term). The transcript schema has no field of its own for
//! it, so the recorded timing.interval_method is what says a run was judged this way.
inline constexpr const char* kFigureKindAllowanceWords = "a claim's figure that reads no host-bound case";
//! Whether `transcript`'s claims were judged with claim_process_term: its recorded interval_method
//! says so (kFigureKindAllowanceWords). A transcript written before that judged every claim with its
//! timing.process_allowance alone, and is judged so again.
[[nodiscard]] bool claims_allow_by_figure_kind(const Transcript& transcript);

//! The words interval_method_text adds for a run whose claims pick on the whole run (2026-12-04): a
//! claim whose figure is one picked from several (the lowest per-launch time over a sweep, the fastest
//! of several cases) picks it once, on the run's figures, and its interval comes from that figure's
//! own contexts; a claim whose figure is a position in a sweep (where a speedup settles) takes its
//! interval from the intervals of the sweep's figures (ClaimSpec::interval). Recorded in
//! timing.interval_method like kFigureKindAllowanceWords, since the schema has no field for it.
inline constexpr const char* kPickOnTheRunWords =
    "a claim that picks one of several figures picks it on the run";
//! Whether `transcript`'s claims were judged picking on the run: its recorded interval_method says so
//! (kPickOnTheRunWords). A transcript written before judged each context's pick and position anew in
//! that context, and is judged so again.
[[nodiscard]] bool claims_pick_on_the_run(const Transcript& transcript);

//! The words interval_method_text adds for a run whose claims that set figures against a bound are
//! also judged on GPU time alone in hot timing (claims/claims.hpp: evaluate_claims; 2026-12-05). A hot
//! sample carries the host's launch latency; where a claim's cases have gated samples beside their hot
//! ones (the launch check), the claim is judged on those too, and its interval spans both readings.
//! Recorded in timing.interval_method like kFigureKindAllowanceWords, since the schema has no field for it.
inline constexpr const char* kGpuAloneWords =
    "in hot timing, a claim that sets figures against a bound is judged on its cases' gated samples too";
//! Whether `transcript`'s claims were judged on GPU time alone as well: a hot run whose recorded
//! interval_method says so (kGpuAloneWords). Every other run, and a hot run written before, is judged
//! on its hot samples alone, as it was.
[[nodiscard]] bool claims_read_gpu_alone(const Transcript& transcript);
//! Whether `c` has a reading on GPU time alone: a launch check whose gated samples fall evenly over its
//! rounds (the same count after each, as the runner takes them).
[[nodiscard]] bool has_gated_reading(const CaseResult& c);
//! The transcript as GPU time alone reads it: each case that has_gated_reading takes its launch check's
//! gated samples as its samples, round by round in the contexts its rounds ran in (summary, figure and
//! interval computed from them as a run computes them; no launch check); every other case, and
//! everything else, as it is. Claims evaluated on it give the figures the gate leaves: the GPU's time.
[[nodiscard]] Transcript gated_reading(const Transcript& transcript);

//! The process term of a claim's figure that reads `cases`, in a run that records process allowance
//! `recorded` (timing.process_allowance): none when it is 0 (a run of one context, or before 1.9.0);
//! `recorded` and kLaunchRateProcessFloor when a case times the host's launch rate; `recorded` when a
//! case is host-bound; else the smaller of `recorded` and kGpuBoundProcessAllowance.
[[nodiscard]] ProcessTerm claim_process_term(const std::vector<const CaseResult*>& cases, double recorded);

//! The rounds every timed case of the transcript has (the fewest of any case with samples); 1 for a
//! transcript that records none (schema < 1.6.0) or has no sampled case.
[[nodiscard]] std::size_t round_count(const Transcript& transcript);
//! The interval units every timed case has (the fewest of any case with samples); 1 when none.
[[nodiscard]] std::size_t unit_count(const Transcript& transcript);
//! The interval units of the timed case with the most (1.11.0: the small cases'); 1 when none.
[[nodiscard]] std::size_t most_units(const Transcript& transcript);
//! The interval units `cases` share: the fewest of any of them with samples (a case's units are its
//! contexts from the first, so the first `shared_units` of each ran in the same contexts); nullopt
//! when none has samples.
[[nodiscard]] std::optional<std::size_t> shared_units(const std::vector<const CaseResult*>& cases);

//! The transcript as round `round` alone saw it: each case with samples keeps that round's samples
//! and clocks (summary recomputed from them, its one RoundRecord, no interval); a case with no such
//! round is left out; a case without samples (transcribed) stays as it is in round 0 and is left out
//! of later ones. Everything else is copied. Claims evaluated on it give that round's figures.
[[nodiscard]] Transcript round_view(const Transcript& transcript, std::size_t round);
//! The transcript as interval unit `unit` alone saw it: as round_view, each case keeping the samples
//! of that unit's rounds (interval_units), pooled. Claims evaluated on it give that unit's figures.
[[nodiscard]] Transcript unit_view(const Transcript& transcript, std::size_t unit);

//! central(slower) / central(faster) with its 95% interval from between-unit variation, paired by
//! unit (each unit's median ratio, so what a context shares between the two cases cancels) over the
//! units both cases have (the fewer: 1.11.0's small cases have more contexts than the others, and
//! their first contexts are the others'); the interval (with `process`'s allowance and floor) is
//! nullopt below 2 shared units. Before 1.11.0 every case had the same units, and this is the interval
//! they recorded.
[[nodiscard]] PredictionMeasurement measured_ratio(const CaseResult& slower, const CaseResult& faster,
                                                   const ProcessTerm& process = {});

//! A prediction measured at every size both of its cases ran (the slower case's sizes in run order,
//! each with the faster case at the same size label and a positive central time), its intervals with
//! the transcript's timing.process_allowance.
[[nodiscard]] std::vector<PredictionMeasurement> measure_prediction(const Transcript& transcript,
                                                                    const PredictionRecord& prediction);

//! How the run's 95% intervals are computed, in words, as the transcript records it, with its process
//! allowance (none when 0).
[[nodiscard]] std::string interval_method_text(double process_allowance = 0.0);
//! How the run's rounds were given CUDA contexts, in words, as the transcript records it.
[[nodiscard]] std::string round_context_text(int rounds, int rounds_per_context);
//! How the small cases' extra rounds were taken, in words (1.11.0); "" when they take none.
[[nodiscard]] std::string small_case_rounds_text(int rounds, int small_case_rounds, int rounds_per_context,
                                                 std::uint64_t max_elements);

}  // namespace labrun
