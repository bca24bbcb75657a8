#include "claims/claims.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

#include "core/statistics.hpp"
#include "support/sample_transcript.hpp"

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::EndsWith;
using labrun::ClaimKind;
using labrun::ClaimSpec;
using labrun::Verdict;
using labrun::testing::floats;
using labrun::testing::make_case_result;

namespace {

constexpr std::uint64_t kN = 16777216;

// A transcript whose figures are chosen so that each claim's verdict is known.
labrun::Transcript known_transcript(double staged_ms, double fused_ms) {
  labrun::Transcript t;
  t.cases.push_back(make_case_result("lab/p2/copy", "p2", "lesson", kN, floats(1, 1, 1), {0.10, 0.10, 0.10}));
  t.cases.push_back(
      make_case_result("lab/p2/staged", "p2", "lesson", kN, floats(5, 4, 4), {staged_ms, staged_ms}));
  t.cases.push_back(
      make_case_result("lab/p2/fused", "p2", "lesson", kN, floats(2, 1, 1), {fused_ms, fused_ms}));
  labrun::CaseResult empty = make_case_result("lab/p1/empty", "p1", "single", 1, floats(0, 0, 1), {4.0, 4.0});
  empty.launches_per_sample = 1000;  // 4 us per launch
  t.cases.push_back(empty);
  t.cases.push_back(
      make_case_result("lab/p3/staged", "p3", "sweep", 4096, floats(5, 4, 4), {0.0200}));  // 5 us
  t.cases.push_back(
      make_case_result("lab/p3/staged", "p3", "sweep", 1024, floats(5, 4, 4), {0.0168}));  // 4.2 us
  t.cases.push_back(make_case_result("lab/p4/k1", "p4", "lesson", kN, floats(2, 1, 1), {0.150}));
  t.cases.push_back(make_case_result("lab/p4/k2", "p4", "lesson", kN, floats(2, 1, 1), {0.149}));
  t.cases.push_back(make_case_result("lab/p4/k4", "p4", "lesson", kN, floats(2, 1, 1), {0.160}));
  t.bitwise.push_back(labrun::BitwiseComparison{"fused", "staged", 1000, 150, 2.38e-7});
  return t;
}

ClaimSpec ratio_claim(double expected, double tolerance, const std::string& size = "lesson") {
  return labrun::time_ratio_claim("ratio", "staged over fused", "lab/p2/staged", "lab/p2/fused", size,
                                  labrun::within(expected, tolerance));
}

}  // namespace

TEST_CASE("a ratio claim holds within its tolerance and fails outside it") {
  const labrun::Transcript t = known_transcript(0.45, 0.15);  // ratio 3.00
  const labrun::ClaimResult held = labrun::evaluate_claim(ratio_claim(3.0, 0.10), t);
  CHECK(held.verdict == Verdict::kHeld);
  CHECK(*held.measured == Catch::Approx(3.0));
  CHECK(*held.expected == 3.0);
  CHECK(held.tolerance == "within 10% of 3.00");
  const labrun::ClaimResult failed = labrun::evaluate_claim(ratio_claim(4.0, 0.10), t);
  CHECK(failed.verdict == Verdict::kFailed);
  CHECK_THAT(failed.detail, ContainsSubstring("-25.0% from 4.00"));
  // 3.35 against 3.00 is 11.7% off: outside 10%, inside 12%.
  const labrun::Transcript h200_like = known_transcript(0.2232, 0.0666);
  CHECK(labrun::evaluate_claim(ratio_claim(3.0, 0.10), h200_like).verdict == Verdict::kFailed);
  CHECK(labrun::evaluate_claim(ratio_claim(3.0, 0.12), h200_like).verdict == Verdict::kHeld);
}

TEST_CASE("a claim whose figures were not measured says so") {
  const labrun::Transcript t = known_transcript(0.45, 0.15);
  const labrun::ClaimResult r = labrun::evaluate_claim(ratio_claim(3.0, 0.1, "card-scaled"), t);
  CHECK(r.verdict == Verdict::kNotMeasured);
  CHECK_FALSE(r.measured.has_value());
  CHECK_THAT(r.detail, ContainsSubstring("was not timed at the card-scaled size"));
}

TEST_CASE("the bandwidth band holds only when every row is inside it") {
  // copy: 8 B in 0.1 ms. staged: 36 B in 0.45 ms -> the same GB/s; fused 12 B in 0.15 ms -> the same.
  const ClaimSpec band =
      labrun::bandwidth_band_claim("band", "rows at the copy floor", "lab/p2/copy",
                                   {"lab/p2/staged", "lab/p2/fused"}, "lesson", 0.95, 1.05);
  CHECK(labrun::evaluate_claim(band, known_transcript(0.45, 0.15)).verdict == Verdict::kHeld);
  // fused at 0.12 ms moves 1.25 x the copy floor's GB/s.
  const labrun::ClaimResult r = labrun::evaluate_claim(band, known_transcript(0.45, 0.12));
  CHECK(r.verdict == Verdict::kFailed);
  CHECK(*r.measured == Catch::Approx(1.25));
  CHECK_THAT(r.detail, ContainsSubstring("fused 1.25"));
}

TEST_CASE("per-launch convergence reads the lowest per-launch time against the empty launch") {
  ClaimSpec converge =
      labrun::per_launch_converges_claim("converge", "per launch", "lab/p3/staged", "lab/p1/empty", 0.10);
  const labrun::ClaimResult r = labrun::evaluate_claim(converge, known_transcript(0.45, 0.15));
  CHECK(r.verdict == Verdict::kHeld);  // 4.2 us against 4.0 us
  CHECK(*r.measured == Catch::Approx(1.05));
  CHECK_THAT(r.detail, ContainsSubstring("n = 1024"));
  converge.bound = labrun::within(1.0, 0.04);
  CHECK(labrun::evaluate_claim(converge, known_transcript(0.45, 0.15)).verdict == Verdict::kFailed);
  // As on the lesson's T4, the floor need not be at the smallest n: 4.05 us at 1024, 2.675 at 16384.
  labrun::Transcript t4_like = known_transcript(0.45, 0.15);
  t4_like.cases.push_back(make_case_result("lab/p3/staged", "p3", "sweep", 16384, floats(5, 4, 4), {0.0107}));
  t4_like.cases[3].samples_ms = {2.668};
  t4_like.cases[3].summary = labrun::summarize(t4_like.cases[3].samples_ms);
  converge.bound = labrun::within(1.0, 0.20);
  const labrun::ClaimResult t4 = labrun::evaluate_claim(converge, t4_like);
  CHECK(t4.verdict == Verdict::kHeld);
  CHECK(*t4.measured == Catch::Approx(2.675 / 2.668));
  CHECK_THAT(t4.detail, ContainsSubstring("n = 16384"));
}

