#include "claims/claims.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "base/format.hpp"
#include "claims/noise_rule.hpp"
#include "core/byte_model.hpp"
#include "core/rounds.hpp"

namespace labrun {
namespace {

ClaimResult start(const ClaimSpec& spec) {
  ClaimResult result;
  result.id = spec.id;
  result.statement = spec.statement;
  result.expected_to_fail = spec.expected_to_fail;
  result.verdict_basis = "point";
  return result;
}

// What every builder below sets: the claim's id, statement, kind and the cases it reads.
ClaimSpec claim_of_kind(std::string id, std::string statement, ClaimKind kind,
                        std::vector<std::string> cases) {
  ClaimSpec spec;
  spec.id = std::move(id);
  spec.statement = std::move(statement);
  spec.kind = kind;
  spec.cases = std::move(cases);
  return spec;
}

ClaimResult not_measured(ClaimResult result, const std::string& why) {
  result.verdict = Verdict::kNotMeasured;
  result.detail = why;
  return result;
}

const CaseResult* timed(const Transcript& t, const std::string& name, const std::string& size_label) {
  const CaseResult* c = t.find_case(name, size_label);
  return c != nullptr && c->central_ms() > 0.0 ? c : nullptr;
}

std::string missing(const std::string& name, const std::string& size_label) {
  return name + " was not timed" + (size_label.empty() ? "" : " at the " + size_label + " size");
}

std::string percent_text(double fraction) {
  return fixed(fraction * 100.0, 0) + "%";
}

ClaimResult ratio_near(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  result.figures = "median time of " + spec.cases.at(0) + " over " + spec.cases.at(1) + " at the " +
                   spec.size_label + " size";
  result.expected = spec.expected;
  result.tolerance = "within " + percent_text(spec.tolerance) + " of " + fixed(spec.expected, 2);
  result.bound_low = spec.expected * (1.0 - spec.tolerance);
  result.bound_high = spec.expected * (1.0 + spec.tolerance);
  const CaseResult* slower = timed(t, spec.cases[0], spec.size_label);
  const CaseResult* faster = timed(t, spec.cases[1], spec.size_label);
  if (slower == nullptr || faster == nullptr) {
    return not_measured(result, missing(slower == nullptr ? spec.cases[0] : spec.cases[1], spec.size_label));
  }
  const double ratio = slower->central_ms() / faster->central_ms();
  result.measured = ratio;
  const double off = ratio / spec.expected - 1.0;
  result.verdict = std::fabs(off) <= spec.tolerance ? Verdict::kHeld : Verdict::kFailed;
  result.detail = fixed(slower->central_ms(), 4) + " ms / " + fixed(faster->central_ms(), 4) +
                  " ms = " + fixed(ratio, 2) + ", " + (off >= 0 ? "+" : "") + fixed(off * 100.0, 1) +
                  "% from " + fixed(spec.expected, 2);
  return result;
}

ClaimResult bandwidth_band(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  result.figures =
      "GB/s of each row over the GB/s of " + spec.cases.at(0) + " at the " + spec.size_label + " size";
  result.expected = 1.0;
  result.tolerance = "every row between " + fixed(spec.low, 2) + " and " + fixed(spec.high, 2);
  // The figure is the row furthest from 1; with a band as wide on both sides, it is the first row
  // to leave the band, so the band bounds it.
  result.bound_low = spec.low;
  result.bound_high = spec.high;
  const CaseResult* reference = timed(t, spec.cases[0], spec.size_label);
  if (reference == nullptr) {
    return not_measured(result, missing(spec.cases[0], spec.size_label));
  }
  bool all_within = true;
  double worst = 1.0;
  int rows = 0;
  for (std::size_t i = 1; i < spec.cases.size(); ++i) {
    const CaseResult* row = timed(t, spec.cases[i], spec.size_label);
    if (row == nullptr) {
      continue;
    }
    const double multiple = row->gb_per_s() / reference->gb_per_s();
    all_within = all_within && multiple >= spec.low && multiple <= spec.high;
    if (std::fabs(multiple - 1.0) > std::fabs(worst - 1.0)) {
      worst = multiple;
    }
    result.detail += (rows++ == 0 ? "" : ", ") + row->label + " " + fixed(multiple, 2);
  }
  if (rows == 0) {
    return not_measured(result, "none of the rows was timed at the " + spec.size_label + " size");
  }
  result.measured = worst;
  result.verdict = all_within ? Verdict::kHeld : Verdict::kFailed;
  result.detail = "x copy floor (" + fixed(reference->gb_per_s(), 1) + " GB/s): " + result.detail;
  return result;
}

ClaimResult per_launch_converges(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  result.figures = "lowest time per launch of " + spec.cases.at(0) +
                   " over its sizes, over the per-launch time of " + spec.cases.at(1);
  result.expected = 1.0;
  result.tolerance = "within " + percent_text(spec.tolerance);
  result.bound_low = 1.0 - spec.tolerance;
  result.bound_high = 1.0 + spec.tolerance;
  // The floor the per-launch time falls to as n shrinks: the lowest over the sizes timed.
  const CaseResult* smallest = nullptr;
  const auto per_launch = [](const CaseResult* c) {
    return c->central_ms() / std::max(c->model.launches, 1);
  };
  for (const CaseResult* c : t.cases_named(spec.cases[0])) {
    if (c->central_ms() > 0.0 && (smallest == nullptr || per_launch(c) < per_launch(smallest))) {
      smallest = c;
    }
  }
  const CaseResult* empty = nullptr;
  for (const CaseResult* c : t.cases_named(spec.cases[1])) {
    if (c->central_ms() > 0.0) {
      empty = c;
      break;
    }
  }
  if (smallest == nullptr || empty == nullptr || smallest->model.launches <= 0) {
    return not_measured(result, missing(smallest == nullptr ? spec.cases[0] : spec.cases[1], ""));
  }
  const double chain_us = smallest->central_ms() * 1000.0 / smallest->model.launches;
  const double empty_us = empty->central_ms() * 1000.0 / empty->launches_per_sample;
  const double ratio = chain_us / empty_us;
  result.measured = ratio;
  result.verdict = std::fabs(ratio - 1.0) <= spec.tolerance ? Verdict::kHeld : Verdict::kFailed;
  result.detail = fixed(chain_us, 3) + " us per launch at n = " + std::to_string(smallest->elements) +
                  " against " + fixed(empty_us, 3) + " us per empty launch";
  return result;
}

ClaimResult not_faster(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  result.figures = "fastest median among the wider cases over the median of " + spec.cases.at(0) +
                   " at the " + spec.size_label + " size";
  result.expected = 1.0;
  result.tolerance = "no case faster by more than " + percent_text(spec.tolerance);
  result.bound_low = 1.0 - spec.tolerance;
  const CaseResult* baseline = timed(t, spec.cases[0], spec.size_label);
  if (baseline == nullptr) {
    return not_measured(result, missing(spec.cases[0], spec.size_label));
  }
  const CaseResult* fastest = nullptr;
  for (std::size_t i = 1; i < spec.cases.size(); ++i) {
    const CaseResult* c = timed(t, spec.cases[i], spec.size_label);
    if (c != nullptr && (fastest == nullptr || c->central_ms() < fastest->central_ms())) {
      fastest = c;
    }
  }
  if (fastest == nullptr) {
    return not_measured(result, "no other case was timed at the " + spec.size_label + " size");
  }
  const double ratio = fastest->central_ms() / baseline->central_ms();
  result.measured = ratio;
  result.verdict = ratio >= 1.0 - spec.tolerance ? Verdict::kHeld : Verdict::kFailed;
  result.detail = "fastest: " + fastest->label + " " + fixed(fastest->central_ms(), 4) + " ms against " +
                  baseline->label + " " + fixed(baseline->central_ms(), 4) + " ms";
  return result;
}

ClaimResult bitwise_equal(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  result.figures = "bitwise comparison of " + spec.cases.at(0) + " and " + spec.cases.at(1);
  result.expected = 0.0;
  result.tolerance = "no element differs";
  result.bound_low = 0.0;
  result.bound_high = 0.0;
  for (const BitwiseComparison& b : t.bitwise) {
    if (b.first == spec.cases[0] && b.second == spec.cases[1]) {
      result.measured = static_cast<double>(b.differing);
      result.verdict = b.differing == 0 ? Verdict::kHeld : Verdict::kFailed;
      const double share =
          b.elements > 0 ? static_cast<double>(b.differing) / static_cast<double>(b.elements) : 0.0;
      result.detail = std::to_string(b.differing) + " of " + std::to_string(b.elements) +
                      " elements differ (" + percent(share) + "), by at most " +
                      scientific(b.max_abs_difference);
      return result;
    }
  }
  return not_measured(
      result, "no bitwise comparison of " + spec.cases[0] + " and " + spec.cases[1] + " was recorded");
}

ClaimResult custom(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  if (!spec.evaluate) {
    return not_measured(result, "the claim declares no rule (a lab bug)");
  }
  spec.evaluate(t, result);
  result.verdict_basis = "point";
  result.id = spec.id;
  result.statement = spec.statement;
  result.expected_to_fail = spec.expected_to_fail;
  return result;
}

}  // namespace

ClaimResult evaluate_claim(const ClaimSpec& spec, const Transcript& transcript) {
  switch (spec.kind) {
    case ClaimKind::kRatioNear: return ratio_near(spec, transcript);
    case ClaimKind::kBandwidthBand: return bandwidth_band(spec, transcript);
    case ClaimKind::kPerLaunchConverges: return per_launch_converges(spec, transcript);
    case ClaimKind::kNotFaster: return not_faster(spec, transcript);
    case ClaimKind::kBitwiseEqual: return bitwise_equal(spec, transcript);
    case ClaimKind::kCustom: return custom(spec, transcript);
  }
  return not_measured(start(spec), "unknown claim kind");
}

std::vector<ClaimResult> evaluate_claims(const std::vector<ClaimSpec>& specs, const Transcript& transcript) {
  std::vector<ClaimResult> results;
  results.reserve(specs.size());
  for (const ClaimSpec& spec : specs) {
    results.push_back(evaluate_claim(spec, transcript));
  }
  // The units are the run's CUDA contexts (1.8.0), or its rounds before 1.8.0 (core/rounds.hpp).
  const bool noise_rule = schema_version_at_least(transcript.schema_version, 1, 8);
  if (noise_rule) {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      note_launch_bound_figures(results[i], specs[i], transcript);
    }
  }
  const std::size_t units = unit_count(transcript);
  if (units < 2) {
    return results;
  }
  std::vector<Transcript> views;
  views.reserve(units);
  for (std::size_t u = 0; u < units; ++u) {
    views.push_back(unit_view(transcript, u));
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    std::vector<ClaimResult> per_unit;
    per_unit.reserve(units);
    for (const Transcript& view : views) {
      per_unit.push_back(evaluate_claim(specs[i], view));
    }
    judge_with_rounds(results[i], per_unit);
    if (noise_rule && results[i].verdict_basis == "interval") {
      std::vector<double> figures;
      figures.reserve(per_unit.size());
      for (const ClaimResult& unit : per_unit) {
        figures.push_back(unit.measured.value_or(0.0));
      }
      apply_noise_rule(results[i], figures);
    }
  }
  return results;
}

