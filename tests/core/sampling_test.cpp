#include "core/sampling.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

using labrun::SamplingRule;
using labrun::StopReason;

namespace {

std::vector<double> constant(std::size_t count, double value) {
  return std::vector<double>(count, value);
}

}  // namespace

TEST_CASE("the median's confidence interval comes from order statistics") {
  CHECK(std::isinf(labrun::relative_median_ci({1.0, 2.0, 3.0, 4.0, 5.0})));
  CHECK(labrun::relative_median_ci(constant(20, 2.0)) == 0.0);
  // 1..100: ranks 50 - 9.8 and 51 + 9.8, widened outwards to whole ranks 40 and 61.
  std::vector<double> ramp;
  for (int i = 100; i >= 1; --i) {
    ramp.push_back(i);
  }
  CHECK(labrun::relative_median_ci(ramp) == (61.0 - 40.0) / 50.5);
  // A far outlier moves neither end of the interval.
  std::vector<double> tight = constant(40, 1.0);
  tight.push_back(1000.0);
  CHECK(labrun::relative_median_ci(tight) == 0.0);
}

TEST_CASE("sampling stops when the median converges, at the cap or at the time limit") {
  SamplingRule rule;
  rule.min_samples = 10;
  rule.max_samples = 50;
  rule.target_relative_median_ci = 0.005;
  rule.case_time_limit_s = 1.0;
  CHECK_FALSE(labrun::stop_reason(rule, constant(9, 1.0), 0.0).has_value());  // below the minimum
  CHECK(labrun::stop_reason(rule, constant(10, 1.0), 0.0) == StopReason::kMedianConverged);
  std::vector<double> noisy;
  noisy.reserve(50);
  for (int i = 0; i < 20; ++i) {
    noisy.push_back(i % 2 == 0 ? 1.0 : 2.0);
  }
  CHECK_FALSE(labrun::stop_reason(rule, noisy, 0.5).has_value());
  CHECK(labrun::stop_reason(rule, noisy, 1.0) == StopReason::kTimeLimit);
  noisy.resize(50, 1.5);
  for (std::size_t i = 20; i < 50; ++i) {
    noisy[i] = i % 2 == 0 ? 1.0 : 2.0;
  }
  CHECK(labrun::stop_reason(rule, noisy, 0.1) == StopReason::kSampleCap);
  // Not adaptive: exactly the minimum, whatever the spread.
  rule.target_relative_median_ci = 0.0;
  CHECK_FALSE(labrun::stop_reason(rule, constant(9, 1.0), 5.0).has_value());
  CHECK(labrun::stop_reason(rule, noisy, 0.0) == StopReason::kFixedCount);
}

TEST_CASE("modes, orders and stop reasons round-trip through their names") {
  for (const auto mode : {labrun::TimingMode::kHot, labrun::TimingMode::kCold}) {
    CHECK(labrun::timing_mode_from_name(labrun::timing_mode_name(mode)) == mode);
  }
  for (const auto order :
       {labrun::CaseOrder::kDeclared, labrun::CaseOrder::kShuffle, labrun::CaseOrder::kInterleave}) {
    CHECK(labrun::case_order_from_name(labrun::case_order_name(order)) == order);
  }
  for (const auto reason : {StopReason::kMedianConverged, StopReason::kTimeLimit, StopReason::kSampleCap,
                            StopReason::kFixedCount}) {
    CHECK(labrun::stop_reason_from_name(labrun::stop_reason_name(reason)) == reason);
  }
  CHECK_THROWS_AS(labrun::timing_mode_from_name("warm"), std::invalid_argument);
  CHECK_THROWS_AS(labrun::case_order_from_name("random"), std::invalid_argument);
}

TEST_CASE("a shuffled order is a seeded permutation") {
  const auto order = labrun::shuffled_order(40, 48);
  CHECK(order.size() == 40);
  CHECK(std::set<std::size_t>(order.begin(), order.end()).size() == 40);
  CHECK(order == labrun::shuffled_order(40, 48));
  CHECK(order != labrun::shuffled_order(40, 49));
  std::vector<std::size_t> identity(40);
  for (std::size_t i = 0; i < 40; ++i) {
    identity[i] = i;
  }
  CHECK(order != identity);
  CHECK(labrun::shuffled_order(0, 1).empty());
}

TEST_CASE("cycles per execution come from each sample's own clock") {
  // 1 ms at 2000 MHz over 10 executions is 200,000 cycles each; unread clocks are left out.
  const auto cycles = labrun::median_cycles({1.0, 2.0, 1.0}, {2000.0, std::nullopt, 1000.0}, 10);
  REQUIRE(cycles.has_value());
  CHECK(*cycles == (200000.0 + 100000.0) / 2.0);
  CHECK_FALSE(labrun::median_cycles({1.0}, {std::nullopt}, 1).has_value());
  CHECK(labrun::throttled_samples({1980.0, 1500.0, std::nullopt, 1880.0}, 1881.0) ==
        std::vector<std::size_t>{1, 3});
}

TEST_CASE("a sample is kept at the precision of the float a CUDA event gives") {
  // cudaEventElapsedTime's float 0.058368f is 0.058368001133203506 as a double: 17 digits of which 8
  // are the event's.
  const double from_event = static_cast<double>(0.058368f);
  const double kept = labrun::event_precision_ms(from_event);
  CHECK(kept == 0.058368);
  CHECK(static_cast<float>(kept) == 0.058368f);  // the same float: nothing measured is lost
  // A batch's time over its count, rounded to a float's precision too.
  CHECK(static_cast<float>(labrun::event_precision_ms(1.0 / 3.0)) == static_cast<float>(1.0 / 3.0));
  CHECK(labrun::event_precision_ms(40.84664) == 40.84664);
  CHECK(labrun::event_precision_ms(0.0) == 0.0);
  CHECK(std::isinf(labrun::event_precision_ms(std::numeric_limits<double>::infinity())));
  CHECK(std::isnan(labrun::event_precision_ms(std::nan(""))));
}

TEST_CASE("hot timing's launch check: small cases, and the cases a claim sets against a bound up to 2^24") {
  using labrun::launch_check_applies;
  using labrun::TimingMode;
  constexpr std::uint64_t kSmall = std::uint64_t{1} << 18;
  constexpr std::uint64_t kLesson = std::uint64_t{1} << 24;
  CHECK(launch_check_applies(TimingMode::kHot, kSmall, 4, false));
  CHECK_FALSE(launch_check_applies(TimingMode::kHot, kSmall + 1, 4, false));
  // A case a claim sets against a bound: checked up to the lesson's size, not beyond.
  CHECK(launch_check_applies(TimingMode::kHot, kLesson, 4, true));
  CHECK_FALSE(launch_check_applies(TimingMode::kHot, kLesson + 1, 4, true));
  // More launches between one pair of events than the gate can hold: never, at any size.
  CHECK_FALSE(launch_check_applies(TimingMode::kHot, 1, 1000, true));
  CHECK(launch_check_applies(TimingMode::kHot, 1, labrun::kMaxGatedLaunchesPerSample, false));
  // Only hot timing has a launch latency in its samples to check.
  CHECK_FALSE(launch_check_applies(TimingMode::kCold, kSmall, 4, true));
  CHECK_FALSE(launch_check_applies(TimingMode::kHotGated, kSmall, 4, true));
}
