#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/format.hpp"
#include "core/byte_model.hpp"
#include "core/rounds.hpp"
#include "core/statistics.hpp"
#include "evidence/markdown.hpp"

namespace labrun {
namespace {

std::string label_of(const Transcript& t) {
  std::string device = "unknown device";
  if (const FactGroup* g = t.group("device")) {
    if (const Fact* name = g->find("name"); name != nullptr && name->is_known()) {
      device = name->display();
    }
  }
  if (t.is_transcribed()) {
    return device + " (transcribed: " + t.provenance_source + ")";
  }
  if (t.is_synthetic()) {
    return device + " (synthetic " + t.started_utc + ")";
  }
  return device + " (measured " + t.started_utc + ")";
}

// `a_allowance`, `b_allowance`: each run's process allowance (timing.process_allowance).
CaseComparison compare_case(const CaseResult& a, const CaseResult& b, const CompareRules& rules,
                            double a_allowance, double b_allowance) {
  CaseComparison row;
  row.name = a.name;
  row.elements = a.elements;
  row.baseline_size_label = a.size_label;
  row.candidate_size_label = b.size_label;
  row.baseline_ms = a.central_ms();
  row.candidate_ms = b.central_ms();
  row.time_ratio = row.candidate_ms / row.baseline_ms;
  row.baseline_gb_per_s = effective_gb_per_s(a.model, a.elements, row.baseline_ms);
  row.candidate_gb_per_s = effective_gb_per_s(b.model, b.elements, row.candidate_ms);
  const double difference = std::fabs(row.time_ratio - 1.0);
  bool differs = false;
  // The units of each side's rounds: its CUDA contexts from transcript 1.8.0, its rounds before.
  const std::vector<double> a_units = unit_medians(a);
  const std::vector<double> b_units = unit_medians(b);
  if (a.has_samples() && b.has_samples() && a.rounds.size() >= 2 && b.rounds.size() >= 2 &&
      a_units.size() >= 2 && b_units.size() >= 2) {
    row.time_ratio_interval =
        between_run_ratio_interval(row.time_ratio, b_units, a_units, b_allowance, a_allowance);
  }
  if (row.time_ratio_interval) {
    const auto units = [](const CaseResult& c, std::size_t count) {
      const bool contexts =
          interval_units(c).size() != c.rounds.size() || c.rounds.front().context.has_value();
      return std::to_string(count) + (contexts ? " contexts" : " rounds");
    };
    row.change = change_from_interval(*row.time_ratio_interval, rules.sampled_threshold);
    row.basis = "time ratio's 95% interval " + fixed(row.time_ratio_interval->low, 3) + " to " +
                fixed(row.time_ratio_interval->high, 3) + " over " + units(a, a_units.size()) + " and " +
                units(b, b_units.size());
    return row;
  }
  if (a.has_samples() && b.has_samples()) {
    const double a_low = quantile(a.samples_ms, 0.25);
    const double a_high = quantile(a.samples_ms, 0.75);
    const double b_low = quantile(b.samples_ms, 0.25);
    const double b_high = quantile(b.samples_ms, 0.75);
    const bool overlap = a_low <= b_high && b_low <= a_high;
    differs = !overlap && difference > rules.sampled_threshold;
    row.basis = overlap ? "interquartile ranges overlap"
                        : "interquartile ranges apart, medians " + fixed(difference * 100.0, 1) + "% apart";
  } else {
    differs = difference > rules.published_threshold;
    row.basis = "published figure: " + fixed(difference * 100.0, 1) + "% apart, threshold " +
                fixed(rules.published_threshold * 100.0, 0) + "%";
  }
  row.change =
      !differs ? CaseChange::kSame : (row.time_ratio < 1.0 ? CaseChange::kFaster : CaseChange::kSlower);
  return row;
}

std::optional<double> measured_ratio(const Transcript& t, const PredictionRecord& p, std::uint64_t elements) {
  const CaseResult* slower = nullptr;
  const CaseResult* faster = nullptr;
  for (const CaseResult& c : t.cases) {
    if (c.elements == elements && c.name == p.slower_case) {
      slower = &c;
    }
    if (c.elements == elements && c.name == p.faster_case) {
      faster = &c;
    }
  }
  if (slower == nullptr || faster == nullptr || !(faster->central_ms() > 0.0)) {
    return std::nullopt;
  }
  return slower->central_ms() / faster->central_ms();
}

std::string verdict_text(const std::optional<ClaimResult>& claim) {
  if (!claim) {
    return "not declared";
  }
  std::string text = verdict_name(claim->verdict);
  if (claim->measured && claim->measured_interval) {
    // 1.6.0 on: the figure with its interval, against the bound it was judged by.
    text += " (" + compact_number(*claim->measured) + "; 95% " + fixed(claim->measured_interval->low, 3) +
            " to " + fixed(claim->measured_interval->high, 3);
    if (claim->bound_low && claim->bound_high) {
      text += "; bound " + fixed(*claim->bound_low, 3) + " to " + fixed(*claim->bound_high, 3);
    } else if (claim->bound_low) {
      text += "; at least " + fixed(*claim->bound_low, 3);
    } else if (claim->bound_high) {
      text += "; at most " + fixed(*claim->bound_high, 3);
    }
    text += ")";
  } else if (claim->measured) {
    text += " (" + compact_number(*claim->measured) + ")";
  }
  return text;
}

// Whether any case of the comparison was judged by its interval (both sides of 2 rounds or more):
// only then do the renderings show intervals, so a comparison of older transcripts reads as before.
bool any_interval(const TranscriptComparison& c) {
  return std::any_of(c.cases.begin(), c.cases.end(),
                     [](const CaseComparison& row) { return row.time_ratio_interval.has_value(); });
}

}  // namespace

const char* case_change_name(CaseChange change) {
  switch (change) {
    case CaseChange::kSame: return "same";
    case CaseChange::kFaster: return "faster";
    case CaseChange::kSlower: return "slower";
    case CaseChange::kAmbiguous: return "ambiguous";
  }
  return "same";
}

CaseChange change_from_interval(const Interval& time_ratio, double margin) {
  if (time_ratio.low >= 1.0 - margin && time_ratio.high <= 1.0 + margin) {
    return CaseChange::kSame;
  }
  if (time_ratio.low > 1.0) {
    return CaseChange::kSlower;
  }
  if (time_ratio.high < 1.0) {
    return CaseChange::kFaster;
  }
  return CaseChange::kAmbiguous;
}

bool ClaimComparison::differs() const {
  if (!baseline || !candidate) {
    return baseline.has_value() != candidate.has_value();
  }
  return baseline->verdict != candidate->verdict;
}

TranscriptComparison compare_transcripts(const Transcript& baseline, const Transcript& candidate,
                                         const std::vector<ClaimSpec>* claims, const CompareRules& rules) {
  TranscriptComparison comparison;
  comparison.rules = rules;
  comparison.baseline_label = label_of(baseline);
  comparison.candidate_label = label_of(candidate);
  for (const CaseResult& a : baseline.cases) {
    for (const CaseResult& b : candidate.cases) {
      if (a.name == b.name && a.elements == b.elements && a.central_ms() > 0.0 && b.central_ms() > 0.0) {
        comparison.cases.push_back(
            compare_case(a, b, rules, process_allowance_of(baseline), process_allowance_of(candidate)));
        break;
      }
    }
  }
  // The predictions of either transcript (a transcribed one may record none), at every size both
  // measured.
  std::vector<PredictionRecord> predictions =
      candidate.predictions.empty() ? baseline.predictions : candidate.predictions;
  for (const PredictionRecord& p : predictions) {
    for (const CaseResult& c : baseline.cases) {
      if (c.name != p.slower_case) {
        continue;
      }
      const auto a = measured_ratio(baseline, p, c.elements);
      const auto b = measured_ratio(candidate, p, c.elements);
      if (a && b) {
        comparison.predictions.push_back(
            {p.description, c.elements, p.ratios.bytes, p.ratios.launches, *a, *b});
      }
    }
  }
  const std::vector<ClaimResult> a_claims = claims_for(baseline, claims);
  const std::vector<ClaimResult> b_claims = claims_for(candidate, claims);
  for (const ClaimResult& a : a_claims) {
    ClaimComparison row{a.id, a.statement, a, std::nullopt};
    for (const ClaimResult& b : b_claims) {
      if (b.id == a.id) {
        row.candidate = b;
      }
    }
    comparison.claims.push_back(row);
  }
  for (const ClaimResult& b : b_claims) {
    bool seen = false;
    for (const ClaimComparison& row : comparison.claims) {
      seen = seen || row.id == b.id;
    }
    if (!seen) {
      comparison.claims.push_back({b.id, b.statement, std::nullopt, b});
    }
  }
  return comparison;
}

std::vector<const CaseComparison*> regressions(const TranscriptComparison& comparison, double percent_limit) {
  std::vector<const CaseComparison*> slower;
  for (const CaseComparison& row : comparison.cases) {
    if (row.change == CaseChange::kSlower && (row.time_ratio - 1.0) * 100.0 > percent_limit) {
      slower.push_back(&row);
    }
  }
  return slower;
}

std::string comparison_to_markdown(const TranscriptComparison& c) {
  std::ostringstream out;
  out << "# Comparison\n\n";
  out << "- baseline: " << c.baseline_label << "\n";
  out << "- candidate: " << c.candidate_label << "\n\n";
  out << "A case is the same unless the two differ beyond their spread: with raw samples on both sides, "
         "the interquartile ranges must not overlap and the medians must differ by more than "
      << fixed(c.rules.sampled_threshold * 100.0, 0)
      << "%; against a published figure (no samples), the figures must differ by more than "
      << fixed(c.rules.published_threshold * 100.0, 0) << "%. time ratio = candidate / baseline.\n\n";
  const bool intervals = any_interval(c);
  if (intervals) {
    out << "With two rounds or more on both sides, the verdict is from the 95% interval of the time ratio "
           "over both runs' rounds instead: same when the whole interval lies within "
        << fixed(c.rules.sampled_threshold * 100.0, 0)
        << "% of 1, slower or faster when the whole of it lies above or below 1, and ambiguous when it "
           "holds 1 and reaches further; --fail-on-regression acts on slower alone.\n\n";
  }
  out << "## Cases both ran\n\n";
  Table cases;
  cases.headers = {"case",           "n",       "baseline ms", "candidate ms", "time ratio", "baseline GB/s",
                   "candidate GB/s", "verdict", "basis"};
  cases.right_aligned = {false, true, true, true, true, true, true, false, false};
  if (intervals) {
    cases.headers.insert(cases.headers.begin() + 5, "ratio 95% interval");
    cases.right_aligned.insert(cases.right_aligned.begin() + 5, true);
  }
  for (const CaseComparison& row : c.cases) {
    const auto bandwidth = [](double gbps) { return gbps > 0.0 ? fixed(gbps, 1) : std::string("-"); };
    cases.rows.push_back({row.name, std::to_string(row.elements), fixed(row.baseline_ms, 4),
                          fixed(row.candidate_ms, 4), fixed(row.time_ratio, 3),
                          bandwidth(row.baseline_gb_per_s), bandwidth(row.candidate_gb_per_s),
                          case_change_name(row.change), row.basis});
    if (intervals) {
      cases.rows.back().insert(cases.rows.back().begin() + 5,
                               row.time_ratio_interval ? fixed(row.time_ratio_interval->low, 3) + " to " +
                                                             fixed(row.time_ratio_interval->high, 3)
                                                       : std::string("-"));
    }
  }
  out << render_table(cases);
  if (!c.predictions.empty()) {
    out << "\n## Predicted ratios, measured on each\n\n";
    Table ratios;
    ratios.headers = {"prediction", "n", "byte ratio", "launch ratio", "baseline", "candidate"};
    ratios.right_aligned = {false, true, true, true, true, true};
    for (const PredictionComparison& p : c.predictions) {
      ratios.rows.push_back({p.description, std::to_string(p.elements), fixed(p.byte_ratio, 2),
                             fixed(p.launch_ratio, 2), fixed(p.baseline_measured, 2),
                             fixed(p.candidate_measured, 2)});
    }
    out << render_table(ratios);
  }
  out << "\n## Claims whose verdict differs\n\n";
  Table claims;
  claims.headers = {"claim", "baseline", "candidate"};
  claims.right_aligned = {false, false, false};
  std::string same;
  for (const ClaimComparison& row : c.claims) {
    if (row.differs()) {
      claims.rows.push_back({row.statement, verdict_text(row.baseline), verdict_text(row.candidate)});
    } else {
      same += (same.empty() ? "" : ", ") + row.id + " (" + verdict_text(row.baseline) + ")";
    }
  }
  if (claims.rows.empty()) {
    out << "None.\n";
  } else {
    out << render_table(claims);
  }
  if (!same.empty()) {
    out << "\nSame verdict on both: " << same << ".\n";
  }
  return out.str();
}

nlohmann::ordered_json comparison_to_json(const TranscriptComparison& c) {
  using Json = nlohmann::ordered_json;
  const bool intervals = any_interval(c);
  Json cases = Json::array();
  for (const CaseComparison& row : c.cases) {
    cases.push_back(Json{{"name", row.name},
                         {"elements", row.elements},
                         {"baseline_size_label", row.baseline_size_label},
                         {"candidate_size_label", row.candidate_size_label},
                         {"baseline_ms", row.baseline_ms},
                         {"candidate_ms", row.candidate_ms},
                         {"time_ratio", row.time_ratio},
                         {"baseline_gb_per_s", row.baseline_gb_per_s},
                         {"candidate_gb_per_s", row.candidate_gb_per_s},
                         {"verdict", case_change_name(row.change)},
                         {"basis", row.basis}});
    if (intervals) {
      cases.back()["time_ratio_interval"] =
          row.time_ratio_interval
              ? Json{{"low", row.time_ratio_interval->low}, {"high", row.time_ratio_interval->high}}
              : Json(nullptr);
    }
  }
  Json predictions = Json::array();
  for (const PredictionComparison& p : c.predictions) {
    predictions.push_back(Json{{"description", p.description},
                               {"elements", p.elements},
                               {"byte_ratio", p.byte_ratio},
                               {"launch_ratio", p.launch_ratio},
                               {"baseline_measured", p.baseline_measured},
                               {"candidate_measured", p.candidate_measured}});
  }
  const auto verdict = [](const std::optional<ClaimResult>& claim) {
    return claim ? Json(verdict_name(claim->verdict)) : Json(nullptr);
  };
  const auto measured = [](const std::optional<ClaimResult>& claim) {
    return claim && claim->measured ? Json(*claim->measured) : Json(nullptr);
  };
  const auto interval = [](const std::optional<ClaimResult>& claim) {
    return claim && claim->measured_interval
               ? Json{{"low", claim->measured_interval->low}, {"high", claim->measured_interval->high}}
               : Json(nullptr);
  };
  Json claims = Json::array();
  for (const ClaimComparison& row : c.claims) {
    claims.push_back(Json{{"id", row.id},
                          {"statement", row.statement},
                          {"baseline_verdict", verdict(row.baseline)},
                          {"candidate_verdict", verdict(row.candidate)},
                          {"baseline_measured", measured(row.baseline)},
                          {"candidate_measured", measured(row.candidate)},
                          {"differs", row.differs()}});
    if (intervals) {
      claims.back()["baseline_interval"] = interval(row.baseline);
      claims.back()["candidate_interval"] = interval(row.candidate);
    }
  }
  Json rules{{"sampled_threshold", c.rules.sampled_threshold},
             {"published_threshold", c.rules.published_threshold}};
  if (intervals) {
    rules["interval_rule"] =
        "with rounds on both sides: same when the time ratio's 95% interval lies within sampled_threshold of "
        "1, slower or faster when it lies above or below 1, ambiguous otherwise";
  }
  return Json{{"baseline", c.baseline_label},
              {"candidate", c.candidate_label},
              {"rules", rules},
              {"cases", cases},
              {"predictions", predictions},
              {"claims", claims}};
}

}  // namespace labrun
