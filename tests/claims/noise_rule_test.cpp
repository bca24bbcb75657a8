#include "claims/noise_rule.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

#include "core/rounds.hpp"
#include "support/sample_transcript.hpp"

using Catch::Matchers::ContainsSubstring;
using labrun::testing::floats;
using labrun::testing::make_rounds_case;

namespace {

// Staged over fused at the lesson size, one sample per unit: the staged medians over fused's 0.1 ms.
labrun::Transcript ratio_units(const std::vector<double>& staged_ms) {
  labrun::Transcript t;
  std::vector<std::vector<double>> staged;
  std::vector<std::vector<double>> fused;
  for (const double ms : staged_ms) {
    staged.push_back({ms});
    fused.push_back({0.1});
  }
  t.cases.push_back(make_rounds_case("lab/p2/staged", "p2", "lesson", 1024, floats(5, 4, 4), staged));
  t.cases.push_back(make_rounds_case("lab/p2/fused", "p2", "lesson", 1024, floats(2, 1, 1), fused));
  return t;
}

}  // namespace

TEST_CASE("a claim's tolerance is read from its bound") {
  labrun::ClaimResult ratio;
  ratio.expected = 3.0;
  ratio.bound_low = 2.7;
  ratio.bound_high = 3.3;
  CHECK(*labrun::relative_tolerance(ratio) == Catch::Approx(0.10));
  labrun::ClaimResult not_faster;
  not_faster.expected = 1.0;
  not_faster.bound_low = 0.98;
  CHECK(*labrun::relative_tolerance(not_faster) == Catch::Approx(0.02));
  labrun::ClaimResult count;  // a bitwise count bounded at 0: no relative tolerance
  count.expected = 0.0;
  count.bound_low = 0.0;
  count.bound_high = 0.0;
  CHECK_FALSE(labrun::relative_tolerance(count).has_value());
  CHECK_FALSE(labrun::relative_tolerance(labrun::ClaimResult{}).has_value());
}

TEST_CASE("a figure's noise is the spread of its logarithm between units") {
  CHECK(*labrun::relative_noise(1.0, {1.0, 1.0, 1.0}) == 0.0);
  CHECK(*labrun::relative_noise(1.0, {1.0, std::exp(0.1)}) == Catch::Approx(0.1 / std::sqrt(2.0)));
  // A figure that is not positive in every unit: the spread itself, over the point.
  CHECK(*labrun::relative_noise(2.0, {-1.0, 1.0}) == Catch::Approx(std::sqrt(2.0) / 2.0));
  CHECK_FALSE(labrun::relative_noise(0.0, {-1.0, 1.0}).has_value());
  CHECK_FALSE(labrun::relative_noise(1.0, {1.0}).has_value());
  CHECK_FALSE(labrun::relative_noise(1.0, {1.0, std::nan("")}).has_value());
}

TEST_CASE("from 1.8.0 a claim whose figure moves by more than its tolerance is inconclusive (noise)") {
  // Expected 3.0 within 2%; the units' ratios 4.0, 4.4 and 3.6 sit far above the bound, and their
  // interval (t(2) = 4.3) lies wholly above it: by its interval alone the claim failed. Their noise,
  // about 10%, is five times the tolerance: the run cannot judge it.
  const std::vector<labrun::ClaimSpec> specs{labrun::time_ratio_claim(
      "ratio", "staged over fused", "lab/p2/staged", "lab/p2/fused", "lesson", labrun::within(3.0, 0.02))};
  labrun::Transcript t = ratio_units({0.40, 0.44, 0.36});
  REQUIRE(t.schema_version == labrun::kTranscriptSchemaVersion);
  const labrun::ClaimResult judged = labrun::evaluate_claims(specs, t).front();
  CHECK(judged.verdict == labrun::Verdict::kInconclusive);
  CHECK(judged.verdict_basis == "noise");
  CHECK_THAT(judged.detail, ContainsSubstring("more than its tolerance of 2.0%"));
  REQUIRE(judged.measured_interval.has_value());
  CHECK(judged.measured_interval->low > 3.06);  // the interval alone would have failed it
  // A transcript from before 1.8.0 is judged as its run judged it: by the interval.
  t.schema_version = "1.7.0";
  const labrun::ClaimResult before = labrun::evaluate_claims(specs, t).front();
  CHECK(before.verdict == labrun::Verdict::kFailed);
  CHECK(before.verdict_basis == "interval");
  // A quiet figure keeps its interval's verdict.
  const labrun::ClaimResult quiet =
      labrun::evaluate_claims(specs, ratio_units({0.300, 0.301, 0.299})).front();
  CHECK(quiet.verdict == labrun::Verdict::kHeld);
  CHECK(quiet.verdict_basis == "interval");
}

TEST_CASE("in hot timing a claim that reads a launch-bound case says so") {
  labrun::Transcript t = ratio_units({0.030, 0.030, 0.030});
  t.cases[0].launch_check = labrun::launch_latency_check({0.009}, t.cases[0].summary.median);  // 70% host
  t.cases[1].launch_check =
      labrun::launch_latency_check({0.095}, t.cases[1].summary.median);  // 5%: not bound
  const labrun::ClaimSpec spec = labrun::time_ratio_claim(
      "ratio", "staged over fused", "lab/p2/staged", "lab/p2/fused", "lesson", labrun::within(0.3, 0.10));
  const labrun::ClaimResult judged = labrun::evaluate_claims({spec}, t).front();
  CHECK_THAT(judged.detail,
             ContainsSubstring("hot timing: launch-bound, the host's launch latency a share of "
                               "the hot figure of lab/p2/staged at n = 1024 (70.0%)"));
  CHECK_THAT(judged.detail, !ContainsSubstring("lab/p2/fused at"));
  // A claim of another size reads neither; a claim of versions reads no case.
  labrun::ClaimSpec other = spec;
  other.size_label = "card-scaled";
  labrun::ClaimResult noted;
  labrun::note_launch_bound_figures(noted, other, t);
  CHECK(noted.detail.empty());
  labrun::note_launch_bound_figures(
      noted, labrun::bitwise_equal_claim("same", "equal", "lab/p2/staged", "lab/p2/fused", false), t);
  CHECK(noted.detail.empty());
}
