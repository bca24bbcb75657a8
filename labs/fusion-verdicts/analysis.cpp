#include "analysis.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

#include "case_names.hpp"
#include "constants.hpp"
#include "core/byte_model.hpp"
#include "lab.hpp"

namespace verdicts {
namespace {

using labrun::CaseResult;
using labrun::Transcript;

bool timed(const CaseResult* c) {
  return c != nullptr && c->central_ms() > 0.0;
}

PairPoint make_point(const CaseResult& unfused, const CaseResult& fused) {
  PairPoint p;
  p.elements = unfused.elements;
  p.size_label = unfused.size_label;
  p.unfused_ms = unfused.central_ms();
  p.fused_ms = fused.central_ms();
  p.speedup = p.unfused_ms / p.fused_ms;
  p.byte_ratio = labrun::predicted_ratios(unfused.model, fused.model).bytes;
  p.eliminated_bytes =
      labrun::model_bytes(unfused.model, unfused.elements) - labrun::model_bytes(fused.model, fused.elements);
  const double saved_ms = p.unfused_ms - p.fused_ms;
  if (p.eliminated_bytes > 0.0 && saved_ms > 0.0) {
    p.eliminated_gb_per_s = p.eliminated_bytes / (saved_ms * 1e-3) / 1e9;
  }
  return p;
}

}  // namespace

std::optional<PairPoint> pair_at(const Transcript& t, const std::string& unfused, const std::string& fused,
                                 const std::string& size_label) {
  const CaseResult* u = t.find_case(unfused, size_label);
  const CaseResult* f = t.find_case(fused, size_label);
  if (!timed(u) || !timed(f) || u->elements != f->elements) {
    return std::nullopt;
  }
  return make_point(*u, *f);
}

std::vector<PairPoint> pair_sweep(const Transcript& t, const std::string& unfused, const std::string& fused) {
  std::vector<PairPoint> points;
  const std::vector<const CaseResult*> fused_cases = t.cases_named(fused);
  for (const CaseResult* u : t.cases_named(unfused)) {
    if (!timed(u)) {
      continue;
    }
    const auto same_n = std::find_if(fused_cases.begin(), fused_cases.end(), [&](const CaseResult* f) {
      return f->elements == u->elements && timed(f);
    });
    const bool seen = std::any_of(points.begin(), points.end(),
                                  [&](const PairPoint& p) { return p.elements == u->elements; });
    if (same_n != fused_cases.end() && !seen) {
      points.push_back(make_point(*u, **same_n));
    }
  }
  std::sort(points.begin(), points.end(),
            [](const PairPoint& a, const PairPoint& b) { return a.elements < b.elements; });
  return points;
}

bool at_byte_ratio(const PairPoint& point, double tolerance) {
  return point.byte_ratio > 0.0 && std::fabs(point.speedup / point.byte_ratio - 1.0) <= tolerance;
}

std::optional<std::size_t> settling_index(const std::vector<PairPoint>& points, double tolerance) {
  std::optional<std::size_t> first;
  for (std::size_t i = points.size(); i > 0; --i) {
    if (!at_byte_ratio(points[i - 1], tolerance)) {
      break;
    }
    first = i - 1;
  }
  return first;
}

std::optional<double> l2_bytes(const Transcript& t) {
  const std::optional<double> bytes = t.numeric_fact("device", "l2_bytes");
  if (!bytes || !(*bytes > 0.0)) {
    return std::nullopt;
  }
  return bytes;
}

std::optional<double> case_gb_per_s(const Transcript& t, const std::string& name,
                                    const std::string& size_label) {
  const CaseResult* c = t.find_case(name, size_label);
  if (!timed(c)) {
    return std::nullopt;
  }
  return c->gb_per_s();
}

std::vector<ReusePoint> reuse_sweep(const Transcript& t, bool expensive) {
  std::vector<ReusePoint> points;
  for (const unsigned reuse : kReuseFactors) {
    const CaseResult* recompute = t.find_case(cases::reuse(expensive, true, reuse));
    const CaseResult* materialise = t.find_case(cases::reuse(expensive, false, reuse));
    if (!timed(recompute) || !timed(materialise)) {
      continue;
    }
    ReusePoint p;
    p.reuse = reuse;
    p.recompute_ms = recompute->central_ms();
    p.materialise_ms = materialise->central_ms();
    p.ratio = p.materialise_ms / p.recompute_ms;
    points.push_back(p);
  }
  return points;
}

std::optional<std::size_t> materialise_wins_from(const std::vector<ReusePoint>& points) {
  std::optional<std::size_t> first;
  for (std::size_t i = points.size(); i > 0; --i) {
    if (!(points[i - 1].ratio < 1.0)) {
      break;
    }
    first = i - 1;
  }
  return first;
}

std::string reuse_summary(const std::vector<ReusePoint>& points) {
  if (points.empty()) {
    return "not run";
  }
  const std::string range =
      "(R = " + std::to_string(points.front().reuse) + " to " + std::to_string(points.back().reuse) + ")";
  const bool recompute_always =
      std::none_of(points.begin(), points.end(), [](const ReusePoint& p) { return p.ratio < 1.0; });
  if (recompute_always) {
    return "recompute wins at every R " + range;
  }
  const std::optional<std::size_t> from = materialise_wins_from(points);
  if (!from) {
    return "recompute wins at the largest R " + range;
  }
  if (*from == 0) {
    return "materialise wins at every R " + range;
  }
  return "recompute up to R = " + std::to_string(points[*from - 1].reuse) +
         ", materialise from R = " + std::to_string(points[*from].reuse);
}

}  // namespace verdicts
