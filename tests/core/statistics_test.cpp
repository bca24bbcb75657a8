#include "core/statistics.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <limits>
#include <vector>

TEST_CASE("median of odd and even counts - unsorted input") {
  CHECK(labrun::median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(labrun::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(labrun::median({}) == 0.0);
}

TEST_CASE("summary of samples") {
  const labrun::SampleSummary s = labrun::summarize({1.0, 2.0, 4.0, 3.0, 10.0});
  CHECK(s.count == 5);
  CHECK(s.median == 3.0);
  CHECK(s.mean == Catch::Approx(4.0));
  CHECK(s.min == 1.0);
  CHECK(s.max == 10.0);
  CHECK(s.relative_spread == Catch::Approx(3.0));  // (10 - 1) / 3
}

TEST_CASE("summary of nothing is zero") {
  const labrun::SampleSummary s = labrun::summarize({});
  CHECK(s.count == 0);
  CHECK(s.median == 0.0);
  CHECK(s.relative_spread == 0.0);
}

TEST_CASE("relative difference is symmetric and relative to the mean") {
  CHECK(labrun::relative_difference(1.0, 1.01) == Catch::Approx(0.01 / 1.005));
  CHECK(labrun::relative_difference(1.01, 1.0) == labrun::relative_difference(1.0, 1.01));
  CHECK(labrun::relative_difference(0.0, 0.0) == 0.0);
}

TEST_CASE("Student's t quantile for two-sided 95% intervals") {
  CHECK(labrun::student_t_975(1) == Catch::Approx(12.706205));
  CHECK(labrun::student_t_975(4) == Catch::Approx(2.776445));
  CHECK(labrun::student_t_975(30) == Catch::Approx(2.042272));
  // Beyond the table, the expansion continues it smoothly towards the normal quantile.
  CHECK(labrun::student_t_975(31) < labrun::student_t_975(30));
  CHECK(labrun::student_t_975(40) == Catch::Approx(2.021075).margin(1e-5));
  CHECK(labrun::student_t_975(100) == Catch::Approx(1.983972).margin(1e-5));
  CHECK(labrun::student_t_975(0) == std::numeric_limits<double>::infinity());
}

TEST_CASE("a between-round interval is a t-interval on the logarithms, centred on the run's figure") {
  // Rounds at 0.9, 1.0 and 1.1 of the figure: on the log scale, s = 0.1 (nearly) and t(2) = 4.30.
  const std::vector<double> rounds{2.7, 3.0, 3.3};
  const auto interval = labrun::between_round_interval(3.0, rounds);
  REQUIRE(interval.has_value());
  std::vector<double> logs;
  for (const double r : rounds) {
    logs.push_back(std::log(r));
  }
  const double mean = (logs[0] + logs[1] + logs[2]) / 3.0;
  double squares = 0.0;
  for (const double l : logs) {
    squares += (l - mean) * (l - mean);
  }
  const double half = 4.302653 * std::sqrt(squares / 2.0) / std::sqrt(3.0);
  CHECK(interval->low == Catch::Approx(3.0 * std::exp(-half)));
  CHECK(interval->high == Catch::Approx(3.0 * std::exp(half)));
  CHECK(interval->low * interval->high == Catch::Approx(9.0));  // symmetric as a ratio
  CHECK(interval->contains(3.0));
  // Identical rounds: a point; fewer than two rounds: none; the same input: the same interval.
  CHECK(labrun::between_round_interval(3.0, {3.0, 3.0})->high == 3.0);
  CHECK_FALSE(labrun::between_round_interval(3.0, {3.0}).has_value());
  CHECK(labrun::between_round_interval(3.0, rounds)->low == interval->low);
  // A figure not positive in every round: the same interval on the figures themselves.
  const auto linear = labrun::between_round_interval(0.0, {-1.0, 1.0});
  REQUIRE(linear.has_value());
  CHECK(linear->low == Catch::Approx(-12.706205 * std::sqrt(2.0) / std::sqrt(2.0)));
  CHECK_FALSE(labrun::between_round_interval(1.0, {1.0, std::nan("")}).has_value());
}

TEST_CASE("a process allowance k adds k s to the standard error: half width t s sqrt(1 / R + k^2)") {
  const std::vector<double> rounds{2.7, 3.0, 3.3, 3.1, 2.9};
  const auto plain = labrun::between_round_interval(3.0, rounds);
  const auto none = labrun::between_round_interval(3.0, rounds, 0.0);
  REQUIRE(plain.has_value());
  CHECK(none->low == plain->low);  // no allowance: bit for bit the interval older transcripts recorded
  CHECK(none->high == plain->high);
  const auto widened = labrun::between_round_interval(3.0, rounds, 1.0);
  REQUIRE(widened.has_value());
  const double plain_half = std::log(plain->high / 3.0);
  CHECK(std::log(widened->high / 3.0) == Catch::Approx(plain_half * std::sqrt((1.0 / 5.0 + 1.0) * 5.0)));
  CHECK(widened->low * widened->high == Catch::Approx(9.0));
  // On figures that are not all positive, the same widening on the figures themselves.
  const auto linear = labrun::between_round_interval(0.0, {-1.0, 1.0}, 0.5);
  REQUIRE(linear.has_value());
  CHECK(linear->high == Catch::Approx(12.706205 * std::sqrt(2.0) * std::sqrt(0.5 + 0.25)));
}

TEST_CASE(
    "a process floor f is the least process-level deviation: half width t sqrt(s^2 / R + max(k s, f)^2)") {
  const std::vector<double> rounds{2.97, 3.0, 3.03, 3.01, 2.99};  // s about 0.8%
  const auto k_only = labrun::between_round_interval(3.0, rounds, 1.0);
  const auto floor_below = labrun::between_round_interval(3.0, rounds, 1.0, 0.001);
  REQUIRE(k_only.has_value());
  REQUIRE(floor_below.has_value());
  // A floor under k s changes nothing (to rounding: the same half width, computed the other way).
  CHECK(floor_below->high == Catch::Approx(k_only->high).epsilon(1e-12));
  const auto floored = labrun::between_round_interval(3.0, rounds, 1.0, 0.075);
  REQUIRE(floored.has_value());
  const double s = labrun::unit_spread(3.0, rounds)->deviation;
  const double t4 = labrun::student_t_975(4);
  CHECK(std::log(floored->high / 3.0) == Catch::Approx(t4 * std::sqrt(s * s / 5.0 + 0.075 * 0.075)));
  CHECK(floored->low * floored->high == Catch::Approx(9.0));  // centred on the figure, on the log scale
  // With no allowance the floor still holds: a level the rounds cannot see, of at least f.
  const auto floor_alone = labrun::between_round_interval(3.0, rounds, 0.0, 0.075);
  CHECK(floor_alone->high == Catch::Approx(floored->high));
  // On figures that are not all positive, f |point| on the figures themselves.
  const auto linear = labrun::between_round_interval(-2.0, {-1.0, -3.0}, 0.0, 0.5);
  REQUIRE(linear.has_value());
  const double linear_s = std::sqrt(2.0);
  CHECK(linear->high - (-2.0) == Catch::Approx(12.706205 * std::sqrt(linear_s * linear_s / 2.0 + 1.0)));
}

TEST_CASE("a ratio of two runs' figures widens each run's term by its process allowance") {
  const std::vector<double> numerator{0.99, 1.01, 1.0};
  const std::vector<double> denominator{1.0, 1.0, 1.0, 1.0};
  const auto plain = labrun::between_run_ratio_interval(1.0, numerator, denominator);
  const auto none = labrun::between_run_ratio_interval(1.0, numerator, denominator, 0.0, 0.0);
  REQUIRE(plain.has_value());
  CHECK(none->high == plain->high);
  // Only the numerator varies: its s^2 / 3 becomes s^2 (1 / 3 + 1), 4 times the variance, with the same
  // degrees of freedom (Welch's with one term is that run's 2).
  const auto widened = labrun::between_run_ratio_interval(1.0, numerator, denominator, 1.0, 5.0);
  REQUIRE(widened.has_value());
  CHECK(std::log(widened->high) == Catch::Approx(2.0 * std::log(plain->high)));
}

TEST_CASE("a ratio of two runs' figures adds both runs' spreads, with Welch's degrees of freedom") {
  const auto same = labrun::between_run_ratio_interval(1.0, {1.0, 1.0, 1.0}, {2.0, 2.0});
  REQUIRE(same.has_value());
  CHECK(same->low == 1.0);  // neither run spreads
  const auto interval = labrun::between_run_ratio_interval(1.0, {0.99, 1.01}, {1.0, 1.0, 1.0, 1.0});
  REQUIRE(interval.has_value());
  // All the variance is the numerator's, with 1 degree of freedom: t(1).
  const double log_sd = std::fabs(std::log(1.01) - std::log(0.99)) / std::sqrt(2.0);
  CHECK(interval->high == Catch::Approx(std::exp(12.706205 * log_sd / std::sqrt(2.0))));
  CHECK_FALSE(labrun::between_run_ratio_interval(1.0, {1.0}, {1.0, 1.0}).has_value());
  CHECK_FALSE(labrun::between_run_ratio_interval(1.0, {0.0, 1.0}, {1.0, 1.0}).has_value());
}
