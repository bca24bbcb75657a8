#include "rules.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "analysis.hpp"
#include "base/format.hpp"
#include "lab.hpp"

namespace verdicts {
namespace {

using labrun::ClaimResult;
using labrun::fixed;
using labrun::Transcript;
using labrun::Verdict;

void not_measured(ClaimResult& result, const std::string& why) {
  result.verdict = Verdict::kNotMeasured;
  result.measured.reset();
  result.detail = why;
}

std::string percent_text(double fraction) {
  return fixed(fraction * 100.0, 0) + "%";
}

// Appended piece by piece: GCC 12 reports a false -Wrestrict for "literal" + std::string&&
// (GCC bug 105329).
std::string signed_percent(double fraction) {
  std::string text = fraction >= 0.0 ? "+" : "";
  text += fixed(fraction * 100.0, 1);
  text += "%";
  return text;
}

std::string n_text(std::uint64_t elements) {
  return "n = " + std::to_string(elements);
}

// n elements of kElementBytes as a multiple of an L2 of `l2_bytes`.
double l2_multiple(std::uint64_t elements, double l2_bytes) {
  return static_cast<double>(elements) * kElementBytes / l2_bytes;
}

// How far a multiple is from 1, as a ratio: 0.8 and 1.25 are equally far.
double distance_from_one(double multiple) {
  return multiple > 0.0 ? std::fabs(std::log(multiple)) : std::numeric_limits<double>::infinity();
}

}  // namespace

void judge_crossover(const CrossoverRule& rule, const Transcript& t, ClaimResult& result) {
  result.figures = "median of " + rule.unfused + " over " + rule.fused +
                   " at every n both ran, against the byte ratio of their models; the device's l2_bytes";
  result.expected = 1.0;
  result.tolerance = "the speedup stays within " + percent_text(rule.tolerance) +
                     " of the byte ratio from a size n x 4 B between " + fixed(rule.low_l2_multiple, 2) +
                     " and " + fixed(rule.high_l2_multiple, 2) + " x L2 on";
  result.bound_low = rule.low_l2_multiple;
  result.bound_high = rule.high_l2_multiple;
  const std::optional<double> l2 = l2_bytes(t);
  if (!l2) {
    not_measured(result, "the transcript records no L2 size for the device");
    return;
  }
  const std::vector<PairPoint> points = pair_sweep(t, rule.unfused, rule.fused);
  if (points.size() < 2) {
    not_measured(result, "fewer than two sizes of the pair were timed");
    return;
  }
  const PairPoint& largest = points.back();
  if (l2_multiple(largest.elements, *l2) < rule.required_l2_multiple) {
    not_measured(result, "the sweep stops at " + n_text(largest.elements) + " (" +
                             fixed(l2_multiple(largest.elements, *l2), 2) + " x L2): it must reach " +
                             fixed(rule.required_l2_multiple, 0) + " x L2 to find where the intermediate " +
                             "stops fitting");
    return;
  }
  const std::optional<std::size_t> first = settling_index(points, rule.tolerance);
  if (!first) {
    result.verdict = Verdict::kFailed;
    result.measured.reset();
    result.detail = "at the largest size, " + n_text(largest.elements) + ", the speedup is " +
                    fixed(largest.speedup, 2) + " against the byte ratio " + fixed(largest.byte_ratio, 2) +
                    " (" + signed_percent(largest.speedup / largest.byte_ratio - 1.0) + "): it never settles";
    return;
  }
  const PairPoint& settled = points[*first];
  const double multiple = l2_multiple(settled.elements, *l2);
  result.measured = multiple;
  result.verdict = multiple >= rule.low_l2_multiple && multiple <= rule.high_l2_multiple ? Verdict::kHeld
                                                                                         : Verdict::kFailed;
  result.detail =
      "settles from " + n_text(settled.elements) + " (" +
      labrun::binary_size(static_cast<std::uint64_t>(static_cast<double>(settled.elements) * kElementBytes)) +
      " = " + fixed(multiple, 2) + " x the " + labrun::binary_size(static_cast<std::uint64_t>(*l2)) +
      " L2) on, speedup " + fixed(settled.speedup, 2) + " against " + fixed(settled.byte_ratio, 2);
  if (*first > 0) {
    const PairPoint& below = points[*first - 1];
    result.detail += "; at " + n_text(below.elements) + " (" + fixed(l2_multiple(below.elements, *l2), 2) +
                     " x L2) it was " + fixed(below.speedup, 2);
  } else {
    result.detail += "; it was at the byte ratio at every size swept";
  }
}

std::optional<labrun::Interval> crossover_interval(const CrossoverRule& rule, const Transcript& t,
                                                   const ClaimResult& result) {
  const std::optional<double> l2 = l2_bytes(t);
  const std::vector<PairPoint> points = pair_sweep(t, rule.unfused, rule.fused);
  if (!result.measured || !l2 || points.empty()) {
    return std::nullopt;
  }
  const auto timed_at = [&](const std::string& name, std::uint64_t elements) -> const labrun::CaseResult* {
    for (const labrun::CaseResult* c : t.cases_named(name)) {
      if (c->elements == elements && c->central_ms() > 0.0) {
        return c;
      }
    }
    return nullptr;
  };
  std::vector<labrun::BandFit> fits;
  fits.reserve(points.size());
  for (const PairPoint& p : points) {
    const labrun::CaseResult* unfused = timed_at(rule.unfused, p.elements);
    const labrun::CaseResult* fused = timed_at(rule.fused, p.elements);
    if (unfused == nullptr || fused == nullptr) {
      return std::nullopt;
    }
    const std::optional<labrun::Interval> speedup = labrun::claim_ratio_interval(t, *unfused, *fused);
    if (!speedup) {
      return std::nullopt;
    }
    fits.push_back(labrun::band_fit(*speedup, p.byte_ratio * (1.0 - rule.tolerance),
                                    p.byte_ratio * (1.0 + rule.tolerance)));
  }
  const labrun::SettlingRange range = labrun::settling_range(fits);
  if (!range.earliest) {
    return std::nullopt;
  }
  const double low = l2_multiple(points[*range.earliest].elements, *l2);
  const double high = range.latest ? l2_multiple(points[*range.latest].elements, *l2)
                                   : 2.0 * l2_multiple(points.back().elements, *l2);
  return labrun::Interval{std::min(low, *result.measured), std::max(high, *result.measured)};
}

void judge_eliminated_traffic(const EliminatedTrafficRule& rule, const Transcript& t, ClaimResult& result) {
  result.figures =
      "(model bytes unfused - fused) / (median unfused - fused) of each pair, over the GB/s of " +
      rule.copy_floor + ", at the " + rule.size_label + " size";
  result.expected = 1.0;
  result.tolerance =
      "every pair between " + fixed(rule.low, 2) + " and " + fixed(rule.high, 2) + " x the copy floor";
  // The figure is the pair furthest from 1 as a ratio; the band is as wide either way as a ratio
  // (0.8 and 1.25), so that pair is the first to leave it, and the band bounds the figure.
  result.bound_low = rule.low;
  result.bound_high = rule.high;
  const std::optional<double> copy = case_gb_per_s(t, rule.copy_floor, rule.size_label);
  if (!copy || !(*copy > 0.0)) {
    not_measured(result, "the copy floor was not timed at the " + rule.size_label + " size");
    return;
  }
  bool all_within = true;
  std::optional<double> worst;
  std::string rows;
  for (const auto& [unfused, fused] : rule.pairs) {
    const std::optional<PairPoint> p = pair_at(t, unfused, fused, rule.size_label);
    if (!p) {
      continue;
    }
    const std::string row = unfused.substr(unfused.find('/') + 1);
    rows += rows.empty() ? "" : "; ";
    if (!p->eliminated_gb_per_s) {
      // The fusion saved no time (or removed no bytes): its traffic was not the cost.
      all_within = false;
      worst = 0.0;
      rows += row + ": no time saved (" + fixed(p->unfused_ms, 4) + " ms against " + fixed(p->fused_ms, 4) +
              " ms)";
      continue;
    }
    const double multiple = *p->eliminated_gb_per_s / *copy;
    all_within = all_within && multiple >= rule.low && multiple <= rule.high;
    if (!worst || distance_from_one(multiple) > distance_from_one(*worst)) {
      worst = multiple;
    }
    rows += row + " " + fixed(*p->eliminated_gb_per_s, 1) + " GB/s = " + fixed(multiple, 2) + " x";
  }
  if (rows.empty()) {
    not_measured(result, "none of the pairs was timed at the " + rule.size_label + " size");
    return;
  }
  result.measured = worst;
  result.verdict = all_within ? Verdict::kHeld : Verdict::kFailed;
  result.detail = "copy floor " + fixed(*copy, 1) + " GB/s; " + rows;
}

void judge_cheap_reuse(const CheapReuseRule& rule, const Transcript& t, ClaimResult& result) {
  result.figures = "median of the cheap value's materialising case over its recomputing case at every R";
  result.expected = 1.0;
  result.tolerance = "no ratio below " + fixed(1.0 - rule.tolerance, 2) +
                     " (recompute never slower by more than " + percent_text(rule.tolerance) + ")";
  result.bound_low = 1.0 - rule.tolerance;
  const std::vector<ReusePoint> points = reuse_sweep(t, false);
  if (points.empty()) {
    not_measured(result, "no R of the cheap value was timed in both versions");
    return;
  }
  const ReusePoint* lowest = &points.front();
  for (const ReusePoint& p : points) {
    if (p.ratio < lowest->ratio) {
      lowest = &p;
    }
  }
  result.measured = lowest->ratio;
  result.verdict = lowest->ratio >= 1.0 - rule.tolerance ? Verdict::kHeld : Verdict::kFailed;
  result.detail = "materialise / recompute " + fixed(points.front().ratio, 2) +
                  " at R = " + std::to_string(points.front().reuse) + ", " + fixed(points.back().ratio, 2) +
                  " at R = " + std::to_string(points.back().reuse) + "; lowest " + fixed(lowest->ratio, 2) +
                  " at R = " + std::to_string(lowest->reuse);
}

void judge_expensive_reuse(const Transcript& t, ClaimResult& result) {
  result.figures = "median of the expensive value's materialising case over its recomputing case at every R";
  result.expected.reset();
  result.tolerance = "recompute wins at the smallest R, materialise from some larger R on";
  const std::vector<ReusePoint> points = reuse_sweep(t, true);
  if (points.size() < 2) {
    not_measured(result, "fewer than two R of the expensive value were timed in both versions");
    return;
  }
  const std::optional<std::size_t> from = materialise_wins_from(points);
  const std::string summary = reuse_summary(points);
  if (!from) {
    result.verdict = Verdict::kFailed;
    result.measured.reset();
    result.detail = summary + ": at R = " + std::to_string(points.back().reuse) +
                    " materialise / recompute is " + fixed(points.back().ratio, 2);
    return;
  }
  result.measured = static_cast<double>(points[*from].reuse);
  result.verdict = *from > 0 ? Verdict::kHeld : Verdict::kFailed;
  result.detail = summary + "; materialise / recompute " + fixed(points.front().ratio, 2) +
                  " at R = " + std::to_string(points.front().reuse) + ", " + fixed(points[*from].ratio, 2) +
                  " at R = " + std::to_string(points[*from].reuse) + ", " + fixed(points.back().ratio, 2) +
                  " at R = " + std::to_string(points.back().reuse);
}

}  // namespace verdicts