TEST_CASE("in cold and hot-gated timing a per-launch claim reads the empty launch queued as the chain is") {
  // Synthetic: the sweep's floor is 4.2 us per launch (n = 1024); the host's launch rate 4.0 us
  // (1000 launches per sample) and four empty launches queued between one pair of events 3.0 us each.
  const ClaimSpec converge = labrun::per_launch_converges_claim("converge", "per launch", "lab/p3/staged",
                                                                "lab/p1/empty", 0.20, "lab/p1/empty-queued");
  labrun::Transcript t = known_transcript(0.45, 0.15);
  labrun::CaseResult queued =
      make_case_result("lab/p1/empty-queued", "p1", "single", 1, floats(0, 0, 1), {0.012, 0.012});
  queued.launches_per_sample = 4;
  t.cases.push_back(queued);
  t.timing = labrun::TimingRecord{};

  t.timing->mode = "hot";  // the host paces a hot sample: the host's launch rate, as the lesson reads it
  const labrun::ClaimResult hot = labrun::evaluate_claim(converge, t);
  CHECK(*hot.measured == Catch::Approx(4.2 / 4.0));
  CHECK(hot.verdict == Verdict::kHeld);
  CHECK_THAT(hot.figures, EndsWith("over the per-launch time of lab/p1/empty"));
  CHECK_THAT(labrun::describe_claim(converge).figures,
             EndsWith("of lab/p1/empty in hot timing, or of lab/p1/empty-queued where the run queues a "
                      "sample's launches ahead of the GPU (cold, hot-gated)"));
  for (const char* mode : {"cold", "hot-gated"}) {
    t.timing->mode = mode;
    const labrun::ClaimResult queued_run = labrun::evaluate_claims({converge}, t)[0];
    CHECK(*queued_run.measured == Catch::Approx(4.2 / 3.0));
    CHECK(queued_run.verdict == Verdict::kFailed);
    CHECK_THAT(queued_run.figures,
               ContainsSubstring("over the per-launch time of lab/p1/empty-queued (this run"));
    CHECK_THAT(queued_run.detail, ContainsSubstring("4 between one pair of events, queued ahead of the GPU"));
    CHECK(labrun::as_judged_in(converge, t).cases.at(1) == "lab/p1/empty-queued");
  }
  // A run that did not time the queued case (every run before it was declared) reads the host's rate.
  t.cases.pop_back();
  CHECK(*labrun::evaluate_claim(converge, t).measured == Catch::Approx(4.2 / 4.0));
  CHECK(labrun::as_judged_in(converge, t).cases.at(1) == "lab/p1/empty");
  // A transcript before timing was recorded is hot.
  t.timing.reset();
  CHECK_FALSE(labrun::launches_are_queued(t));
}

TEST_CASE("not-faster fails when a wider case beats the baseline by more than its bound allows") {
  ClaimSpec wider = labrun::not_faster_claim("wider", "widening does not help", "lab/p4/k1",
                                             {"lab/p4/k2", "lab/p4/k4"}, "lesson", 0.98);
  const labrun::ClaimResult held = labrun::evaluate_claim(wider, known_transcript(0.45, 0.15));
  CHECK(held.verdict == Verdict::kHeld);  // 0.149 vs 0.150
  CHECK(held.tolerance == "at least 0.98");
  CHECK(held.figures ==
        "the fastest median among lab/p4/k2, lab/p4/k4 over the median of lab/p4/k1 at the "
        "lesson size");
  CHECK(*held.bound_low == 0.98);
  CHECK_FALSE(held.bound_high.has_value());
  wider.bound = labrun::at_least(0.999);
  const labrun::ClaimResult r = labrun::evaluate_claim(wider, known_transcript(0.45, 0.15));
  CHECK(r.verdict == Verdict::kFailed);
  CHECK_THAT(r.detail, ContainsSubstring("fastest: k2"));
}

TEST_CASE("the bitwise claim reports the differing count and keeps expected-to-fail") {
  ClaimSpec bitwise = labrun::bitwise_equal_claim("bitwise", "fused equals staged", "fused", "staged", true);
  const labrun::ClaimResult r = labrun::evaluate_claim(bitwise, known_transcript(0.45, 0.15));
  CHECK(r.verdict == Verdict::kFailed);
  CHECK(r.expected_to_fail);
  CHECK(*r.measured == 150.0);
  CHECK_THAT(r.detail, ContainsSubstring("150 of 1000 elements differ (15.0%)"));
  bitwise.cases = {"halfway", "staged"};
  CHECK(labrun::evaluate_claim(bitwise, known_transcript(0.45, 0.15)).verdict == Verdict::kNotMeasured);
}

TEST_CASE("a transcribed case's published figure stands in for samples") {
  labrun::Transcript t = known_transcript(0.45, 0.15);
  t.cases[2].samples_ms.clear();
  t.cases[2].summary = {};
  t.cases[2].published = labrun::PublishedFigure{"mean", 10, 0.18};
  const labrun::ClaimResult r = labrun::evaluate_claim(ratio_claim(2.5, 0.01), t);
  CHECK(*r.measured == Catch::Approx(2.5));
  CHECK(r.verdict == Verdict::kHeld);
}

TEST_CASE("verdict names round trip") {
  for (const Verdict v : {Verdict::kHeld, Verdict::kFailed, Verdict::kNotMeasured, Verdict::kInconclusive}) {
    CHECK(labrun::verdict_from_name(labrun::verdict_name(v)) == v);
  }
  CHECK_THROWS_AS(labrun::verdict_from_name("maybe"), std::invalid_argument);
}

TEST_CASE("each claim builder fills the fields its kind reads, and judges as a spec filled by hand") {
  const labrun::Transcript t = known_transcript(0.45, 0.15);  // staged over fused: 3.00
  const ClaimSpec ratio = labrun::time_ratio_claim("ratio", "staged over fused", "lab/p2/staged",
                                                   "lab/p2/fused", "lesson", labrun::within(3.0, 0.10));
  CHECK(ratio.kind == ClaimKind::kTimeRatio);
  CHECK(ratio.cases == std::vector<std::string>{"lab/p2/staged", "lab/p2/fused"});
  CHECK(labrun::evaluate_claim(ratio, t).detail == "0.4500 ms / 0.1500 ms = 3.00, +0.0% from 3.00");

  const ClaimSpec band = labrun::bandwidth_band_claim("band", "rows at the floor", "lab/p2/copy",
                                                      {"lab/p2/staged"}, "lesson", 0.9, 1.1);
  CHECK(band.kind == ClaimKind::kBandwidthBand);
  CHECK(band.cases == std::vector<std::string>{"lab/p2/copy", "lab/p2/staged"});
  CHECK(band.bound.low == 0.9);
  CHECK(band.bound.high == 1.1);
  CHECK(labrun::evaluate_claim(band, t).tolerance == "every row between 0.90 and 1.10");

  const ClaimSpec converges =
      labrun::per_launch_converges_claim("launch", "converges", "lab/p3/staged", "lab/p1/empty", 0.20);
  CHECK(labrun::evaluate_claim(converges, t).verdict == Verdict::kHeld);  // 4.2 us against 4 us

  const ClaimSpec wider = labrun::not_faster_claim("wider", "not faster", "lab/p4/k1",
                                                   {"lab/p4/k2", "lab/p4/k4"}, "lesson", 0.98);
  CHECK(wider.cases == std::vector<std::string>{"lab/p4/k1", "lab/p4/k2", "lab/p4/k4"});
  CHECK(labrun::evaluate_claim(wider, t).verdict == Verdict::kHeld);

  const ClaimSpec bitwise = labrun::bitwise_equal_claim("bits", "agree", "fused", "staged", true);
  CHECK(bitwise.kind == ClaimKind::kBitwiseEqual);
  CHECK(bitwise.expected_to_fail);
  CHECK(labrun::evaluate_claim(bitwise, t).verdict == Verdict::kFailed);  // 150 of 1000 differ

  bool evaluated = false;
  const ClaimSpec custom = labrun::custom_claim("own", "a rule of the lab's", {"lab/p2/copy"},
                                                [&](const labrun::Transcript&, labrun::ClaimResult& r) {
                                                  evaluated = true;
                                                  r.verdict = Verdict::kHeld;
                                                  r.detail = "by its own rule";
                                                });
  CHECK(custom.cases == std::vector<std::string>{"lab/p2/copy"});
  const labrun::ClaimResult result = labrun::evaluate_claim(custom, t);
  CHECK(evaluated);
  CHECK(result.id == "own");
  CHECK(result.detail == "by its own rule");
}

