#include "fusion-verdicts/rules.hpp"

#include <algorithm>
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

#include "claims/claims.hpp"
#include "core/statistics.hpp"
#include "support/sample_transcript.hpp"
#include "verdicts_sample.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;
using labrun::ClaimResult;
using labrun::Verdict;
using verdicts::case_name;
using verdicts::testing::set_ms;

const std::string kPairUnfused = case_name(verdicts::kPairPart, "two-passes");
const std::string kPairFused = case_name(verdicts::kPairPart, "fused");

// The lab's claim with this id, evaluated on t.
ClaimResult judged(const labrun::Transcript& t, const std::string& id) {
  const labrun::Lab lab = verdicts::make_lab();
  for (const labrun::ClaimSpec& spec : lab.claims) {
    if (spec.id == id) {
      return labrun::evaluate_claim(spec, t);
    }
  }
  FAIL("no claim " << id);
  return {};
}

// Sets the pair's two-passes median at n to fused x speedup.
void set_pair_speedup(labrun::Transcript& t, std::uint64_t n, double speedup) {
  for (const labrun::CaseResult* fused : t.cases_named(kPairFused)) {
    if (fused->elements == n) {
      const double ms = fused->central_ms() * speedup;
      for (labrun::CaseResult& c : t.cases) {
        if (c.name == kPairUnfused && c.elements == n) {
          c.samples_ms = {ms, ms, ms};
          c.summary = labrun::summarize(c.samples_ms);
        }
      }
    }
  }
}

void drop_pair_above(labrun::Transcript& t, std::uint64_t n) {
  std::erase_if(t.cases,
                [&](const labrun::CaseResult& c) { return c.part == verdicts::kPairPart && c.elements > n; });
}

}  // namespace

TEST_CASE("every claim holds on the sample transcript, with the figures it was built from") {
  const labrun::Transcript t = verdicts::testing::sample_transcript();
  REQUIRE(t.claims.size() == 8);
  for (const ClaimResult& c : t.claims) {
    INFO(c.id << ": " << c.detail);
    CHECK(c.verdict == Verdict::kHeld);
  }
  CHECK(*judged(t, verdicts::kPairClaim).measured == Catch::Approx(1.96));
  CHECK(*judged(t, verdicts::kSumClaim).measured == Catch::Approx(3.0));
  CHECK(*judged(t, verdicts::kSumClaim).expected == Catch::Approx(3.0));
  CHECK(*judged(t, verdicts::kNormaliseClaim).measured == Catch::Approx(0.59 / 0.60));
  CHECK(*judged(t, verdicts::kStencilClaim).measured == Catch::Approx(2.0));
  CHECK(*judged(t, verdicts::kCheapReuseClaim).measured == Catch::Approx(1.1 + 0.4 / 256.0));
  CHECK(*judged(t, verdicts::kExpensiveReuseClaim).measured == 2.0);
}

