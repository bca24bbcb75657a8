#pragma once
// A lesson's claims as data: what is predicted, from which figures of a transcript, within what
// bound. Evaluating them needs only a transcript, so claims are checked the same way on a fresh run,
// an old transcript or a transcribed reference. A transcript of several rounds (core/rounds.hpp)
// gives each claim's figure a 95% interval, and its verdict three values: held, failed or
// inconclusive (docs/measurement.md, "Rounds and intervals").

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/rounds.hpp"
#include "core/statistics.hpp"
#include "core/transcript.hpp"

namespace labrun {

//! Where a claim's figure must lie, said as the lesson says it. Build one with at_most, at_least,
//! within or between; `words` is how the report and `labrun plan` print it.
struct ClaimBound {
  std::optional<double> low;       //!< the figure is at least this
  std::optional<double> high;      //!< the figure is at most this
  std::optional<double> expected;  //!< the figure the lesson predicts, shown beside the bound
  //! within: the largest |figure / expected - 1|, which decides instead of low and high (the same
  //! bound, without the rounding of expected x (1 +- fraction)).
  std::optional<double> fraction;
  std::string words;  //!< "at most 1.05", "within 15% of 2.60"
  //! How a transcript before schema 1.8.0 worded this same bound, where the words differed (issue 33
  //! restated bounds in the lesson's terms without moving them); empty: as `words`.
  std::string words_before_1_8_0;

  //! Whether `figure` satisfies the bound.
  [[nodiscard]] bool holds(double figure) const;
};

//! The figure is at most `high`: "naive over tiled at most 1.05".
[[nodiscard]] ClaimBound at_most(double high);
//! The figure is at least `low`.
[[nodiscard]] ClaimBound at_least(double low);
//! The figure is within `fraction` (0.15 is 15%) of `expected`, either way.
[[nodiscard]] ClaimBound within(double expected, double fraction);
//! The figure is between `low` and `high`, both included.
[[nodiscard]] ClaimBound between(double low, double high);

//! A claim's size_label that asks for every size its cases share (a claim at every size): the
//! claim is judged at each n every one of its cases ran at, and holds when it holds at each.
inline constexpr const char* kEverySize = "*";

enum class ClaimKind {
  //! central(cases[0]) / central(cases[1]) at size_label (or at every size: kEverySize) lies in
  //! `bound`.
  kTimeRatio,
  //! Every row of cases[1..] moves bytes at between bound.low and bound.high times the GB/s of the
  //! reference cases[0], at size_label (or at every size).
  kBandwidthBand,
  //! cases[0]'s lowest time per launch over the sizes it ran (central / its model's launches: the
  //! floor it falls to as n shrinks) over cases[1]'s time per launch (central / launches per
  //! sample) lies in `bound` (within a fraction of 1). In a run that queues a sample's launches ahead
  //! of the GPU, ClaimSpec::queued_launch_case takes cases[1]'s place where it was timed.
  kPerLaunchConverges,
  //! No case of cases[1..] is faster than cases[0]: the fastest one's central over cases[0]'s, at
  //! size_label (or at every size), is at least bound.low.
  kNotFaster,
  //! The bitwise comparison of versions cases[0] and cases[1] found no differing element.
  kBitwiseEqual,
  //! The lab's own rule (ClaimSpec::evaluate), for a claim no kind above expresses: a crossover
  //! size found in a sweep, a ratio across several pairs. The rule fills the result's figures,
  //! verdict, measured, expected, tolerance and detail; id and statement come from the spec.
  kCustom,
};

struct ClaimSpec {
  std::string id;         //!< stable, lower-case words joined by '-'
  std::string statement;  //!< the prediction, in words
  ClaimKind kind = ClaimKind::kTimeRatio;
  std::vector<std::string> cases;  //!< case names (versions, for kBitwiseEqual), as the kind says
  //! "lesson", "card-scaled", ..., or kEverySize; unused by kPerLaunchConverges, kBitwiseEqual and
  //! kCustom.
  std::string size_label;
  ClaimBound bound;                                               //!< unused by kBitwiseEqual and kCustom
  bool expected_to_fail = false;                                  //!< the lesson hedges on this one
  std::function<void(const Transcript&, ClaimResult&)> evaluate;  //!< kCustom only
  //! kCustom, optional: the 95% interval of the figure `evaluate` measured on the whole run, from the
  //! intervals of what it reads, for a figure no context can measure alone (a position in a sweep: one
  //! context's position jumps a whole size where the run's moves by a fraction of one). Used on a run
  //! that picks on the run (claims_pick_on_the_run); nullopt: no interval.
  std::function<std::optional<Interval>(const Transcript&, const ClaimResult&)> interval;
  //! kTimeRatio: bound.expected is the byte ratio of the two cases' models (byte_ratio_claim,
  //! registry/lab.hpp), checked again when the lab registers; false where the lesson's own figure
  //! is meant and typed in.
  bool expected_from_byte_models = false;
  //! kPerLaunchConverges, optional: the empty-launch case that takes cases[1]'s place in a run whose
  //! timing queues a sample's launches ahead of the GPU (cold and hot-gated: launches_are_queued),
  //! where cases[0]'s time per launch is the GPU's pace, not the host's. It is timed the way cases[0]
  //! is: as many launches between one pair of events. Empty: cases[1] in every mode.
  std::string queued_launch_case;

