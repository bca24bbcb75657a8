#include "compare/compare.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "support/sample_transcript.hpp"

using Catch::Matchers::ContainsSubstring;
using labrun::CaseChange;
using labrun::testing::make_case_result;

namespace {

labrun::ByteModel twelve_bytes() {
  return {8.0, 4.0, 1};
}

labrun::Transcript with_cases(std::vector<labrun::CaseResult> cases) {
  labrun::Transcript t;
  t.lab_name = "lab";
  t.environment = {labrun::FactGroup{"device", {labrun::Fact::known("name", std::string("Card"))}}};
  t.cases = std::move(cases);
  return t;
}

const labrun::CaseComparison& row(const labrun::TranscriptComparison& c, const std::string& name) {
  for (const auto& r : c.cases) {
    if (r.name == name) {
      return r;
    }
  }
  FAIL("no row " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("compare decides same, faster and slower from the samples and their spread") {
  const labrun::Transcript baseline = with_cases(
      {make_case_result("lab/p/steady", "p", "lesson", 1000, twelve_bytes(), {1.00, 1.01, 0.99, 1.00, 1.02}),
       make_case_result("lab/p/slower", "p", "lesson", 1000, twelve_bytes(), {1.00, 1.01, 0.99, 1.00, 1.02}),
       make_case_result("lab/p/faster", "p", "lesson", 1000, twelve_bytes(), {1.00, 1.01, 0.99, 1.00, 1.02}),
       make_case_result("lab/p/noisy", "p", "lesson", 1000, twelve_bytes(), {0.80, 1.20, 0.90, 1.10, 1.00}),
       make_case_result("lab/p/only-baseline", "p", "lesson", 1000, twelve_bytes(), {1.0})});
  const labrun::Transcript candidate = with_cases(
      {make_case_result("lab/p/steady", "p", "lesson", 1000, twelve_bytes(), {1.00, 1.00, 1.01, 0.99, 1.00}),
       make_case_result("lab/p/slower", "p", "lesson", 1000, twelve_bytes(), {1.20, 1.21, 1.19, 1.20, 1.22}),
       make_case_result("lab/p/faster", "p", "lesson", 1000, twelve_bytes(), {0.50, 0.51, 0.49, 0.50, 0.52}),
       make_case_result("lab/p/noisy", "p", "lesson", 1000, twelve_bytes(), {0.85, 1.25, 0.95, 1.15, 1.05}),
       make_case_result("lab/p/steady", "p", "lesson", 2000, twelve_bytes(), {1.0})});
  const labrun::TranscriptComparison c = labrun::compare_transcripts(baseline, candidate, nullptr);
  REQUIRE(c.cases.size() == 4);  // shared by name and size only
  CHECK(row(c, "lab/p/steady").change == CaseChange::kSame);
  CHECK(row(c, "lab/p/slower").change == CaseChange::kSlower);
  CHECK(row(c, "lab/p/slower").time_ratio == Catch::Approx(1.20));
  CHECK(row(c, "lab/p/faster").change == CaseChange::kFaster);
  CHECK(row(c, "lab/p/noisy").change == CaseChange::kSame);  // 5% apart, but the spreads overlap
  CHECK(row(c, "lab/p/faster").candidate_gb_per_s ==
        Catch::Approx(2 * row(c, "lab/p/faster").baseline_gb_per_s));

  const auto slower_than_10 = labrun::regressions(c, 10.0);
  REQUIRE(slower_than_10.size() == 1);
  CHECK(slower_than_10[0]->name == "lab/p/slower");
  CHECK(labrun::regressions(c, 25.0).empty());

  const std::string md = labrun::comparison_to_markdown(c);
  CHECK_THAT(md, ContainsSubstring("| lab/p/slower |"));
  CHECK_THAT(md, ContainsSubstring("slower"));
  const auto json = labrun::comparison_to_json(c);
  CHECK(json["cases"].size() == 4);
  CHECK(json["cases"][1]["verdict"] == "slower");
}

TEST_CASE("against a published figure the verdict uses the published threshold") {
  labrun::CaseResult published = make_case_result("lab/p/a", "p", "lesson", 1000, twelve_bytes(), {});
  published.published = labrun::PublishedFigure{"mean", 10, 1.0};
  labrun::CaseResult near =
      make_case_result("lab/p/a", "p", "lesson", 1000, twelve_bytes(), {1.03, 1.03, 1.04});
  labrun::CaseResult far =
      make_case_result("lab/p/a", "p", "lesson", 1000, twelve_bytes(), {0.40, 0.40, 0.41});
  const auto same = labrun::compare_transcripts(with_cases({published}), with_cases({near}), nullptr);
  REQUIRE(same.cases.size() == 1);
  CHECK(same.cases[0].change == CaseChange::kSame);
  CHECK_THAT(same.cases[0].basis, ContainsSubstring("published figure"));
  const auto faster = labrun::compare_transcripts(with_cases({published}), with_cases({far}), nullptr);
  CHECK(faster.cases[0].change == CaseChange::kFaster);
}

TEST_CASE("claims whose verdict differs are listed, and a transcript without claims has them evaluated") {
  labrun::Transcript baseline =
      with_cases({make_case_result("lab/p/staged", "p", "lesson", 1000, {20, 16, 4}, {3.0, 3.0}),
                  make_case_result("lab/p/fused", "p", "lesson", 1000, twelve_bytes(), {1.0, 1.0})});
  baseline.claims_recorded = false;  // like a transcribed reference
  labrun::Transcript candidate =
      with_cases({make_case_result("lab/p/staged", "p", "lesson", 1000, {20, 16, 4}, {3.6, 3.6}),
                  make_case_result("lab/p/fused", "p", "lesson", 1000, twelve_bytes(), {1.0, 1.0})});
  const std::vector<labrun::ClaimSpec> specs = {
      labrun::time_ratio_claim("byte-ratio", "staged over fused is 3", "lab/p/staged", "lab/p/fused",
                               "lesson", labrun::within(3.0, 0.1))};
  candidate.claims = labrun::evaluate_claims(specs, candidate);
  const auto c = labrun::compare_transcripts(baseline, candidate, &specs);
  REQUIRE(c.claims.size() == 1);
  CHECK(c.claims[0].baseline->verdict == labrun::Verdict::kHeld);
  CHECK(c.claims[0].candidate->verdict == labrun::Verdict::kFailed);
  CHECK(c.claims[0].differs());
  CHECK_THAT(labrun::comparison_to_markdown(c),
             ContainsSubstring("| staged over fused is 3 | held (3.00) | failed (3.60) |"));
}

TEST_CASE(
    "with rounds on both sides, a case is same, faster, slower or ambiguous from its ratio's interval") {
  using labrun::testing::floats;
  using labrun::testing::make_rounds_case;
  const auto rounds = [](const std::string& name, const std::vector<double>& medians) {
    std::vector<std::vector<double>> samples;
    for (const double m : medians) {
      samples.push_back({m, m});
    }
    return make_rounds_case("lab/p/" + name, "p", "lesson", 1000, floats(2, 1, 1), samples);
  };
  const labrun::Transcript baseline =
      with_cases({rounds("steady", {1.000, 1.001, 0.999}), rounds("slower", {1.00, 1.01, 0.99}),
                  rounds("faster", {1.00, 1.01, 0.99}), rounds("unsure", {1.00, 1.10, 0.90})});
  const labrun::Transcript candidate =
      with_cases({rounds("steady", {1.001, 1.000, 0.999}), rounds("slower", {1.20, 1.21, 1.19}),
                  rounds("faster", {0.50, 0.51, 0.49}), rounds("unsure", {1.05, 1.15, 0.95})});
  const labrun::TranscriptComparison c = labrun::compare_transcripts(baseline, candidate, nullptr);
  CHECK(row(c, "lab/p/steady").change == CaseChange::kSame);
  CHECK(row(c, "lab/p/slower").change == CaseChange::kSlower);
  CHECK(row(c, "lab/p/faster").change == CaseChange::kFaster);
  const labrun::CaseComparison unsure = row(c, "lab/p/unsure");
  CHECK(unsure.change == CaseChange::kAmbiguous);  // 5% slower on its figures, but the interval holds 1
  REQUIRE(unsure.time_ratio_interval.has_value());
  CHECK(unsure.time_ratio_interval->contains(1.0));
  CHECK_THAT(unsure.basis, ContainsSubstring("95% interval"));
  // --fail-on-regression acts on a definite slower, never on an ambiguous one.
  const auto slower = labrun::regressions(c, 2.0);
  REQUIRE(slower.size() == 1);
  CHECK(slower.front()->name == "lab/p/slower");
  CHECK(labrun::regressions(c, 0.0).size() == 1);
  // The renderings show the intervals, in a column of their own.
  const std::string md = labrun::comparison_to_markdown(c);
  CHECK_THAT(md, ContainsSubstring("ratio 95% interval"));
  CHECK_THAT(md, ContainsSubstring("| ambiguous |"));
  const nlohmann::ordered_json json = labrun::comparison_to_json(c);
  CHECK(json["cases"][0].contains("time_ratio_interval"));
  CHECK(json["rules"].contains("interval_rule"));
}

TEST_CASE("the interval's verdict, at its edges") {
  CHECK(labrun::change_from_interval({0.995, 1.009}, 0.01) == CaseChange::kSame);
  CHECK(labrun::change_from_interval({1.001, 1.02}, 0.01) == CaseChange::kSlower);
  CHECK(labrun::change_from_interval({0.97, 0.999}, 0.01) == CaseChange::kFaster);
  CHECK(labrun::change_from_interval({0.98, 1.02}, 0.01) == CaseChange::kAmbiguous);
  CHECK(std::string(labrun::case_change_name(CaseChange::kAmbiguous)) == "ambiguous");
}

TEST_CASE("a comparison of transcripts without rounds shows no interval column") {
  const labrun::Transcript one = with_cases({make_case_result(
      "lab/p/steady", "p", "lesson", 1000, twelve_bytes(), {1.00, 1.01, 0.99, 1.00, 1.02})});
  const labrun::TranscriptComparison c = labrun::compare_transcripts(one, one, nullptr);
  CHECK_FALSE(c.cases.front().time_ratio_interval.has_value());
  CHECK(labrun::comparison_to_markdown(c).find("interval") == std::string::npos);
  CHECK_FALSE(labrun::comparison_to_json(c)["cases"][0].contains("time_ratio_interval"));
}