TEST_CASE("the L2 crossover: the settling size as a multiple of the L2") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  const ClaimResult settled = judged(t, verdicts::kCrossoverClaim);
  CHECK(settled.verdict == Verdict::kHeld);
  // 2^24 floats = 64 MiB over a 60 MiB L2.
  CHECK(*settled.measured == Catch::Approx(67108864.0 / 62914560.0));
  CHECK(*settled.expected == 1.0);
  CHECK_THAT(settled.detail, ContainsSubstring("settles from n = 16777216"));
  CHECK_THAT(settled.detail, ContainsSubstring("at n = 8388608 (0.53 x L2) it was 1.40"));

  SECTION("no dip: the speedup is at the byte ratio from the smallest n, far below the L2") {
    for (std::uint64_t n = 1u << 19; n <= (1u << 23); n *= 2) {
      set_pair_speedup(t, n, 1.98);
    }
    const ClaimResult flat = judged(t, verdicts::kCrossoverClaim);
    CHECK(flat.verdict == Verdict::kFailed);
    CHECK(*flat.measured == Catch::Approx(4096.0 / 62914560.0));
    CHECK_THAT(flat.detail, ContainsSubstring("at the byte ratio at every size swept"));
  }
  SECTION("settling late, at 8 x L2") {
    for (std::uint64_t n = 1u << 24; n <= (1u << 26); n *= 2) {
      set_pair_speedup(t, n, 1.6);
    }
    const ClaimResult late = judged(t, verdicts::kCrossoverClaim);
    CHECK(late.verdict == Verdict::kFailed);
    CHECK(*late.measured == Catch::Approx(536870912.0 / 62914560.0));
  }
  SECTION("off the byte ratio at the largest n: it never settles") {
    set_pair_speedup(t, std::uint64_t{1} << 27, 2.5);
    const ClaimResult never = judged(t, verdicts::kCrossoverClaim);
    CHECK(never.verdict == Verdict::kFailed);
    CHECK_FALSE(never.measured.has_value());
    CHECK_THAT(never.detail, ContainsSubstring("never settles"));
  }
  SECTION("a sweep that stops short of 2 x L2 is not measured") {
    drop_pair_above(t, std::uint64_t{1} << 24);
    const ClaimResult short_sweep = judged(t, verdicts::kCrossoverClaim);
    CHECK(short_sweep.verdict == Verdict::kNotMeasured);
    CHECK_THAT(short_sweep.detail, ContainsSubstring("must reach 2 x L2"));
  }
  SECTION("no L2 size, no crossover") {
    t.environment[0].facts.pop_back();
    CHECK(judged(t, verdicts::kCrossoverClaim).verdict == Verdict::kNotMeasured);
  }
}

TEST_CASE("folding the pointwise stage in: at least 90% of the byte ratio, more allowed") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  const std::string two = case_name(verdicts::kSumPart, "two-kernels");
  set_ms(t, two, "card-scaled", 0.80);  // x4.0: faster than the bytes predict
  CHECK(judged(t, verdicts::kSumClaim).verdict == Verdict::kHeld);
  set_ms(t, two, "card-scaled", 0.55);  // x2.75: 8% short
  CHECK(judged(t, verdicts::kSumClaim).verdict == Verdict::kHeld);
  set_ms(t, two, "card-scaled", 0.50);  // x2.5: 17% short
  const ClaimResult shortfall = judged(t, verdicts::kSumClaim);
  CHECK(shortfall.verdict == Verdict::kFailed);
  CHECK(*shortfall.measured == Catch::Approx(2.5));
  std::erase_if(t.cases, [&](const labrun::CaseResult& c) { return c.name == two; });
  CHECK(judged(t, verdicts::kSumClaim).verdict == Verdict::kNotMeasured);
}

TEST_CASE("the grid barrier: held unless the cooperative kernel is more than 10% faster") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  const std::string cooperative = case_name(verdicts::kNormalisePart, "cooperative");
  set_ms(t, cooperative, "card-scaled", 0.70);  // slower: still do not fuse
  CHECK(judged(t, verdicts::kNormaliseClaim).verdict == Verdict::kHeld);
  set_ms(t, cooperative, "card-scaled", 0.50);  // 17% faster
  CHECK(judged(t, verdicts::kNormaliseClaim).verdict == Verdict::kFailed);
}

TEST_CASE("the eliminated traffic against the copy floor, pair by pair") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  const ClaimResult held = judged(t, verdicts::kEliminatedClaim);
  CHECK(held.verdict == Verdict::kHeld);
  // The stencil pair is furthest from the copy: 2^30 B in 0.42 ms over 2^30 B in 0.4 ms.
  CHECK(*held.measured == Catch::Approx(0.4 / 0.42));
  CHECK_THAT(held.detail, ContainsSubstring("copy floor 2684.4 GB/s"));

  SECTION("a saving far larger than its bytes explain") {
    set_ms(t, case_name(verdicts::kSumPart, "two-kernels"), "card-scaled", 0.30);  // 0.1 ms saved
    const ClaimResult fast = judged(t, verdicts::kEliminatedClaim);
    CHECK(fast.verdict == Verdict::kFailed);
    CHECK(*fast.measured == Catch::Approx(4.0));
  }
  SECTION("a fusion that saves no time") {
    set_ms(t, case_name(verdicts::kStencilPart, verdicts::stencil_case(1, true)), "card-scaled", 0.90);
    const ClaimResult none = judged(t, verdicts::kEliminatedClaim);
    CHECK(none.verdict == Verdict::kFailed);
    CHECK(*none.measured == 0.0);
    CHECK_THAT(none.detail, ContainsSubstring("no time saved"));
  }
  SECTION("no copy floor, no yardstick") {
    std::erase_if(t.cases, [](const labrun::CaseResult& c) { return c.part == verdicts::kFloorPart; });
    CHECK(judged(t, verdicts::kEliminatedClaim).verdict == Verdict::kNotMeasured);
  }
}