Verdict verdict_from_interval(const Interval& interval, const std::optional<double>& low,
                              const std::optional<double>& high) {
  const bool below = low && interval.high < *low;
  const bool above = high && interval.low > *high;
  if (below || above) {
    return Verdict::kFailed;
  }
  const bool inside = (!low || interval.low >= *low) && (!high || interval.high <= *high);
  return inside ? Verdict::kHeld : Verdict::kInconclusive;
}

void judge_with_rounds(ClaimResult& claim, const std::vector<ClaimResult>& per_round) {
  if (per_round.size() < 2 || claim.verdict == Verdict::kNotMeasured) {
    return;
  }
  std::vector<double> figures;
  bool every_round_measured = claim.measured.has_value();
  for (const ClaimResult& round : per_round) {
    if (round.measured) {
      figures.push_back(*round.measured);
    } else {
      every_round_measured = false;
    }
  }
  if (every_round_measured) {
    claim.measured_interval = between_round_interval(*claim.measured, figures);
  }
  if (claim.has_bound() && claim.measured_interval) {
    claim.verdict = verdict_from_interval(*claim.measured_interval, claim.bound_low, claim.bound_high);
    claim.verdict_basis = "interval";
    return;
  }
  // No figure against a bound: the run's verdict stands when every round reached it.
  std::size_t agreeing = 0;
  std::vector<std::pair<Verdict, std::size_t>> counts;
  for (const ClaimResult& round : per_round) {
    agreeing += round.verdict == claim.verdict ? 1 : 0;
    const auto same = std::find_if(counts.begin(), counts.end(),
                                   [&](const auto& count) { return count.first == round.verdict; });
    if (same == counts.end()) {
      counts.emplace_back(round.verdict, 1);
    } else {
      ++same->second;
    }
  }
  std::string tally;
  for (const auto& [verdict, count] : counts) {
    tally += (tally.empty() ? "" : ", ") + std::string(verdict_name(verdict)) + " " + std::to_string(count);
  }
  claim.detail += "; rounds: " + tally;
  claim.verdict = agreeing == per_round.size() ? claim.verdict : Verdict::kInconclusive;
  claim.verdict_basis = "rounds";
}