TEST_CASE("an interval against a bound gives three verdicts") {
  using labrun::Interval;
  const std::optional<double> low = 2.7;
  const std::optional<double> high = 3.3;
  CHECK(labrun::verdict_from_interval(Interval{2.9, 3.1}, low, high) == Verdict::kHeld);
  CHECK(labrun::verdict_from_interval(Interval{3.4, 3.6}, low, high) == Verdict::kFailed);
  CHECK(labrun::verdict_from_interval(Interval{2.0, 2.6}, low, high) == Verdict::kFailed);
  CHECK(labrun::verdict_from_interval(Interval{3.2, 3.4}, low, high) == Verdict::kInconclusive);
  CHECK(labrun::verdict_from_interval(Interval{2.6, 3.4}, low, high) == Verdict::kInconclusive);
  CHECK(labrun::verdict_from_interval(Interval{2.7, 3.3}, low, high) == Verdict::kHeld);  // ends included
  // An open end: "at least 0.98".
  CHECK(labrun::verdict_from_interval(Interval{0.99, 5.0}, 0.98, std::nullopt) == Verdict::kHeld);
  CHECK(labrun::verdict_from_interval(Interval{0.97, 0.99}, 0.98, std::nullopt) == Verdict::kInconclusive);
}

namespace {

// Staged and fused measured in rounds: each round's ratio is staged[r] / fused[r].
labrun::Transcript rounds_transcript(const std::vector<double>& staged, const std::vector<double>& fused) {
  std::vector<std::vector<double>> staged_rounds;
  std::vector<std::vector<double>> fused_rounds;
  for (std::size_t r = 0; r < staged.size(); ++r) {
    staged_rounds.push_back({staged[r], staged[r], staged[r]});
    fused_rounds.push_back({fused[r], fused[r], fused[r]});
  }
  labrun::Transcript t;
  t.cases.push_back(
      labrun::testing::make_rounds_case("lab/p2/staged", "p2", "lesson", kN, floats(5, 4, 4), staged_rounds));
  t.cases.push_back(
      labrun::testing::make_rounds_case("lab/p2/fused", "p2", "lesson", kN, floats(2, 1, 1), fused_rounds));
  return t;
}

}  // namespace

TEST_CASE("with rounds, a claim is held, failed or inconclusive from its figure's interval") {
  const std::vector<ClaimSpec> specs{ratio_claim(3.0, 0.10)};  // bound 2.70 to 3.30
  // Ratios 3.00, 3.03, 2.97 over three rounds: well inside the bound.
  const auto held = labrun::evaluate_claims(specs, rounds_transcript({0.300, 0.303, 0.297}, {0.1, 0.1, 0.1}));
  REQUIRE(held.size() == 1);
  CHECK(held[0].verdict == Verdict::kHeld);
  CHECK(held[0].verdict_basis == "interval");
  REQUIRE(held[0].measured_interval.has_value());
  CHECK(held[0].measured_interval->contains(*held[0].measured));
  CHECK(*held[0].bound_low == Catch::Approx(2.7));
  CHECK(*held[0].bound_high == Catch::Approx(3.3));
  // Ratios 3.27, 3.33, 3.30: the run's figure sits on the bound, and so does its interval.
  const auto straddles =
      labrun::evaluate_claims(specs, rounds_transcript({0.327, 0.333, 0.330}, {0.1, 0.1, 0.1}));
  CHECK(straddles[0].verdict == Verdict::kInconclusive);
  // Ratios near 3.6: failed in every round and as a whole.
  const auto failed =
      labrun::evaluate_claims(specs, rounds_transcript({0.36, 0.361, 0.359}, {0.1, 0.1, 0.1}));
  CHECK(failed[0].verdict == Verdict::kFailed);
  // One round: the run's figure alone, as before.
  const auto one = labrun::evaluate_claims(specs, rounds_transcript({0.327}, {0.1}));
  CHECK(one[0].verdict == Verdict::kHeld);
  CHECK(one[0].verdict_basis == "point");
  CHECK_FALSE(one[0].measured_interval.has_value());
  // The same transcript gives the same interval every time: nothing is resampled.
  const auto again =
      labrun::evaluate_claims(specs, rounds_transcript({0.327, 0.333, 0.330}, {0.1, 0.1, 0.1}));
  CHECK(again[0].measured_interval->low == straddles[0].measured_interval->low);
  CHECK(again[0].measured_interval->high == straddles[0].measured_interval->high);
}

TEST_CASE("a process allowance widens a claim's interval: near its bound, held becomes inconclusive") {
  const std::vector<ClaimSpec> specs{ratio_claim(3.0, 0.10)};  // bound 2.70 to 3.30
  // Ratios 3.24, 3.26, 3.22 (s = 0.62%): t(2) s / sqrt 3 = 1.5% keeps the interval under 3.30; the
  // run records k = 1, and a figure of two GPU-bound cases allows min(k, 0.6):
  // t(2) s sqrt(1 / 3 + 0.36) = 2.2% reaches past it.
  labrun::Transcript t = rounds_transcript({0.324, 0.326, 0.322}, {0.1, 0.1, 0.1});
  const auto without = labrun::evaluate_claims(specs, t);
  CHECK(without[0].verdict == Verdict::kHeld);
  t.timing = labrun::TimingRecord{};
  t.timing->process_allowance = 1.0;
  t.timing->interval_method = labrun::interval_method_text(1.0);  // judged by kind of figure
  const auto with = labrun::evaluate_claims(specs, t);
  CHECK(with[0].verdict == Verdict::kInconclusive);
  CHECK(with[0].verdict_basis == "interval");
  REQUIRE(with[0].measured_interval.has_value());
  CHECK(*with[0].measured == *without[0].measured);  // the figure is the same; only its interval widens
  const double ratio_without = without[0].measured_interval->high / *without[0].measured;
  const double ratio_with = with[0].measured_interval->high / *with[0].measured;
  CHECK(std::log(ratio_with) / std::log(ratio_without) ==
        Catch::Approx(std::sqrt((1.0 / 3.0 + 0.36) * 3.0)));  // sqrt(1/3 + 0.6^2) / sqrt(1/3)
}