TEST_CASE("recompute or materialise: the cheap and the expensive value") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  SECTION("materialising the cheap value wins somewhere") {
    set_ms(t, case_name(verdicts::kReusePart, verdicts::reuse_case(false, false, 64)), "", 0.06);
    const ClaimResult cheap = judged(t, verdicts::kCheapReuseClaim);
    CHECK(cheap.verdict == Verdict::kFailed);
    CHECK(*cheap.measured == Catch::Approx(0.06 / 0.07));
    CHECK_THAT(cheap.detail, ContainsSubstring("lowest 0.86 at R = 64"));
  }
  SECTION("recompute still wins at the largest R") {
    set_ms(t, case_name(verdicts::kReusePart, verdicts::reuse_case(true, false, 256)), "", 0.2);
    const ClaimResult expensive = judged(t, verdicts::kExpensiveReuseClaim);
    CHECK(expensive.verdict == Verdict::kFailed);
    CHECK_FALSE(expensive.measured.has_value());
  }
  SECTION("materialise already wins at R = 1: no crossover inside the sweep") {
    set_ms(t, case_name(verdicts::kReusePart, verdicts::reuse_case(true, false, 1)), "", 0.15);
    const ClaimResult expensive = judged(t, verdicts::kExpensiveReuseClaim);
    CHECK(expensive.verdict == Verdict::kFailed);
    CHECK(*expensive.measured == 1.0);
  }
  SECTION("a crossover further out") {
    for (const unsigned reuse : {2u, 4u, 8u}) {
      set_ms(t, case_name(verdicts::kReusePart, verdicts::reuse_case(true, false, reuse)), "", 0.17);
    }
    const ClaimResult expensive = judged(t, verdicts::kExpensiveReuseClaim);
    CHECK(expensive.verdict == Verdict::kHeld);
    CHECK(*expensive.measured == 16.0);
    CHECK_THAT(expensive.detail, ContainsSubstring("recompute up to R = 8, materialise from R = 16"));
  }
  SECTION("no recompute cases: not measured") {
    std::erase_if(t.cases, [](const labrun::CaseResult& c) { return c.part == verdicts::kReusePart; });
    CHECK(judged(t, verdicts::kCheapReuseClaim).verdict == Verdict::kNotMeasured);
    CHECK(judged(t, verdicts::kExpensiveReuseClaim).verdict == Verdict::kNotMeasured);
  }
}

