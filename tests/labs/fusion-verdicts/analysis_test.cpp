#include "fusion-verdicts/analysis.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "verdicts_sample.hpp"

namespace {

using verdicts::case_name;
using verdicts::PairPoint;
using verdicts::ReusePoint;

PairPoint point(std::uint64_t n, double speedup) {
  PairPoint p;
  p.elements = n;
  p.speedup = speedup;
  p.byte_ratio = 2.0;
  return p;
}

ReusePoint reuse_point(unsigned reuse, double ratio) {
  ReusePoint p;
  p.reuse = reuse;
  p.recompute_ms = 1.0;
  p.materialise_ms = ratio;
  p.ratio = ratio;
  return p;
}

}  // namespace

TEST_CASE("a pair at one size: speedup, byte ratio and the bandwidth of the eliminated traffic") {
  const labrun::Transcript t = verdicts::testing::sample_transcript();
  const std::optional<PairPoint> p =
      verdicts::pair_at(t, case_name(verdicts::kSumPart, "two-kernels"),
                        case_name(verdicts::kSumPart, "folded"), "card-scaled");
  REQUIRE(p.has_value());
  CHECK(p->elements == verdicts::kSweepLast);
  CHECK(p->speedup == Catch::Approx(3.0));
  CHECK(p->byte_ratio == Catch::Approx(3.0));
  CHECK(p->eliminated_bytes == Catch::Approx(8.0 * static_cast<double>(verdicts::kSweepLast)));
  // 2^30 bytes removed, 0.4 ms saved.
  REQUIRE(p->eliminated_gb_per_s.has_value());
  CHECK(*p->eliminated_gb_per_s == Catch::Approx(2684.35456));
  // The same bytes: nothing eliminated, so no bandwidth.
  const std::optional<PairPoint> same =
      verdicts::pair_at(t, case_name(verdicts::kNormalisePart, "two-kernels"),
                        case_name(verdicts::kNormalisePart, "cooperative"), "card-scaled");
  REQUIRE(same.has_value());
  CHECK_FALSE(same->eliminated_gb_per_s.has_value());
  CHECK_FALSE(verdicts::pair_at(t, case_name(verdicts::kSumPart, "two-kernels"),
                                case_name(verdicts::kSumPart, "folded"), "sweep")
                  .has_value());
}

TEST_CASE("the pair swept: every n once, ascending") {
  const labrun::Transcript t = verdicts::testing::sample_transcript();
  const std::vector<PairPoint> points = verdicts::pair_sweep(t, case_name(verdicts::kPairPart, "two-passes"),
                                                             case_name(verdicts::kPairPart, "fused"));
  REQUIRE(points.size() == 18);
  CHECK(points.front().elements == 1024);
  CHECK(points.back().elements == verdicts::kSweepLast);
  CHECK(points.back().size_label == "card-scaled");
  for (std::size_t i = 1; i < points.size(); ++i) {
    CHECK(points[i].elements == 2 * points[i - 1].elements);
  }
  CHECK(points[10].speedup == Catch::Approx(1.40));  // 2^20
}

TEST_CASE("the settling index is the start of the last run at the byte ratio") {
  // Launch-bound at the byte ratio, a dip while the intermediate fits, then settled.
  std::vector<PairPoint> points{point(1, 1.98), point(2, 1.4), point(4, 1.5), point(8, 1.85), point(16, 2.1)};
  REQUIRE(verdicts::settling_index(points, 0.10).has_value());
  CHECK(*verdicts::settling_index(points, 0.10) == 3);
  // Within 10% means 1.8 to 2.2 inclusive.
  points[2].speedup = 1.8;
  CHECK(*verdicts::settling_index(points, 0.10) == 2);
  points[4].speedup = 2.3;  // the largest n is off: never settles
  CHECK_FALSE(verdicts::settling_index(points, 0.10).has_value());
  CHECK_FALSE(verdicts::settling_index({}, 0.10).has_value());
  const std::vector<PairPoint> always{point(1, 2.0), point(2, 1.99)};
  CHECK(*verdicts::settling_index(always, 0.10) == 0);
}

TEST_CASE("the L2 size comes from the device facts") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  REQUIRE(verdicts::l2_bytes(t).has_value());
  CHECK(*verdicts::l2_bytes(t) == 62914560.0);
  t.environment[0].facts[1] = labrun::Fact::unknown("l2_bytes", "not readable");
  CHECK_FALSE(verdicts::l2_bytes(t).has_value());
  t.environment.clear();
  CHECK_FALSE(verdicts::l2_bytes(t).has_value());
}

TEST_CASE("the reuse sweep and where materialising starts to win") {
  const labrun::Transcript t = verdicts::testing::sample_transcript();
  const std::vector<ReusePoint> cheap = verdicts::reuse_sweep(t, false);
  const std::vector<ReusePoint> expensive = verdicts::reuse_sweep(t, true);
  REQUIRE(cheap.size() == 9);
  REQUIRE(expensive.size() == 9);
  CHECK(cheap.front().ratio == Catch::Approx(1.5));
  CHECK_FALSE(verdicts::materialise_wins_from(cheap).has_value());
  REQUIRE(verdicts::materialise_wins_from(expensive).has_value());
  CHECK(expensive[*verdicts::materialise_wins_from(expensive)].reuse == 2);
  CHECK(verdicts::reuse_summary(cheap) == "recompute wins at every R (R = 1 to 256)");
  CHECK(verdicts::reuse_summary(expensive) == "recompute up to R = 1, materialise from R = 2");
  CHECK(verdicts::reuse_summary({}) == "not run");
  CHECK(verdicts::reuse_summary({reuse_point(1, 0.9), reuse_point(2, 0.8)}) ==
        "materialise wins at every R (R = 1 to 2)");
  CHECK(verdicts::reuse_summary({reuse_point(1, 1.2), reuse_point(2, 0.8), reuse_point(4, 1.1)}) ==
        "recompute wins at the largest R (R = 1 to 4)");
}