TEST_CASE("a claim that reads a host-bound case allows the run's whole process allowance") {
  const std::vector<ClaimSpec> specs{ratio_claim(3.0, 0.10)};
  labrun::Transcript t = rounds_transcript({0.324, 0.326, 0.322}, {0.1, 0.1, 0.1});
  t.timing = labrun::TimingRecord{};
  t.timing->process_allowance = 1.0;
  t.timing->interval_method = labrun::interval_method_text(1.0);  // judged by kind of figure
  const auto gpu_bound = labrun::evaluate_claims(specs, t);
  // A transcript whose interval_method predates the rule (every committed run before it) is judged as
  // it was: k = 1 for every claim.
  labrun::Transcript older = t;
  older.timing->interval_method = "95% intervals from between-context variation (an older run)";
  const auto as_written = labrun::evaluate_claims(specs, older);
  REQUIRE(as_written[0].measured_interval.has_value());
  CHECK(std::log(as_written[0].measured_interval->high / *as_written[0].measured) /
            std::log(gpu_bound[0].measured_interval->high / *gpu_bound[0].measured) ==
        Catch::Approx(std::sqrt((1.0 / 3.0 + 1.0) / (1.0 / 3.0 + 0.36))));
  // A launch-bound size the claim does not read (the fused case at a sweep size) changes nothing.
  labrun::Transcript with_sweep = t;
  with_sweep.cases.push_back(labrun::testing::make_rounds_case(
      "lab/p2/fused", "p2", "sweep", 1024, floats(2, 1, 1), {{0.01, 0.01}, {0.011, 0.011}, {0.01, 0.01}}));
  with_sweep.cases.back().launch_check = labrun::LaunchLatencyCheck{};
  with_sweep.cases.back().launch_check->launch_bound = true;
  const auto other_size = labrun::evaluate_claims(specs, with_sweep);
  REQUIRE(other_size[0].measured_interval.has_value());
  CHECK(other_size[0].measured_interval->high == gpu_bound[0].measured_interval->high);
  // The fused case found launch-bound by its hot launch check: k = 1 for the claim that reads it.
  t.cases[1].launch_check = labrun::LaunchLatencyCheck{};
  t.cases[1].launch_check->launch_bound = true;
  const auto host_bound = labrun::evaluate_claims(specs, t);
  REQUIRE(host_bound[0].measured_interval.has_value());
  const double half_gpu = std::log(gpu_bound[0].measured_interval->high / *gpu_bound[0].measured);
  const double half_host = std::log(host_bound[0].measured_interval->high / *host_bound[0].measured);
  CHECK(half_host / half_gpu == Catch::Approx(std::sqrt((1.0 / 3.0 + 1.0) / (1.0 / 3.0 + 0.36))));
}

TEST_CASE(
    "a claim that reads the host's launch rate allows a process offset of at least 7.5%, "
    "however closely its contexts agree") {
  // Synthetic: an empty launch of 1000 launches per sample (the host's launch rate), its contexts
  // agreeing to 0.3%, as one day-20 run's did while the runs' launch rates spread by 20%.
  const std::vector<ClaimSpec> specs{ratio_claim(3.0, 0.10)};  // bound 2.70 to 3.30
  labrun::Transcript t = rounds_transcript({0.360, 0.361, 0.359}, {0.1, 0.1, 0.1});
  t.cases[1].elements = 1;
  t.cases[0].elements = 1;
  t.timing = labrun::TimingRecord{};
  t.timing->process_allowance = 1.0;
  t.timing->interval_method = labrun::interval_method_text(1.0);  // judged by kind of figure
  const auto gpu_bound = labrun::evaluate_claims(specs, t);
  CHECK(gpu_bound[0].verdict == Verdict::kFailed);  // 3.60 +- 1.3%: wholly above 3.30
  t.cases[1].launches_per_sample = 1000;
  const auto rate = labrun::evaluate_claims(specs, t);
  REQUIRE(rate[0].measured_interval.has_value());
  // t(2) sqrt(s^2 / 3 + 0.075^2) = 4.303 x 0.0751 = 32%: 3.60 x exp(-0.32) = 2.61 reaches into the bound.
  CHECK(std::log(rate[0].measured_interval->high / *rate[0].measured) ==
        Catch::Approx(4.302653 * 0.075).epsilon(0.01));
  CHECK(rate[0].verdict == Verdict::kInconclusive);
  // Many launches per sample of a large region time the GPU, not the host: no floor.
  t.cases[1].elements = kN;
  t.cases[0].elements = kN;
  const auto grid = labrun::evaluate_claims(specs, t);
  CHECK(grid[0].verdict == Verdict::kFailed);
}

TEST_CASE("with rounds, a claim of several conditions holds only when every round agrees") {
  // A rule with no single bound: held when staged is more than twice fused.
  const ClaimSpec rule =
      labrun::custom_claim("twice", "staged is more than twice fused", {"lab/p2/staged", "lab/p2/fused"},
                           [](const labrun::Transcript& t, labrun::ClaimResult& r) {
                             const double ratio = t.find_case("lab/p2/staged")->central_ms() /
                                                  t.find_case("lab/p2/fused")->central_ms();
                             r.measured = ratio;
                             r.verdict = ratio > 2.0 ? Verdict::kHeld : Verdict::kFailed;
                           });
  const auto agree = labrun::evaluate_claims({rule}, rounds_transcript({0.3, 0.31, 0.29}, {0.1, 0.1, 0.1}));
  CHECK(agree[0].verdict == Verdict::kHeld);
  CHECK(agree[0].verdict_basis == "rounds");
  CHECK(agree[0].measured_interval.has_value());  // an interval, though no bound to judge it by
  const auto disagree =
      labrun::evaluate_claims({rule}, rounds_transcript({0.3, 0.19, 0.25}, {0.1, 0.1, 0.1}));
  CHECK(disagree[0].verdict == Verdict::kInconclusive);
  CHECK_THAT(disagree[0].detail, ContainsSubstring("rounds: held 2, failed 1"));
}

TEST_CASE("a bound says its direction and its figures in the lab's own terms") {
  CHECK(labrun::at_most(1.05).words == "at most 1.05");
  CHECK(labrun::at_least(0.98).words == "at least 0.98");
  CHECK(labrun::at_least(2.0).words == "at least 2");
  CHECK(labrun::within(2.6, 0.15).words == "within 15% of 2.60");
  CHECK(labrun::within(1.0, 1.0 - 1.0 / 1.05).words == "within 4.8% of 1.00");
  CHECK(labrun::between(0.95, 1.05).words == "between 0.95 and 1.05");
  CHECK(labrun::at_most(1.05).holds(1.05));
  CHECK_FALSE(labrun::at_most(1.05).holds(1.0501));
  CHECK(labrun::at_least(0.98).holds(5.0));
  CHECK_FALSE(labrun::at_least(0.98).holds(0.97));
  CHECK(labrun::within(3.0, 0.1).holds(3.3));
  CHECK_FALSE(labrun::within(3.0, 0.1).holds(3.31));
  CHECK(labrun::between(0.8, 1.25).holds(0.8));
  CHECK_FALSE(labrun::between(0.8, 1.25).holds(1.26));
  const labrun::ClaimBound within = labrun::within(3.0, 0.1);
  CHECK(*within.expected == 3.0);
  CHECK(*within.low == Catch::Approx(2.7));
  CHECK(*within.high == Catch::Approx(3.3));
  CHECK_FALSE(labrun::at_most(1.05).expected.has_value());
}

