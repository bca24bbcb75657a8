#include "fusion-verdicts/reference.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <stdexcept>

TEST_CASE("scale then bias is x * 1.5 + 0.25") {
  const std::vector<double> y = verdicts::scale_bias_reference({1.0f, -0.5f, 0.0f});
  CHECK(y == std::vector<double>{1.75, -0.5, 0.25});
}

TEST_CASE("the sum of squares and the RMS normalisation") {
  CHECK(verdicts::sum_of_squares_reference({1.0f, -2.0f, 0.5f}) == 5.25);
  // mean of squares 1.75; y = x / sqrt(1.75 + 1e-6)
  const std::vector<double> y = verdicts::rms_normalise_reference({1.0f, -2.0f, 0.5f});
  const double inverse = 1.0 / std::sqrt(1.75 + static_cast<double>(1e-6f));
  CHECK(y[0] == Catch::Approx(inverse).epsilon(1e-15));
  CHECK(y[1] == Catch::Approx(-2.0 * inverse).epsilon(1e-15));
  CHECK(verdicts::rms_normalise_reference({}).empty());
}

TEST_CASE("two 3-point box averages with zeros beyond the ends") {
  // u = {(0 + 3 + 6) / 3, (3 + 6 + 9) / 3, (6 + 9 + 0) / 3} = {3, 6, 5}
  // v = {(0 + 3 + 6) / 3, (3 + 6 + 5) / 3, (6 + 5 + 0) / 3}
  const std::vector<double> v = verdicts::stencil_pair_reference({3.0f, 6.0f, 9.0f}, 1);
  CHECK(v[0] == Catch::Approx(3.0));
  CHECK(v[1] == Catch::Approx(14.0 / 3.0));
  CHECK(v[2] == Catch::Approx(11.0 / 3.0));
  // A radius wider than the array: every value sees the whole array once per pass.
  const std::vector<double> wide = verdicts::stencil_pair_reference({1.0f, 1.0f}, 4);
  CHECK(wide[0] == Catch::Approx((2.0 / 9.0) * 2.0 / 9.0));
  CHECK_THROWS_AS(verdicts::stencil_pair_reference({1.0f}, -1), std::invalid_argument);
}

TEST_CASE("the per-group values and their reuse") {
  CHECK(verdicts::cheap_value_reference(1.0f) == 2.0);  // 0.75 + 1.25
  double expected = 0.0;
  for (int k = 1; k <= 8; ++k) {
    expected += std::exp(std::sin(0.5 * k));
  }
  CHECK(verdicts::expensive_value_reference(0.5f) == Catch::Approx(expected / 8.0).epsilon(1e-15));
  CHECK(verdicts::expensive_value_reference(0.0f) == 1.0);
  // R = 2: x[0], x[1] use group 0; x[2] uses group 1.
  const std::vector<double> y = verdicts::reuse_reference({1.0f, 2.0f, 3.0f}, {10.0, 100.0}, 2);
  CHECK(y == std::vector<double>{10.0, 20.0, 300.0});
  CHECK_THROWS_AS(verdicts::reuse_reference({1.0f, 2.0f, 3.0f}, {10.0}, 2), std::invalid_argument);
  CHECK_THROWS_AS(verdicts::reuse_reference({1.0f}, {10.0}, 0), std::invalid_argument);
}
