#pragma once
// A lesson's claims as data: what is predicted, from which figures of a transcript, with what
// tolerance. Evaluating them needs only a transcript, so claims are checked the same way on a
// fresh run, an old transcript or a transcribed reference. A transcript of several rounds
// (core/rounds.hpp) gives each claim's figure a 95% interval, and its verdict three values: held,
// failed or inconclusive (docs/measurement.md, "Rounds and intervals").

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace labrun {

enum class ClaimKind {
  //! central(cases[0]) / central(cases[1]) at size_label is within `tolerance` (a fraction) of
  //! `expected`.
  kRatioNear,
  //! Every row of cases[1..] moves bytes at between `low` and `high` times the GB/s of the
  //! reference cases[0], at size_label.
  kBandwidthBand,
  //! cases[0]'s lowest time per launch over the sizes it ran (central / its model's launches: the
  //! floor it falls to as n shrinks) is within `tolerance` of cases[1]'s time per launch
  //! (central / launches per sample).
  kPerLaunchConverges,
  //! No case of cases[1..] is faster than cases[0] by more than `tolerance`, at size_label.
  kNotFaster,
  //! The bitwise comparison of versions cases[0] and cases[1] found no differing element.
  kBitwiseEqual,
  //! The lab's own rule (ClaimSpec::evaluate), for a claim no kind above expresses: a crossover
  //! size found in a sweep, a ratio across several sizes. The rule fills the result's figures,
  //! verdict, measured, expected, tolerance and detail; id and statement come from the spec.
  kCustom,
};

struct ClaimSpec {
  std::string id;         //!< stable, lower-case words joined by '-'
  std::string statement;  //!< the prediction, in words
  ClaimKind kind = ClaimKind::kRatioNear;
  std::vector<std::string> cases;  //!< case names (versions, for kBitwiseEqual), as the kind says
  std::string size_label;          //!< "lesson", "card-scaled", ...; unused by some kinds
  double expected = 0.0;
  double tolerance = 0.0;  //!< a fraction: 0.1 is 10%
  double low = 0.0;        //!< kBandwidthBand only
  double high = 0.0;
  bool expected_to_fail = false;                                  //!< the lesson hedges on this one
  std::function<void(const Transcript&, ClaimResult&)> evaluate;  //!< kCustom only
  //! kRatioNear: `expected` is the byte ratio of the two cases' models (byte_ratio_claim,
  //! registry/lab.hpp), checked again when the lab registers; false where the lesson's own figure is
  //! meant and typed in.
  bool expected_from_byte_models = false;
};

// The one way a lab declares a claim: a builder per kind, whose parameters are the fields that kind
// reads (ClaimKind says how). Case names are full names, "<lab>/<part>/<case>"; tolerances are
// fractions (0.1 is 10%).

//! kRatioNear: central(slower_case) / central(faster_case) at size_label within tolerance of expected.
//! `expected` is typed in: use it where the lesson's own figure is meant; a ratio the byte models
//! predict is byte_ratio_claim's (registry/lab.hpp), derived from the models it names.
[[nodiscard]] ClaimSpec ratio_near_claim(std::string id, std::string statement, std::string slower_case,
                                         std::string faster_case, std::string size_label, double expected,
                                         double tolerance);
//! kBandwidthBand: every row's GB/s between low and high times reference_case's, at size_label.
[[nodiscard]] ClaimSpec bandwidth_band_claim(std::string id, std::string statement,
                                             std::string reference_case, const std::vector<std::string>& rows,
                                             std::string size_label, double low, double high);
//! kPerLaunchConverges: swept_case's lowest time per launch within tolerance of launch_case's.
[[nodiscard]] ClaimSpec per_launch_converges_claim(std::string id, std::string statement,
                                                   std::string swept_case, std::string launch_case,
                                                   double tolerance);
//! kNotFaster: no case of others faster than baseline_case by more than tolerance, at size_label.
[[nodiscard]] ClaimSpec not_faster_claim(std::string id, std::string statement, std::string baseline_case,
                                         const std::vector<std::string>& others, std::string size_label,
                                         double tolerance);
//! kBitwiseEqual: the correctness outputs of two versions (version names, not cases) agree bit for
//! bit; expected_to_fail where the lesson itself hedges.
[[nodiscard]] ClaimSpec bitwise_equal_claim(std::string id, std::string statement, std::string first_version,
                                            std::string second_version, bool expected_to_fail);
//! kCustom: a rule no kind expresses, evaluated by `evaluate`; `cases` are the cases it reads.
[[nodiscard]] ClaimSpec custom_claim(std::string id, std::string statement, std::vector<std::string> cases,
                                     std::function<void(const Transcript&, ClaimResult&)> evaluate);

//! Evaluates one claim on the transcript's figures as they stand (each case's median over all its
//! samples): held or failed, with its figure and bound; a figure the transcript lacks gives "not
//! measured" with the reason. Its verdict_basis is "point".
[[nodiscard]] ClaimResult evaluate_claim(const ClaimSpec& spec, const Transcript& transcript);
//! Evaluates every claim (evaluate_claim); on a transcript of 2 or more interval units (unit_count:
//! its CUDA contexts from 1.8.0, its rounds before), each claim is also evaluated on every unit alone
//! (unit_view) and judged with judge_with_rounds; from 1.8.0 a claim judged by its interval then
//! meets claims/noise_rule.hpp's rule.
[[nodiscard]] std::vector<ClaimResult> evaluate_claims(const std::vector<ClaimSpec>& specs,
                                                       const Transcript& transcript);

//! The three-valued verdict of a figure's interval against the bound [low, high] (an open end:
//! nullopt): held when the whole interval lies inside, failed when the whole of it lies outside,
//! inconclusive when it straddles an end.
[[nodiscard]] Verdict verdict_from_interval(const Interval& interval, const std::optional<double>& low,
                                            const std::optional<double>& high);

//! Turns a claim evaluated on the whole run (`claim`, from evaluate_claim) into its verdict over the
//! rounds, given the same claim evaluated on each round alone (`per_round`, 2 or more):
//! - its figure's 95% interval (between_round_interval of the run's figure over the rounds'), when the
//!   run and every round measured it;
//! - with an interval and a bound, verdict_from_interval (basis "interval");
//! - otherwise (a rule of several conditions, a round that did not measure the figure): the run's
//!   verdict when every round reached it too, else inconclusive (basis "rounds"), with the rounds'
//!   verdicts counted in the detail.
//! A claim not measured on the run stays not measured. Fewer than 2 rounds change nothing.
void judge_with_rounds(ClaimResult& claim, const std::vector<ClaimResult>& per_round);

//! A transcript's claims: those it records, or, for one that records none (schema 1.0.0, a
//! transcribed reference), `specs` evaluated on its figures (none when `specs` is null).
[[nodiscard]] std::vector<ClaimResult> claims_for(const Transcript& transcript,
                                                  const std::vector<ClaimSpec>* specs);

}  // namespace labrun