TEST_CASE("a time ratio at most a bound: naive over tiled at most 1.05") {
  // staged over fused is 3.00: at most 3.1 holds, at most 2.9 fails; no expectation is recorded.
  const labrun::Transcript t = known_transcript(0.45, 0.15);
  const auto claim = [](double high) {
    return labrun::time_ratio_claim("not-faster", "fused is not faster", "lab/p2/staged", "lab/p2/fused",
                                    "lesson", labrun::at_most(high));
  };
  const labrun::ClaimResult held = labrun::evaluate_claim(claim(3.1), t);
  CHECK(held.verdict == Verdict::kHeld);
  CHECK(held.tolerance == "at most 3.1");
  CHECK(held.detail == "0.4500 ms / 0.1500 ms = 3.00");
  CHECK_FALSE(held.expected.has_value());
  CHECK_FALSE(held.bound_low.has_value());
  CHECK(*held.bound_high == 3.1);
  CHECK(labrun::evaluate_claim(claim(2.9), t).verdict == Verdict::kFailed);
}

namespace {

// Two cases at two sizes, with the ratio a / b given at each.
labrun::Transcript two_sizes(double small_ratio, double large_ratio) {
  labrun::Transcript t;
  t.cases.push_back(make_case_result("lab/p/a", "p", "small", 1024, floats(1, 1, 1), {0.1 * small_ratio}));
  t.cases.push_back(
      make_case_result("lab/p/a", "p", "card-scaled", 1u << 27, floats(1, 1, 1), {large_ratio}));
  t.cases.push_back(make_case_result("lab/p/b", "p", "small", 1024, floats(1, 1, 1), {0.1}));
  t.cases.push_back(make_case_result("lab/p/b", "p", "card-scaled", 1u << 27, floats(1, 1, 1), {1.0}));
  return t;
}

ClaimSpec at_every_size(double high) {
  return labrun::time_ratio_claim("every", "a is at most b", "lab/p/a", "lab/p/b", labrun::kEverySize,
                                  labrun::at_most(high));
}

}  // namespace

TEST_CASE("a claim at every size holds only where it holds at each, and names the size that decides it") {
  const labrun::ClaimResult held = labrun::evaluate_claim(at_every_size(1.05), two_sizes(0.90, 1.02));
  CHECK(held.verdict == Verdict::kHeld);
  // Reported at the size closest to its bound: 1.02 against at most 1.05.
  CHECK(*held.measured == Catch::Approx(1.02));
  CHECK_THAT(held.figures,
             ContainsSubstring("at every size they share; reported at n = 134217728 (card-scaled)"));
  CHECK_THAT(held.detail, ContainsSubstring("small (n = 1024): held, "));
  CHECK_THAT(held.detail, ContainsSubstring("card-scaled (n = 134217728): held, "));

  const labrun::ClaimResult failed = labrun::evaluate_claim(at_every_size(1.05), two_sizes(1.20, 1.00));
  CHECK(failed.verdict == Verdict::kFailed);
  CHECK(*failed.measured == Catch::Approx(1.20));
  CHECK_THAT(failed.figures, ContainsSubstring("reported at n = 1024 (small)"));

  // A size only one case ran at is not judged; a claim whose cases share none is not measured.
  labrun::Transcript lone = two_sizes(0.9, 1.0);
  lone.cases.pop_back();
  CHECK(labrun::evaluate_claim(at_every_size(1.05), lone).verdict == Verdict::kHeld);
  lone.cases.erase(lone.cases.begin() + 2);
  const labrun::ClaimResult none = labrun::evaluate_claim(at_every_size(1.05), lone);
  CHECK(none.verdict == Verdict::kNotMeasured);
  CHECK_THAT(none.detail, ContainsSubstring("no size at which lab/p/a and another of its cases both ran"));
}

namespace {

// Case `name` of part p at n (size "small" at 1024, else "large"), one round of three equal samples of
// each figure in `ms`.
labrun::CaseResult rounds_case(const std::string& name, std::uint64_t n, const std::vector<double>& ms) {
  std::vector<std::vector<double>> rounds;
  for (const double m : ms) {
    rounds.push_back({m, m, m});
  }
  return labrun::testing::make_rounds_case(name, "p", n == 1024 ? "small" : "large", n, floats(1, 1, 1),
                                           rounds);
}

}  // namespace

TEST_CASE("with rounds, a claim at every size is judged by each size's interval") {
  // a over b: about 1.00 at the small size (well inside at most 1.05), about 1.05 at the large one.
  labrun::Transcript t;
  t.cases.push_back(rounds_case("lab/p/a", 1024, {0.100, 0.101, 0.099}));
  t.cases.push_back(rounds_case("lab/p/a", 4096, {1.04, 1.06, 1.05}));
  t.cases.push_back(rounds_case("lab/p/b", 1024, {0.1, 0.1, 0.1}));
  t.cases.push_back(rounds_case("lab/p/b", 4096, {1.0, 1.0, 1.0}));
  const std::vector<labrun::ClaimResult> judged = labrun::evaluate_claims({at_every_size(1.05)}, t);
  REQUIRE(judged.size() == 1);
  CHECK(judged[0].verdict == Verdict::kInconclusive);  // the large size's interval straddles 1.05
  CHECK(judged[0].verdict_basis == "interval");
  REQUIRE(judged[0].measured_interval.has_value());
  CHECK(judged[0].measured_interval->contains(1.05));
  CHECK_THAT(judged[0].detail, ContainsSubstring("small (n = 1024): held"));
  CHECK_THAT(judged[0].detail, ContainsSubstring("large (n = 4096): inconclusive"));
}

TEST_CASE("a claim describes what it reads and its bound before anything is measured") {
  const labrun::ClaimDescription every = labrun::describe_claim(at_every_size(1.05));
  CHECK(every.kind == "time ratio");
  CHECK(every.figures == "median time of lab/p/a over lab/p/b at every size they share");
  CHECK(every.bound == "at most 1.05");
  const labrun::ClaimDescription band = labrun::describe_claim(
      labrun::bandwidth_band_claim("band", "rows", "lab/p2/copy", {"lab/p2/fused"}, "lesson", 0.95, 1.05));
  CHECK(band.kind == "bandwidth band");
  CHECK(band.bound == "every row between 0.95 and 1.05");
  // The same words a run records for it.
  const labrun::Transcript t = known_transcript(0.45, 0.15);
  const ClaimSpec ratio = ratio_claim(3.0, 0.1);
  CHECK(labrun::describe_claim(ratio).figures == labrun::evaluate_claim(ratio, t).figures);
  CHECK(labrun::describe_claim(ratio).bound == labrun::evaluate_claim(ratio, t).tolerance);
}

