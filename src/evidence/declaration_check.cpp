#include "evidence/declaration_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "claims/claims.hpp"
#include "core/rounds.hpp"
#include "core/sizes.hpp"

namespace labrun {
namespace {

// A `--smoke` run caps every size at this many elements (runner/runner.hpp's kSmokeMaxElements; the
// runner is above this folder, so the figure is stated again here and a host test holds them equal).
constexpr std::uint64_t kSmokeCapElements = std::uint64_t{1} << 16;

// Two figures of one claim agree as consistency.hpp's figures do: to 1e-9 of the larger.
bool claim_figures_agree(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b);
  }
  if (std::isinf(a) || std::isinf(b)) {
    return a == b;
  }
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

bool optional_figures_agree(const std::optional<double>& a, const std::optional<double>& b) {
  return a.has_value() == b.has_value() && (!a || claim_figures_agree(*a, *b));
}

bool claim_intervals_agree(const std::optional<Interval>& a, const std::optional<Interval>& b) {
  return a.has_value() == b.has_value() &&
         (!a || (claim_figures_agree(a->low, b->low) && claim_figures_agree(a->high, b->high)));
}

std::string claim_figure_text(const std::optional<double>& value) {
  if (!value) {
    return "none";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", *value);
  return text;
}

std::string claim_interval_text(const std::optional<Interval>& interval) {
  return interval ? claim_figure_text(interval->low) + " to " + claim_figure_text(interval->high) : "none";
}

bool gpu_alone_readings_agree(const std::optional<GpuAloneReading>& a,
                              const std::optional<GpuAloneReading>& b) {
  return a.has_value() == b.has_value() &&
         (!a ||
          (claim_figures_agree(a->measured, b->measured) &&
           claim_intervals_agree(a->measured_interval, b->measured_interval) && a->verdict == b->verdict));
}

std::string gpu_alone_text(const std::optional<GpuAloneReading>& reading) {
  return reading
             ? claim_figure_text(reading->measured) + " (" + claim_interval_text(reading->measured_interval) +
                   "), " + verdict_name(reading->verdict)
             : "none";
}

// Records what departs from the lab's declaration. A departure from a rule (a claim's statement,
// tolerance, bound; a size; a prediction) is forged in a transcript of the current version and
// unchecked in an older one, written by the rules of its time. A departure from what the rules give on
// the transcript's own figures (a verdict, a figure) is forged from kClaimsRejudgedFromVersion on.
class DeclarationChecker {
 public:
  DeclarationChecker(const Transcript& t, const Lab& lab, DeclarationCheck& out)
      : t_(t),
        lab_(lab),
        out_(out),
        current_(t.schema_version == kTranscriptSchemaVersion),
        gpu_alone_recorded_(schema_version_at_least(t.schema_version, "1.12.0")),
        rejudged_(claims_rejudged(t.schema_version)) {}

  void check() {
    check_claims();
    check_sizes();
    check_predictions();
    check_predictions_recorded();
    check_roofline();
  }

 private:
  // `decides_verdict`: the rule's expectation, tolerance or bound, which decide the verdict.
  void departs_from_rule(const std::string& pointer, const std::string& claim_id, const std::string& what,
                         bool decides_verdict = false) {
    if (t_.is_synthetic()) {
      // Built by a program, never measured, by rules of its own: a claim is judged again only by a rule
      // the lab declares, and `aggregate` gives it rows of its own, never mixed with measured ones.
      skipped_rule_ = skipped_rule_ || decides_verdict;
      return;
    }
    record(current_, pointer, claim_id, what, "written by the rules of its time");
  }
  void departs_from_figures(const std::string& pointer, const std::string& claim_id,
                            const std::string& what) {
    record(rejudged_, pointer, claim_id, what, "older than claims judged by today's rules");
  }
  // Forged: the first is kept, named as it is. Unchecked: every one, with why it cannot be called
  // forged.
  void record(bool forged, const std::string& pointer, const std::string& claim_id, const std::string& what,
              const std::string& why_unchecked) {
    if (forged) {
      if (!out_.forged) {
        out_.forged = SchemaProblem{pointer, what};
      }
      return;
    }
    out_.unchecked.push_back(
        {pointer, claim_id,
         what + " (schema " + t_.schema_version + ", " + why_unchecked + "): recorded, unchecked"});
  }

  void check_claims() {
    if (!t_.claims_recorded) {
      return;  // a transcript that records none: its claims are judged on reading (claims_for)
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < t_.claims.size(); ++i) {
      if (!seen.insert(t_.claims[i].id).second && !out_.forged) {
        out_.forged = SchemaProblem{"/claims/" + std::to_string(i) + "/id",
                                    "the claim '" + t_.claims[i].id + "' is recorded twice"};
      }
    }
    const std::vector<ClaimResult> judged = evaluate_claims(lab_.claims, t_);
    for (std::size_t i = 0; i < t_.claims.size(); ++i) {
      check_claim(t_.claims[i], "/claims/" + std::to_string(i), judged);
    }
    for (const ClaimSpec& spec : lab_.claims) {
      const bool recorded = std::any_of(t_.claims.begin(), t_.claims.end(),
                                        [&](const ClaimResult& c) { return c.id == spec.id; });
      if (!recorded && current_ && !t_.is_synthetic() && !out_.forged) {
        // A claim newer than an older transcript is simply not measured there.
        out_.forged = SchemaProblem{"/claims", lab_.name + " declares the claim '" + spec.id +
                                                   "', which the transcript does not record"};
      }
    }
  }

  void check_claim(const ClaimResult& recorded, const std::string& at,
                   const std::vector<ClaimResult>& judged) {
    const auto found =
        std::find_if(judged.begin(), judged.end(), [&](const ClaimResult& c) { return c.id == recorded.id; });
    if (found == judged.end()) {
      departs_from_rule(at + "/id", recorded.id, "a claim " + lab_.name + " does not declare");
      return;
    }
    const ClaimResult& rule = *found;
    const std::size_t before = out_.unchecked.size();
    const bool forged_before = out_.forged.has_value();
    skipped_rule_ = false;
    if (recorded.statement != rule.statement) {
      departs_from_rule(at + "/statement", recorded.id,
                        "not the statement " + lab_.name + " declares (\"" + rule.statement + "\")");
    }
    if (!optional_figures_agree(recorded.expected, rule.expected)) {
      departs_from_rule(at + "/expected", recorded.id,
                        claim_figure_text(recorded.expected) + ", where " + lab_.name + " expects " +
                            claim_figure_text(rule.expected),
                        true);
    }
    if (!tolerance_agrees(recorded, rule)) {
      departs_from_rule(
          at + "/tolerance", recorded.id,
          "\"" + recorded.tolerance + "\", where " + lab_.name + " declares \"" + rule.tolerance + "\"",
          true);
    }
    // The figures' wording is this build's (issue 33 reworded it; no verdict depends on it): only a
    // transcript of the current version is held to it.
    if (current_ && recorded.figures != rule.figures) {
      departs_from_rule(
          at + "/figures", recorded.id,
          "\"" + recorded.figures + "\", where " + lab_.name + "'s rule reads \"" + rule.figures + "\"");
    }
    if (recorded.expected_to_fail != rule.expected_to_fail) {
      departs_from_rule(at + "/expected_to_fail", recorded.id,
                        std::string(recorded.expected_to_fail ? "true" : "false") + ", where " + lab_.name +
                            " declares " + (rule.expected_to_fail ? "true" : "false"));
    }
    if (t_.rounds_recorded) {  // 1.6.0 on: the bound is recorded
      if (!optional_figures_agree(recorded.bound_low, rule.bound_low) ||
          !optional_figures_agree(recorded.bound_high, rule.bound_high)) {
        departs_from_rule(
            at + (optional_figures_agree(recorded.bound_low, rule.bound_low) ? "/bound_high" : "/bound_low"),
            recorded.id,
            "the bound " + claim_figure_text(recorded.bound_low) + " to " +
                claim_figure_text(recorded.bound_high) + ", where " + lab_.name + "'s rule gives " +
                claim_figure_text(rule.bound_low) + " to " + claim_figure_text(rule.bound_high),
            true);
      }
    }
    if (out_.unchecked.size() != before || out_.forged.has_value() != forged_before || skipped_rule_) {
      return;  // judged by another rule than this build's: its verdict is not judged again
    }
    if (recorded.verdict != rule.verdict) {
      departs_from_figures(at + "/verdict", recorded.id,
                           std::string("\"") + verdict_name(recorded.verdict) +
                               "\", where the transcript's own figures give \"" + verdict_name(rule.verdict) +
                               "\" (" + rule.detail + ")");
      return;
    }
    if (!optional_figures_agree(recorded.measured, rule.measured)) {
      departs_from_figures(at + "/measured", recorded.id,
                           claim_figure_text(recorded.measured) +
                               " does not follow from the transcript's own figures "
                               "(which give " +
                               claim_figure_text(rule.measured) + ")");
      return;
    }
    if (!claim_intervals_agree(recorded.measured_interval, rule.measured_interval)) {
      departs_from_figures(at + "/measured_interval", recorded.id,
                           claim_interval_text(recorded.measured_interval) +
                               " does not follow from the transcript's rounds (which give " +
                               claim_interval_text(rule.measured_interval) + ")");
      return;
    }
    if (t_.rounds_recorded && recorded.verdict_basis != rule.verdict_basis) {
      departs_from_figures(at + "/verdict_basis", recorded.id,
                           "\"" + recorded.verdict_basis + "\", where the transcript's rounds give \"" +
                               rule.verdict_basis + "\"");
      return;
    }
    // 1.12.0 on: a hot claim's reading on GPU time alone, which its interval spans, is recorded.
    if (gpu_alone_recorded_ && !gpu_alone_readings_agree(recorded.gpu_alone, rule.gpu_alone)) {
      departs_from_figures(at + "/gpu_alone", recorded.id,
                           gpu_alone_text(recorded.gpu_alone) +
                               " does not follow from the transcript's gated samples (which give " +
                               gpu_alone_text(rule.gpu_alone) + ")");
      return;
    }
    // The detail's wording is this build's: only a measured or transcribed transcript of the current
    // version is held to it (a synthetic one's words are the program's that built it).
    if (current_ && !t_.is_synthetic() && recorded.detail != rule.detail) {
      departs_from_figures(
          at + "/detail", recorded.id,
          "\"" + recorded.detail + "\", where the transcript's own figures give \"" + rule.detail + "\"");
    }
  }

  // The recorded bound's words are the rule's, or, before 1.8.0, the words the same bound had then
  // (bound_words_before_1_8_0): a bound restated is not a rule changed.
  bool tolerance_agrees(const ClaimResult& recorded, const ClaimResult& rule) const {
    if (recorded.tolerance == rule.tolerance) {
      return true;
    }
    const auto spec = std::find_if(lab_.claims.begin(), lab_.claims.end(),
                                   [&](const ClaimSpec& s) { return s.id == recorded.id; });
    return spec != lab_.claims.end() && !schema_version_at_least(t_.schema_version, "1.8.0") &&
           recorded.tolerance == bound_words_before_1_8_0(*spec);
  }

  // Each case at a size its spec declares, with that size's elements (capped by --smoke) and shape;
  // the correctness checks at the lab's correctness size. A case the lab does not declare (a
  // submission's row) is the cross references' and the byte models' to check.
  void check_sizes() {
    const bool smoke = t_.configuration == "smoke";
    for (std::size_t i = 0; i < t_.cases.size(); ++i) {
      const CaseResult& c = t_.cases[i];
      const CaseSpec* spec = lab_.find_case(c.name);
      if (spec == nullptr) {
        continue;
      }
      const std::string at = "/cases/" + std::to_string(i);
      // A label may name several sizes (a sweep): the case's elements must be one of them.
      std::vector<std::uint64_t> declared;
      bool card_scaled = false;
      for (const SizeRequest& size : spec->sizes) {
        if (size.label == c.size_label) {
          card_scaled = card_scaled || size.is_card_scaled();
          declared.push_back(smoke ? std::min(size.elements, kSmokeCapElements) : size.elements);
        }
      }
      if (declared.empty()) {
        departs_from_rule(at + "/size_label", "",
                          "'" + c.size_label + "', a size " + c.name + " does not declare (" +
                              spec->describe_sizes() + ")");
        continue;
      }
      if (!card_scaled && std::find(declared.begin(), declared.end(), c.elements) == declared.end()) {
        departs_from_rule(at + "/elements", "",
                          std::to_string(c.elements) + " elements, where " + c.name + " declares " +
                              spec->describe_sizes());
        continue;
      }
      if (schema_version_at_least(t_.schema_version, "1.8.0")) {
        check_declared_figures(c, *spec, at);
      }
      // 1.7.0 recorded each case's shape: the one its spec gives that many elements.
      if (schema_version_at_least(t_.schema_version, "1.7.0")) {
        const std::optional<Shape> shape = shape_at(*spec, c.elements);
        const bool same = shape.has_value() == c.shape.has_value() && (!shape || *shape == *c.shape);
        if (!same) {
          departs_from_rule(at + "/shape", "",
                            (c.shape ? shape_text(*c.shape) : std::string("no shape")) + ", where " + c.name +
                                " at " + std::to_string(c.elements) + " elements is " +
                                (shape ? shape_text(*shape) : std::string("no image")));
        }
      }
    }
    // A check compares a version's outputs at the lab's correctness size: as many elements, or fewer
    // (a reduction's one sum). More would dilute its mismatches. A transcribed reference quotes its
    // source's own sizes.
    if (t_.is_transcribed()) {
      return;
    }
    const std::uint64_t most = lab_.correctness_elements;
    for (std::size_t i = 0; i < t_.correctness.size(); ++i) {
      const std::uint64_t elements = t_.correctness[i].elements;
      if (elements == 0 || elements > most) {
        departs_from_rule("/correctness/checks/" + std::to_string(i) + "/elements", "",
                          std::to_string(elements) + " elements, where " + lab_.name +
                              " checks correctness on at most " + std::to_string(most) + " (and at least 1)");
      }
    }
    for (std::size_t i = 0; i < t_.bitwise.size(); ++i) {
      const std::uint64_t elements = t_.bitwise[i].elements;
      if (elements == 0 || elements > most) {
        departs_from_rule("/correctness/bitwise/" + std::to_string(i) + "/elements", "",
                          std::to_string(elements) + " elements, where " + lab_.name +
                              " compares outputs on at most " + std::to_string(most) + " (and at least 1)");
      }
    }
  }

  // 1.8.0: the figures the case's spec declares, in its order, each with the value its count or its
  // formula gives on the case's own figures.
  void check_declared_figures(const CaseResult& c, const CaseSpec& spec, const std::string& at) {
    const std::vector<DeclaredFigure> declared = declared_figures_of(spec, c);
    if (c.declared_figures.size() != declared.size()) {
      departs_from_rule(at + "/declared_figures", "",
                        std::to_string(c.declared_figures.size()) + " figures, where " + c.name +
                            " declares " + std::to_string(declared.size()));
      return;
    }
    for (std::size_t j = 0; j < declared.size(); ++j) {
      const DeclaredFigure& recorded = c.declared_figures[j];
      const DeclaredFigure& rule = declared[j];
      const std::string figure_at = at + "/declared_figures/" + std::to_string(j);
      if (recorded.name != rule.name || recorded.unit != rule.unit || recorded.source != rule.source) {
        const char* field = recorded.name != rule.name   ? "/name"
                            : recorded.unit != rule.unit ? "/unit"
                                                         : "/source";
        departs_from_rule(figure_at + field, "",
                          "not the figure " + c.name + " declares (" + rule.name + ", " + rule.unit + ", " +
                              rule.source + ")");
      } else if (!optional_figures_agree(recorded.value, rule.value) ||
                 recorded.unknown_reason != rule.unknown_reason) {
        departs_from_figures(figure_at + "/value", "",
                             claim_figure_text(recorded.value) + ", where " + c.name +
                                 "'s declaration gives " + claim_figure_text(rule.value) +
                                 " on the case's own figures");
      }
    }
  }

  // The lab's predictions, each measured (1.6.0 on) at every size both its cases ran.
  void check_predictions() {
    for (std::size_t i = 0; i < t_.predictions.size(); ++i) {
      const PredictionRecord& p = t_.predictions[i];
      const std::string at = "/predictions/" + std::to_string(i);
      const bool declared =
          std::any_of(lab_.predictions.begin(), lab_.predictions.end(), [&](const Prediction& d) {
            return d.description == p.description && d.slower_case == p.slower_case &&
                   d.faster_case == p.faster_case;
          });
      if (!declared) {
        departs_from_rule(at + "/description", "",
                          "'" + p.description + "' (" + p.slower_case + " over " + p.faster_case +
                              "), a prediction " + lab_.name + " does not declare");
        continue;
      }
      if (t_.rounds_recorded && t_.provenance == "measured") {
        const std::size_t computed = measure_prediction(t_, p).size();
        if (p.measured.size() != computed) {
          departs_from_figures(at + "/measured", "",
                               std::to_string(p.measured.size()) +
                                   " ratios recorded, where its two cases were "
                                   "timed together at " +
                                   std::to_string(computed) + " sizes");
        }
      }
    }
  }

  // A prediction deleted: a measured run of the current version records every one its lab declares.
  void check_predictions_recorded() {
    if (!current_ || t_.provenance != "measured") {
      return;
    }
    for (const Prediction& declared : lab_.predictions) {
      const bool recorded =
          std::any_of(t_.predictions.begin(), t_.predictions.end(), [&](const PredictionRecord& p) {
            return p.description == declared.description && p.slower_case == declared.slower_case &&
                   p.faster_case == declared.faster_case;
          });
      if (!recorded && !out_.forged) {
        out_.forged = SchemaProblem{"/predictions", lab_.name + " predicts '" + declared.description +
                                                        "', which the transcript does not record"};
      }
    }
  }

  // 1.7.0: the roofline's cases are the lab's.
  void check_roofline() {
    if (!t_.roofline) {
      return;
    }
    const bool same = t_.roofline->memory_ceiling_cases == lab_.roofline.memory_ceiling_cases &&
                      t_.roofline->compute_ceiling_case == lab_.roofline.compute_ceiling_case;
    if (!same) {
      departs_from_rule("/roofline", "", "not the cases " + lab_.name + " declares for its roofline");
    }
  }

  const Transcript& t_;
  const Lab& lab_;
  DeclarationCheck& out_;
  bool current_;
  bool gpu_alone_recorded_;  // 1.12.0 on: claims[].gpu_alone is recorded, and judged again
  bool rejudged_;
  bool skipped_rule_ = false;  // a synthetic transcript's own rule, not judged against the lab's
};

}  // namespace

bool DeclarationCheck::claim_checked(const std::string& claim_id) const {
  if (!lab_known) {
    return false;
  }
  return std::none_of(unchecked.begin(), unchecked.end(),
                      [&](const UncheckedFigure& figure) { return figure.claim_id == claim_id; });
}

bool claims_rejudged(const std::string& version) {
  return schema_version_at_least(version, kClaimsRejudgedFromVersion);
}

DeclarationCheck check_against_declaration(const Transcript& transcript, const Lab* lab) {
  DeclarationCheck check;
  check.lab_known = lab != nullptr;
  if (lab == nullptr) {
    if (transcript.claims_recorded) {
      for (std::size_t i = 0; i < transcript.claims.size(); ++i) {
        check.unchecked.push_back({"/claims/" + std::to_string(i), transcript.claims[i].id,
                                   "lab " + transcript.lab_name +
                                       " is not part of this labrun: its verdict is as recorded, unchecked"});
      }
    }
    return check;
  }
  DeclarationChecker(transcript, *lab, check).check();
  return check;
}

}  // namespace labrun