std::vector<ClaimResult> claims_for(const Transcript& transcript, const std::vector<ClaimSpec>* specs) {
  if (transcript.claims_recorded) {
    return transcript.claims;
  }
  return specs != nullptr ? evaluate_claims(*specs, transcript) : std::vector<ClaimResult>{};
}

ClaimSpec ratio_near_claim(std::string id, std::string statement, std::string slower_case,
                           std::string faster_case, std::string size_label, double expected,
                           double tolerance) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kRatioNear,
                                 {std::move(slower_case), std::move(faster_case)});
  spec.size_label = std::move(size_label);
  spec.expected = expected;
  spec.tolerance = tolerance;
  return spec;
}

ClaimSpec bandwidth_band_claim(std::string id, std::string statement, std::string reference_case,
                               const std::vector<std::string>& rows, std::string size_label, double low,
                               double high) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kBandwidthBand,
                                 {std::move(reference_case)});
  spec.cases.insert(spec.cases.end(), rows.begin(), rows.end());
  spec.size_label = std::move(size_label);
  spec.expected = 1.0;
  spec.low = low;
  spec.high = high;
  return spec;
}

ClaimSpec per_launch_converges_claim(std::string id, std::string statement, std::string swept_case,
                                     std::string launch_case, double tolerance) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kPerLaunchConverges,
                                 {std::move(swept_case), std::move(launch_case)});
  spec.expected = 1.0;
  spec.tolerance = tolerance;
  return spec;
}

ClaimSpec not_faster_claim(std::string id, std::string statement, std::string baseline_case,
                           const std::vector<std::string>& others, std::string size_label, double tolerance) {
  ClaimSpec spec =
      claim_of_kind(std::move(id), std::move(statement), ClaimKind::kNotFaster, {std::move(baseline_case)});
  spec.cases.insert(spec.cases.end(), others.begin(), others.end());
  spec.size_label = std::move(size_label);
  spec.expected = 1.0;
  spec.tolerance = tolerance;
  return spec;
}

ClaimSpec bitwise_equal_claim(std::string id, std::string statement, std::string first_version,
                              std::string second_version, bool expected_to_fail) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kBitwiseEqual,
                                 {std::move(first_version), std::move(second_version)});
  spec.expected_to_fail = expected_to_fail;
  return spec;
}

ClaimSpec custom_claim(std::string id, std::string statement, std::vector<std::string> cases,
                       std::function<void(const Transcript&, ClaimResult&)> evaluate) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kCustom, std::move(cases));
  spec.evaluate = std::move(evaluate);
  return spec;
}

}  // namespace labrun