TEST_CASE("a claim over cases of unequal numbers of units is judged over the units they all have (1.11.0)") {
  // Synthetic: a and b at a small size in 4 rounds (each its own unit, as rounds without a context
  // are), and at a large size in the first 2 of them, as 1.11.0's small cases take more rounds.
  labrun::Transcript t;
  t.cases.push_back(rounds_case("lab/p/a", 1024, {0.100, 0.102, 0.098, 0.101}));
  t.cases.push_back(rounds_case("lab/p/a", 4096, {1.00, 1.02}));
  t.cases.push_back(rounds_case("lab/p/b", 1024, {0.1, 0.1, 0.1, 0.1}));
  t.cases.push_back(rounds_case("lab/p/b", 4096, {1.0, 1.0}));
  const auto half_width = [](const std::vector<double>& ratios) {
    double mean = 0.0;
    for (const double r : ratios) {
      mean += std::log(r) / static_cast<double>(ratios.size());
    }
    double ss = 0.0;
    for (const double r : ratios) {
      ss += (std::log(r) - mean) * (std::log(r) - mean);
    }
    const double s = std::sqrt(ss / static_cast<double>(ratios.size() - 1));
    return labrun::student_t_975(static_cast<int>(ratios.size()) - 1) * s /
           std::sqrt(static_cast<double>(ratios.size()));
  };
  // At the small size both cases have 4 units: t(3) over 4 ratios.
  const labrun::ClaimSpec small =
      labrun::time_ratio_claim("small", "a over b", "lab/p/a", "lab/p/b", "small", labrun::at_most(1.5));
  const std::vector<labrun::ClaimResult> judged = labrun::evaluate_claims({small}, t);
  REQUIRE(judged[0].measured_interval.has_value());
  CHECK(judged[0].verdict_basis == "interval");
  CHECK(std::log(judged[0].measured_interval->high / *judged[0].measured) ==
        Catch::Approx(half_width({1.00, 1.02, 0.98, 1.01})));
  // At the large size, 2 units: t(1) over 2 ratios, the views of units 3 and 4 not read.
  const labrun::ClaimSpec large =
      labrun::time_ratio_claim("large", "a over b", "lab/p/a", "lab/p/b", "large", labrun::at_most(1.5));
  const std::vector<labrun::ClaimResult> large_judged = labrun::evaluate_claims({large}, t);
  REQUIRE(large_judged[0].measured_interval.has_value());
  CHECK(large_judged[0].verdict_basis == "interval");
  CHECK(std::log(large_judged[0].measured_interval->high / *large_judged[0].measured) ==
        Catch::Approx(half_width({1.00, 1.02})));
  // At every size: each size judged over the units of its own two cases, both held.
  const labrun::ClaimSpec mixed = labrun::time_ratio_claim("every", "a over b", "lab/p/a", "lab/p/b",
                                                           labrun::kEverySize, labrun::at_most(1.5));
  const std::vector<labrun::ClaimResult> every = labrun::evaluate_claims({mixed}, t);
  CHECK(every[0].verdict == Verdict::kHeld);
  CHECK(every[0].verdict_basis == "interval");
}

namespace {

// A transcript of no timing record but one whose interval method says its claims pick on the run, as
// every run labrun makes from 2026-12-04 says.
labrun::Transcript picking_on_the_run(labrun::Transcript t) {
  t.timing = labrun::TimingRecord{};
  t.timing->interval_method = labrun::interval_method_text(0.0);
  return t;
}

double log_half_width(const labrun::ClaimResult& r) {
  return std::log(r.measured_interval->high / *r.measured);
}

}  // namespace

TEST_CASE("a per-launch claim picks its size on the run and reads that size's contexts") {
  // Synthetic: a one-launch sweep at 1024 elements in 4 units and at 65536 in the first 2 (as 1.11.0's
  // small cases take more contexts), and an empty launch of 1000 launches per sample in 4 units. The
  // run's lowest per-launch time is at 1024; in unit 2 alone the larger size is the lower one.
  labrun::Transcript t;
  t.cases.push_back(rounds_case("lab/p/sweep", 1024, {0.0020, 0.0030, 0.0021, 0.0019}));
  t.cases.push_back(rounds_case("lab/p/sweep", 65536, {0.0026, 0.0025}));
  labrun::CaseResult empty = rounds_case("lab/p/empty", 1, {4.0, 4.1, 3.9, 4.0});
  empty.launches_per_sample = 1000;
  t.cases.push_back(empty);
  const labrun::ClaimSpec spec =
      labrun::per_launch_converges_claim("launch", "converges", "lab/p/sweep", "lab/p/empty", 0.90);
  const labrun::ClaimResult picked = labrun::evaluate_claims({spec}, picking_on_the_run(t))[0];
  const labrun::ClaimResult each = labrun::evaluate_claims({spec}, t)[0];
  REQUIRE(picked.measured_interval.has_value());
  REQUIRE(each.measured_interval.has_value());
  CHECK(*picked.measured == *each.measured);  // the run's figure is the same either way
  CHECK_THAT(picked.detail, ContainsSubstring("at n = 1024"));
  // Picked on the run: the 4 contexts of n = 1024 against the empty launch's, t(3).
  std::vector<double> ratios;
  const std::vector<double> sweep{0.0020, 0.0030, 0.0021, 0.0019};
  const std::vector<double> launches{4.0, 4.1, 3.9, 4.0};
  double mean = 0.0;
  for (std::size_t u = 0; u < 4; ++u) {
    ratios.push_back(std::log(sweep[u] / (launches[u] / 1000.0)));  // one launch each, against 1000
    mean += ratios.back() / 4.0;
  }
  double ss = 0.0;
  for (const double r : ratios) {
    ss += (r - mean) * (r - mean);
  }
  CHECK(log_half_width(picked) == Catch::Approx(labrun::student_t_975(3) * std::sqrt(ss / 3.0) / 2.0));
  // Each context picking its own size (every run before): paired over the 2 contexts every size
  // shares, and unit 2 read at 65536.
  std::vector<double> own{std::log(0.0020 / 0.004), std::log(0.0025 / 0.0041)};
  const double own_mean = (own[0] + own[1]) / 2.0;
  const double own_s =
      std::sqrt((own[0] - own_mean) * (own[0] - own_mean) + (own[1] - own_mean) * (own[1] - own_mean));
  CHECK(log_half_width(each) == Catch::Approx(labrun::student_t_975(1) * own_s / std::sqrt(2.0)));
}