namespace {

// Synthetic: the sample's pair in 3 CUDA contexts. fused takes its median in each; two-passes takes
// fused x its speedup, spread by 0.5% between contexts, and at 2^24 the speedups `at_2_24` (one per
// context). `pick_on_the_run`: the interval method of the runs labrun makes from 2026-12-04.
labrun::Transcript pair_in_contexts(labrun::Transcript t, const std::vector<double>& at_2_24,
                                    bool pick_on_the_run) {
  const std::vector<double> spread{1.0, 1.005, 0.995};
  std::vector<std::pair<std::uint64_t, double>> fused_ms;
  for (const labrun::CaseResult* fused : t.cases_named(kPairFused)) {
    fused_ms.emplace_back(fused->elements, fused->central_ms());
  }
  for (labrun::CaseResult& c : t.cases) {
    if (c.part != verdicts::kPairPart || (c.name != kPairFused && c.name != kPairUnfused)) {
      continue;
    }
    const auto fused = std::find_if(fused_ms.begin(), fused_ms.end(),
                                    [&](const auto& entry) { return entry.first == c.elements; });
    REQUIRE(fused != fused_ms.end());
    std::vector<std::vector<double>> rounds;
    for (std::size_t u = 0; u < spread.size(); ++u) {
      double ms = c.central_ms();
      if (c.name == kPairUnfused) {
        ms = c.elements == (std::uint64_t{1} << 24) ? fused->second * at_2_24[u] : ms * spread[u];
      }
      rounds.push_back({ms, ms, ms});
    }
    c = labrun::testing::make_rounds_case(c.name, c.part, c.size_label, c.elements, c.model, rounds);
  }
  if (!t.timing) {
    t.timing = labrun::TimingRecord{};
  }
  t.timing->interval_method =
      pick_on_the_run ? labrun::interval_method_text(0.0) : "95% intervals from between-context variation";
  return t;
}

// The lab's claim with this id, judged over the run's CUDA contexts (labrun::evaluate_claims).
ClaimResult judged_over_contexts(const labrun::Transcript& t, const std::string& id) {
  const labrun::Lab lab = verdicts::make_lab();
  for (const ClaimResult& result : labrun::evaluate_claims(lab.claims, t)) {
    if (result.id == id) {
      return result;
    }
  }
  FAIL("no claim " << id);
  return {};
}

}  // namespace

TEST_CASE("the L2 crossover's interval runs from where it may settle to where it surely has") {
  // At 2^24 (1.07 x L2) the speedup is 1.83, 1.78 and 1.82 in the three contexts: the run's figure is
  // inside the band 1.8 to 2.2 and its interval crosses 1.8; from 2^25 on every size is inside it.
  const std::vector<double> at_2_24{1.83, 1.78, 1.82};
  const labrun::Transcript picked = pair_in_contexts(verdicts::testing::sample_transcript(), at_2_24, true);
  const ClaimResult settled = judged_over_contexts(picked, verdicts::kCrossoverClaim);
  CHECK(*settled.measured == Catch::Approx(67108864.0 / 62914560.0));
  REQUIRE(settled.measured_interval.has_value());
  // From 2^24 (if it is settled there) to 2^25 (2.13 x L2): both inside 0.25 to 4 x L2.
  CHECK(settled.measured_interval->low == Catch::Approx(67108864.0 / 62914560.0));
  CHECK(settled.measured_interval->high == Catch::Approx(134217728.0 / 62914560.0));
  CHECK(settled.verdict == Verdict::kHeld);
  CHECK(settled.verdict_basis == "interval");
  // Judged as runs before it were: each context finds its own size (2^24, 2^25, 2^24), and the
  // interval is a t(2) one over those positions' logarithms, whatever lies between the sizes.
  const labrun::Transcript each = pair_in_contexts(verdicts::testing::sample_transcript(), at_2_24, false);
  const ClaimResult position = judged_over_contexts(each, verdicts::kCrossoverClaim);
  REQUIRE(position.measured_interval.has_value());
  const double lower = std::log(67108864.0 / 62914560.0);
  const double upper = std::log(134217728.0 / 62914560.0);
  const double mean = (2.0 * lower + upper) / 3.0;
  const double s = std::sqrt((2.0 * (lower - mean) * (lower - mean) + (upper - mean) * (upper - mean)) / 2.0);
  CHECK(position.measured_interval->high ==
        Catch::Approx(67108864.0 / 62914560.0 * std::exp(labrun::student_t_975(2) * s / std::sqrt(3.0))));

  SECTION("the largest size's interval crossing the band: it may never settle inside the sweep") {
    labrun::Transcript t = verdicts::testing::sample_transcript();
    set_pair_speedup(t, std::uint64_t{1} << 27, 2.19);  // 2^27: 0.5% inside the band's upper end
    const labrun::Transcript open = pair_in_contexts(t, {1.96, 1.96, 1.96}, true);
    const ClaimResult result = judged_over_contexts(open, verdicts::kCrossoverClaim);
    REQUIRE(result.measured_interval.has_value());
    // Past the sweep: twice the largest size's 8.53 x L2.
    CHECK(result.measured_interval->high == Catch::Approx(2.0 * 536870912.0 / 62914560.0));
    CHECK(result.verdict == Verdict::kInconclusive);
  }
}
