#include "claims/noise_rule.hpp"

#include <cmath>

#include "base/format.hpp"
#include "core/statistics.hpp"

namespace labrun {

std::optional<double> relative_tolerance(const ClaimResult& claim) {
  if (claim.bound_low && claim.bound_high) {
    const double low = *claim.bound_low;
    const double high = *claim.bound_high;
    if (low > 0.0 && high >= low && std::isfinite(high)) {
      return (high - low) / (high + low);
    }
    return std::nullopt;
  }
  const std::optional<double> end = claim.bound_low ? claim.bound_low : claim.bound_high;
  if (end && claim.expected && *claim.expected > 0.0 && std::isfinite(*end)) {
    return std::fabs(*end / *claim.expected - 1.0);
  }
  return std::nullopt;
}

std::optional<double> relative_noise(double point, const std::vector<double>& per_unit) {
  const std::optional<UnitSpread> spread = unit_spread(point, per_unit);
  if (!spread || (!spread->logarithmic && point == 0.0)) {
    return std::nullopt;
  }
  return spread->logarithmic ? spread->deviation : spread->deviation / std::fabs(point);
}

bool apply_noise_rule(ClaimResult& claim, const std::vector<double>& per_unit) {
  if (!claim.measured) {
    return false;
  }
  const std::optional<double> tolerance = relative_tolerance(claim);
  const std::optional<double> noise = relative_noise(*claim.measured, per_unit);
  if (!tolerance || !noise || *noise <= *tolerance) {
    return false;
  }
  claim.verdict = Verdict::kInconclusive;
  claim.verdict_basis = "noise";
  claim.detail += "; its figure moves between the run's " + std::to_string(per_unit.size()) +
                  " contexts by " + percent(*noise) + " (standard deviation), more than its tolerance of " +
                  percent(*tolerance) + ": this run cannot judge it";
  return true;
}

void note_launch_bound_figures(ClaimResult& claim, const ClaimSpec& spec, const Transcript& transcript) {
  if (spec.kind == ClaimKind::kBitwiseEqual) {
    return;
  }
  const bool one_size =
      !spec.at_every_size() && (spec.kind == ClaimKind::kTimeRatio ||
                                spec.kind == ClaimKind::kBandwidthBand || spec.kind == ClaimKind::kNotFaster);
  std::string bound;
  for (const std::string& name : spec.cases) {
    for (const CaseResult* c : transcript.cases_named(name)) {
      if (c->launch_check && c->launch_check->launch_bound &&
          (!one_size || c->size_label == spec.size_label)) {
        bound += (bound.empty() ? "" : ", ") + c->name + " at n = " + std::to_string(c->elements) + " (" +
                 percent(c->launch_check->host_share) + ")";
      }
    }
  }
  if (!bound.empty()) {
    claim.detail +=
        "; hot timing: launch-bound, the host's launch latency a share of the hot figure of " + bound;
  }
}

}  // namespace labrun