TEST_CASE("a not-faster claim picks its fastest case on the run, and every context reads that case") {
  // Synthetic: k2 is the fastest on the run; in unit 1 alone k4 is faster still.
  labrun::Transcript t;
  t.cases.push_back(rounds_case("lab/p/k1", kN, {1.00, 1.00, 1.00}));
  t.cases.push_back(rounds_case("lab/p/k2", kN, {0.95, 0.99, 0.97}));
  t.cases.push_back(rounds_case("lab/p/k4", kN, {1.05, 0.90, 1.10}));
  const labrun::ClaimSpec spec =
      labrun::not_faster_claim("wide", "no faster", "lab/p/k1", {"lab/p/k2", "lab/p/k4"}, "large", 0.90);
  const labrun::ClaimResult picked = labrun::evaluate_claims({spec}, picking_on_the_run(t))[0];
  const labrun::ClaimResult each = labrun::evaluate_claims({spec}, t)[0];
  REQUIRE(picked.measured_interval.has_value());
  REQUIRE(each.measured_interval.has_value());
  CHECK_THAT(picked.detail, ContainsSubstring("fastest: k2"));
  // k2 over k1 in each unit: 0.95, 0.99, 0.97; picking in each unit gives 0.95, 0.90, 0.97, wider.
  const auto half = [](const std::vector<double>& figures) {
    double mean = 0.0;
    for (const double f : figures) {
      mean += std::log(f) / 3.0;
    }
    double ss = 0.0;
    for (const double f : figures) {
      ss += (std::log(f) - mean) * (std::log(f) - mean);
    }
    return labrun::student_t_975(2) * std::sqrt(ss / 2.0) / std::sqrt(3.0);
  };
  CHECK(log_half_width(picked) == Catch::Approx(half({0.95, 0.99, 0.97})));
  CHECK(log_half_width(each) == Catch::Approx(half({0.95, 0.90, 0.97})));
}

TEST_CASE("where a sweep settles, from where each point's interval lies against the band") {
  using labrun::BandFit;
  CHECK(labrun::band_fit({1.0, 1.1}, 0.9, 1.2) == BandFit::kInside);
  CHECK(labrun::band_fit({0.8, 1.0}, 0.9, 1.2) == BandFit::kAcross);
  CHECK(labrun::band_fit({1.1, 1.3}, 0.9, 1.2) == BandFit::kAcross);
  CHECK(labrun::band_fit({0.5, 0.8}, 0.9, 1.2) == BandFit::kOutside);
  CHECK(labrun::band_fit({1.3, 1.4}, 0.9, 1.2) == BandFit::kOutside);
  // Out, out, across, inside, inside: settles at 2 if the crossing point is in, at 3 if it is not.
  const labrun::SettlingRange range = labrun::settling_range(
      {BandFit::kOutside, BandFit::kOutside, BandFit::kAcross, BandFit::kInside, BandFit::kInside});
  CHECK(range.earliest == std::size_t{2});
  CHECK(range.latest == std::size_t{3});
  // A point wholly outside after the crossing one cuts the run there.
  const labrun::SettlingRange cut =
      labrun::settling_range({BandFit::kAcross, BandFit::kOutside, BandFit::kAcross, BandFit::kInside});
  CHECK(cut.earliest == std::size_t{2});
  CHECK(cut.latest == std::size_t{3});
  // The last point across: it may settle there or never.
  const labrun::SettlingRange open =
      labrun::settling_range({BandFit::kInside, BandFit::kInside, BandFit::kAcross});
  CHECK(open.earliest == std::size_t{0});
  CHECK_FALSE(open.latest.has_value());
  // The last point outside: it never settles.
  const labrun::SettlingRange never = labrun::settling_range({BandFit::kInside, BandFit::kOutside});
  CHECK_FALSE(never.earliest.has_value());
  CHECK_FALSE(never.latest.has_value());
  CHECK_FALSE(labrun::settling_range({}).earliest.has_value());
}

TEST_CASE("a lab's rule with an interval of its own is judged by it on a run that picks on the run") {
  // Synthetic: the rule measures 2.0 against a bound of at most 3; its own interval says 1.5 to 3.5.
  labrun::ClaimSpec spec = labrun::custom_claim(
      "own", "a position", {"lab/p/a"},
      [](const labrun::Transcript&, labrun::ClaimResult& r) {
        r.measured = 2.0;
        r.bound_high = 3.0;
        r.verdict = Verdict::kHeld;
      },
      [](const labrun::Transcript&, const labrun::ClaimResult&) {
        return std::optional<labrun::Interval>(labrun::Interval{1.5, 3.5});
      });
  labrun::Transcript t;
  t.cases.push_back(rounds_case("lab/p/a", kN, {1.0, 1.0, 1.0}));
  const labrun::ClaimResult own = labrun::evaluate_claims({spec}, picking_on_the_run(t))[0];
  REQUIRE(own.measured_interval.has_value());
  CHECK(own.measured_interval->high == 3.5);
  CHECK(own.verdict == Verdict::kInconclusive);
  CHECK(own.verdict_basis == "interval");
  // A run judged before: each context measures it alone (here 2.0 in each), as that run recorded.
  const labrun::ClaimResult before = labrun::evaluate_claims({spec}, t)[0];
  CHECK(before.verdict == Verdict::kHeld);
  REQUIRE(before.measured_interval.has_value());
  CHECK(before.measured_interval->high == Catch::Approx(2.0));
}

namespace {

// Synthetic: a hot run of 3 rounds (each its own unit), staged and fused at the lesson size, each
// with 5 gated samples a round beside its hot ones (hot timing's launch check), whose interval
// method says its claims are judged on GPU time alone too.
labrun::Transcript hot_run_with_gated(double staged_hot, double staged_gated, double fused_hot,
                                      double fused_gated) {
  labrun::Transcript t = rounds_transcript({staged_hot, staged_hot * 1.002, staged_hot * 0.998},
                                           {fused_hot, fused_hot, fused_hot});
  const auto check = [](labrun::CaseResult& c, double gated) {
    std::vector<double> samples;
    for (const double drift : {1.0, 1.002, 0.998}) {
      samples.insert(samples.end(), 5, gated * drift);
    }
    c.launch_check = labrun::launch_latency_check(samples, c.summary.median);
  };
  check(t.cases[0], staged_gated);
  check(t.cases[1], fused_gated);
  t.timing = labrun::TimingRecord{};
  t.timing->mode = "hot";
  t.timing->interval_method = labrun::interval_method_text(0.0);
  return t;
}

}  // namespace