  [[nodiscard]] bool at_every_size() const { return size_label == kEverySize; }
};

// The one way a lab declares a claim: a builder per kind, whose parameters are the fields that kind
// reads (ClaimKind says how). Case names are full names, "<lab>/<part>/<case>"; size_label is a
// declared size's label or kEverySize.

//! kTimeRatio: central(numerator_case) / central(denominator_case) at size_label lies in `bound`:
//! `time_ratio_claim(id, "...", naive, tiled, kEverySize, at_most(1.05))`. A ratio the byte models
//! predict is byte_ratio_claim's (registry/lab.hpp), derived from the models it names.
[[nodiscard]] ClaimSpec time_ratio_claim(std::string id, std::string statement, std::string numerator_case,
                                         std::string denominator_case, std::string size_label,
                                         ClaimBound bound);
//! kBandwidthBand: every row's GB/s between low and high times reference_case's, at size_label.
[[nodiscard]] ClaimSpec bandwidth_band_claim(std::string id, std::string statement,
                                             std::string reference_case, const std::vector<std::string>& rows,
                                             std::string size_label, double low, double high);
//! kPerLaunchConverges: swept_case's lowest time per launch within `fraction` of launch_case's; with
//! `queued_launch_case`, of that case's in a run that queues a sample's launches ahead of the GPU
//! (ClaimSpec::queued_launch_case).
[[nodiscard]] ClaimSpec per_launch_converges_claim(std::string id, std::string statement,
                                                   std::string swept_case, std::string launch_case,
                                                   double fraction, std::string queued_launch_case = {});
//! Whether `transcript`'s timing queues each sample's launches ahead of the GPU before its first
//! event: behind the L2 flush (cold) or the gate (hot-gated), so that the GPU, not the host's launch
//! rate, paces a sample of a few launches. Hot timing does not: its samples follow the host.
[[nodiscard]] bool launches_are_queued(const Transcript& transcript);
//! `spec` as a run recorded in `transcript` judges it: a per-launch claim with a queued_launch_case
//! reads that case in place of cases[1] where launches_are_queued and the case was timed; any other
//! claim, and a run without that case (every run before it was declared), as declared.
[[nodiscard]] ClaimSpec as_judged_in(const ClaimSpec& spec, const Transcript& transcript);
//! kNotFaster: the fastest case of `others` takes at least `at_least_times` the baseline's time at
//! size_label: 0.98 lets one be up to 2% faster, 1.0 none.
[[nodiscard]] ClaimSpec not_faster_claim(std::string id, std::string statement, std::string baseline_case,
                                         const std::vector<std::string>& others, std::string size_label,
                                         double at_least_times);
//! kBitwiseEqual: the correctness outputs of two versions (version names, not cases) agree bit for
//! bit; expected_to_fail where the lesson itself hedges.
[[nodiscard]] ClaimSpec bitwise_equal_claim(std::string id, std::string statement, std::string first_version,
                                            std::string second_version, bool expected_to_fail);
//! kCustom: a rule no kind expresses, evaluated by `evaluate`; `cases` are the cases it reads.
[[nodiscard]] ClaimSpec custom_claim(std::string id, std::string statement, std::vector<std::string> cases,
                                     std::function<void(const Transcript&, ClaimResult&)> evaluate);

//! kCustom with its own interval (ClaimSpec::interval): a figure that is a position in a sweep.
[[nodiscard]] ClaimSpec custom_claim(
    std::string id, std::string statement, std::vector<std::string> cases,
    std::function<void(const Transcript&, ClaimResult&)> evaluate,
    std::function<std::optional<Interval>(const Transcript&, const ClaimResult&)> interval);

//! central(numerator) / central(denominator) of two cases of `transcript`, with the 95% interval a
//! claim reading those two cases gets: paired over the contexts both ran in, with the process term of
//! the kind of figure (claim_process_term, or the recorded allowance for a run judged before it);
//! nullopt below 2 shared contexts.
[[nodiscard]] std::optional<Interval> claim_ratio_interval(const Transcript& transcript,
                                                           const CaseResult& numerator,
                                                           const CaseResult& denominator);

//! Where an interval lies against a band [low, high]: wholly inside it, wholly outside it, or across
//! an end.
enum class BandFit { kInside, kAcross, kOutside };
[[nodiscard]] BandFit band_fit(const Interval& interval, double low, double high);

//! Where a sweep may settle into a band, given where each point's interval lies (in sweep order): the
//! settling point is the first of the longest run of points inside the band that ends at the last.
//! `earliest` is where it settles if every point across an end is inside: the first of the longest
//! run ending at the last with no point wholly outside. `latest` is where it settles if every such
//! point is outside: the first of the longest run ending at the last of points wholly inside. Either is
//! nullopt when the last point itself is outside (earliest) or not wholly inside (latest).
struct SettlingRange {
  std::optional<std::size_t> earliest;
  std::optional<std::size_t> latest;
};
[[nodiscard]] SettlingRange settling_range(const std::vector<BandFit>& points);

//! What a claim reads and where its figure must lie, in words, before anything is measured
//! (`labrun plan`): the same words its evaluation records.
struct ClaimDescription {
  std::string kind;     //!< "time ratio", "not faster", ..., "the lab's own rule"
  std::string figures;  //!< ClaimResult::figures: what the claim reads
  std::string bound;    //!< ClaimResult::tolerance: where the figure must lie
};
[[nodiscard]] ClaimDescription describe_claim(const ClaimSpec& spec);

//! How a transcript before schema 1.8.0 worded this claim's bound (ClaimBound::words_before_1_8_0:
//! "within 20%", now "within 20% of 1.00"; "no case faster by more than 2%", now "at least 0.98"), or
//! today's words where they did not change.
[[nodiscard]] std::string bound_words_before_1_8_0(const ClaimSpec& spec);

//! Evaluates one claim on the transcript's figures as they stand (each case's median over all its
//! samples): held or failed, with its figure and bound; a figure the transcript lacks gives "not
//! measured" with the reason. Its verdict_basis is "point". A claim at every size is judged at each
//! size and reported at the one that decides it (the first that fails, else the closest to its bound).
[[nodiscard]] ClaimResult evaluate_claim(const ClaimSpec& spec, const Transcript& transcript);
//! Evaluates every claim (evaluate_claim); on a transcript of 2 or more interval units (unit_count:
//! its CUDA contexts from 1.8.0, its rounds before), each claim is also evaluated on every unit alone
//! (unit_view) and judged with judge_with_rounds (a claim at every size: at each size, then the
//! sizes' verdicts combined); from 1.8.0 a claim judged by its interval then meets
//! claims/noise_rule.hpp's rule. In a hot run that says so (claims_read_gpu_alone, core/rounds.hpp), a
//! time-ratio, bandwidth-band or not-faster claim is judged again on its cases' gated samples
//! (gated_reading) wherever a case it reads has them: its interval becomes the span of both readings'
//! intervals and its verdict that span's, so the host's launch latency in the hot samples never
//! decides it, and a hot figure too noisy for its tolerance rests on a gated one that is not
//! (docs/measurement.md, "Hot timing at the lesson's size").
[[nodiscard]] std::vector<ClaimResult> evaluate_claims(const std::vector<ClaimSpec>& specs,
                                                       const Transcript& transcript);

//! The three-valued verdict of a figure's interval against the bound [low, high] (an open end:
//! nullopt): held when the whole interval lies inside, failed when the whole of it lies outside,
//! inconclusive when it straddles an end.
[[nodiscard]] Verdict verdict_from_interval(const Interval& interval, const std::optional<double>& low,
                                            const std::optional<double>& high);

//! Turns a claim evaluated on the whole run (`claim`, from evaluate_claim) into its verdict over the
//! rounds, given the same claim evaluated on each round alone (`per_round`, 2 or more):
//! - its figure's 95% interval (between_round_interval of the run's figure over the rounds', with
//!   `process`: claim_process_term of the cases it reads and the transcript's
//!   timing.process_allowance), when the run and every round measured it;
//! - with an interval and a bound, verdict_from_interval (basis "interval");
//! - otherwise (a rule of several conditions, a round that did not measure the figure): the run's
//!   verdict when every round reached it too, else inconclusive (basis "rounds"), with the rounds'
//!   verdicts counted in the detail.
//! A claim not measured on the run stays not measured. Fewer than 2 rounds change nothing.
void judge_with_rounds(ClaimResult& claim, const std::vector<ClaimResult>& per_round,
                       const ProcessTerm& process = {});

//! Whether a claim of `claims` that sets a figure against a bound from the cases it reads (a time ratio,
//! a bandwidth band, not-faster: the kinds a hot run also judges on GPU time alone) reads `case_name` at
//! the size labelled `size_label` (its size, or every size). The runner gives such a case hot timing's
//! launch check up to kClaimLaunchCheckMaxElements (core/sampling.hpp).
[[nodiscard]] bool reads_against_a_bound(const std::vector<ClaimSpec>& claims, const std::string& case_name,
                                         const std::string& size_label);

//! A transcript's claims: those it records, or, for one that records none (schema 1.0.0, a
//! transcribed reference), `specs` evaluated on its figures (none when `specs` is null).
[[nodiscard]] std::vector<ClaimResult> claims_for(const Transcript& transcript,
                                                  const std::vector<ClaimSpec>* specs);

}  // namespace labrun