TEST_CASE(
    "in hot timing a claim whose verdict the host's launch latency decides is inconclusive, and says so") {
  const std::vector<ClaimSpec> specs{ratio_claim(3.0, 0.10)};  // bound 2.70 to 3.30
  // Hot: 0.2305 / 0.0702 = 3.28, held by its interval alone; the gate takes the host's 4.9 us out of
  // both: 0.2256 / 0.0653 = 3.45, failed (day 48's lesson size on the H200, 2026-12-05).
  const labrun::Transcript t = hot_run_with_gated(0.2305, 0.2256, 0.0702, 0.0653);
  labrun::Transcript hot_alone = t;
  hot_alone.timing->interval_method = "95% intervals from between-context variation (an older run)";
  const labrun::ClaimResult as_written = labrun::evaluate_claims(specs, hot_alone)[0];
  CHECK(as_written.verdict == Verdict::kHeld);
  CHECK_THAT(as_written.detail, !ContainsSubstring("GPU time alone"));

  const labrun::ClaimResult judged = labrun::evaluate_claims(specs, t)[0];
  CHECK(judged.verdict == Verdict::kInconclusive);
  CHECK(judged.verdict_basis == "interval");
  CHECK(*judged.measured == *as_written.measured);  // the figure is the hot one, as the lesson times it
  REQUIRE(judged.measured_interval.has_value());
  // The interval spans both readings: the hot one's low end and the gated one's high end.
  CHECK(judged.measured_interval->low == as_written.measured_interval->low);
  CHECK(judged.measured_interval->high > 3.45);
  CHECK_THAT(
      judged.detail,
      ContainsSubstring("on GPU time alone (its cases' gated samples): 3.455 (3.455 to 3.455), failed"));
  CHECK_THAT(judged.detail, ContainsSubstring("failed: the host's launch latency in the hot samples decides "
                                              "the verdict, so it is inconclusive"));
  // 1.12.0: the gated reading is recorded as a field too, as the detail gives it.
  REQUIRE(judged.gpu_alone.has_value());
  CHECK(judged.gpu_alone->measured == Catch::Approx(0.2256 / 0.0653));
  CHECK(judged.gpu_alone->measured_interval.high == Catch::Approx(0.2256 / 0.0653).epsilon(1e-3));
  CHECK(judged.gpu_alone->verdict == Verdict::kFailed);
  CHECK(judged.measured_interval->high == judged.gpu_alone->measured_interval.high);
  CHECK_FALSE(as_written.gpu_alone.has_value());

  // Where GPU time alone agrees, the verdict stands, and the detail gives the gated reading.
  const labrun::ClaimResult agreeing =
      labrun::evaluate_claims(specs, hot_run_with_gated(0.2305, 0.2256, 0.0702, 0.0720))[0];
  CHECK(agreeing.verdict == Verdict::kHeld);
  CHECK_THAT(agreeing.detail, ContainsSubstring("on GPU time alone"));
  CHECK_THAT(agreeing.detail, !ContainsSubstring("decides the verdict"));

  // Cold and hot-gated runs have no host latency in their samples to read around.
  labrun::Transcript cold = t;
  cold.timing->mode = "cold";
  CHECK(labrun::evaluate_claims(specs, cold)[0].verdict == Verdict::kHeld);
  CHECK_FALSE(labrun::evaluate_claims(specs, cold)[0].gpu_alone.has_value());

  // A claim that reads the host's launch cost on purpose (per-launch) or a lab's own rule is not.
  labrun::Transcript launches = t;
  labrun::CaseResult empty = labrun::testing::make_rounds_case("lab/p1/empty", "p1", "single", 1,
                                                               floats(0, 0, 1), {{0.5}, {0.5}, {0.5}});
  empty.launches_per_sample = 100;
  launches.cases.push_back(empty);
  const ClaimSpec per_launch = labrun::per_launch_converges_claim("per-launch", "staged per launch",
                                                                  "lab/p2/staged", "lab/p1/empty", 0.20);
  CHECK_THAT(labrun::evaluate_claims({per_launch}, launches)[0].detail, !ContainsSubstring("GPU time alone"));
  CHECK_FALSE(labrun::evaluate_claims({per_launch}, launches)[0].gpu_alone.has_value());
}

TEST_CASE("the cases a claim sets against a bound, by name and size") {
  const std::vector<ClaimSpec> claims{
      ratio_claim(3.0, 0.10),
      labrun::time_ratio_claim("every", "a over b", "lab/p/a", "lab/p/b", labrun::kEverySize,
                               labrun::at_most(2.0)),
      labrun::per_launch_converges_claim("per-launch", "per launch", "lab/p3/staged", "lab/p1/empty", 0.2),
      labrun::bitwise_equal_claim("bitwise", "agree", "fused", "staged", false),
  };
  CHECK(labrun::reads_against_a_bound(claims, "lab/p2/staged", "lesson"));
  CHECK(labrun::reads_against_a_bound(claims, "lab/p2/fused", "lesson"));
  CHECK_FALSE(labrun::reads_against_a_bound(claims, "lab/p2/staged", "card-scaled"));
  CHECK(labrun::reads_against_a_bound(claims, "lab/p/b", "sweep"));              // at every size
  CHECK_FALSE(labrun::reads_against_a_bound(claims, "lab/p3/staged", "sweep"));  // the host's launch cost
  CHECK_FALSE(labrun::reads_against_a_bound(claims, "lab/p1/empty", "single"));
  CHECK_FALSE(labrun::reads_against_a_bound(claims, "staged", "lesson"));
}

TEST_CASE(
    "in hot timing a claim whose hot figure is too noisy for its tolerance rests on its gated reading") {
  // Synthetic: within 2% of 3.00 (bound 2.94 to 3.06). The hot ratio moves by 4% between the three
  // contexts (3.60, 3.74, 3.46): more than the tolerance, so the hot samples alone cannot judge it.
  const std::vector<ClaimSpec> specs{ratio_claim(3.0, 0.02)};
  labrun::Transcript t = rounds_transcript({0.360, 0.3744, 0.3456}, {0.1, 0.1, 0.1});
  const auto check = [](labrun::CaseResult& c, const std::vector<double>& per_round) {
    std::vector<double> samples;
    for (const double gated : per_round) {
      samples.insert(samples.end(), 5, gated);
    }
    c.launch_check = labrun::launch_latency_check(samples, c.summary.median);
  };
  t.timing = labrun::TimingRecord{};
  t.timing->mode = "hot";
  t.timing->interval_method = labrun::interval_method_text(0.0);
  labrun::Transcript hot_alone = t;
  hot_alone.timing->interval_method = "95% intervals from between-context variation (an older run)";
  const labrun::ClaimResult noisy = labrun::evaluate_claims(specs, hot_alone)[0];
  CHECK(noisy.verdict == Verdict::kInconclusive);
  CHECK(noisy.verdict_basis == "noise");

  // On GPU time alone the ratio moves by 0.2% (3.50, 3.507, 3.493): it fails, and both intervals lie
  // above the bound, so the claim fails on the gated reading with the hot interval spanned in.
  check(t.cases[0], {0.3500, 0.3507, 0.3493});
  check(t.cases[1], {0.1, 0.1, 0.1});
  const labrun::ClaimResult rests = labrun::evaluate_claims(specs, t)[0];
  CHECK(rests.verdict == Verdict::kFailed);
  CHECK(rests.verdict_basis == "interval");
  REQUIRE(rests.measured_interval.has_value());
  CHECK(rests.measured_interval->low == noisy.measured_interval->low);
  CHECK_THAT(rests.detail, ContainsSubstring("this run cannot judge it; on GPU time alone"));
  CHECK_THAT(rests.detail,
             ContainsSubstring("which moves less than its tolerance, so the claim rests on it, the hot "
                               "interval spanned in: failed"));

  // A gated reading as noisy as the hot one leaves the claim inconclusive by its noise.
  check(t.cases[0], {0.360, 0.3744, 0.3456});
  const labrun::ClaimResult still_noisy = labrun::evaluate_claims(specs, t)[0];
  CHECK(still_noisy.verdict == Verdict::kInconclusive);
  CHECK(still_noisy.verdict_basis == "noise");
}
