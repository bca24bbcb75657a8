#include "verify/compare.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

using labrun::Tolerance;

TEST_CASE("a matching output passes with its largest errors reported") {
  const std::vector<float> got{1.0f, 2.0f, -0.5f};
  const std::vector<double> expected{1.0, 2.000001, -0.5};
  const labrun::CorrectnessCheck check =
      labrun::compare_with_reference("v", got, expected, Tolerance{1e-5, 1e-5});
  CHECK(check.passed);
  CHECK(check.mismatches == 0);
  CHECK_FALSE(check.first_bad_index.has_value());
  CHECK(check.max_abs_error > 0.0);
  CHECK(check.max_abs_error < 2e-6);
  CHECK(check.elements == 3);
  // ||(0, 1e-6, 0)|| / ||(1, 2.000001, 0.5)||
  CHECK(check.relative_l2_error > 0.4e-6);
  CHECK(check.relative_l2_error < 0.5e-6);
}

TEST_CASE("the first bad index carries both values - and NaN always fails") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> got{1.0f, 2.5f, nan, 4.0f};
  const std::vector<double> expected{1.0, 2.0, 3.0, 4.0};
  const labrun::CorrectnessCheck check =
      labrun::compare_with_reference("v", got, expected, Tolerance{1e-5, 1e-5});
  CHECK_FALSE(check.passed);
  CHECK(check.mismatches == 2);
  REQUIRE(check.first_bad_index.has_value());
  CHECK(*check.first_bad_index == 1);
  CHECK(*check.first_bad_got == 2.5);
  CHECK(*check.first_bad_expected == 2.0);
  CHECK(check.max_abs_error == 0.5);  // NaN does not hide the finite error
}

TEST_CASE("an unwritten (poisoned) output fails even against a NaN-free reference") {
  const std::vector<float> got(5, std::numeric_limits<float>::quiet_NaN());
  const labrun::CorrectnessCheck check =
      labrun::compare_with_reference("v", got, std::vector<double>(5, 0.0), Tolerance{1.0, 1.0});
  CHECK(check.mismatches == 5);
  CHECK(*check.first_bad_index == 0);
}

TEST_CASE("an exact tolerance accepts only equal values") {
  const labrun::CorrectnessCheck check =
      labrun::compare_with_reference("copy", {1.0f, 2.0f}, {1.0, 2.0000001}, Tolerance{0.0, 0.0});
  CHECK(check.mismatches == 1);
  CHECK_THROWS_AS(labrun::compare_with_reference("v", {1.0f}, {1.0, 2.0}, Tolerance{}),
                  std::invalid_argument);
}

TEST_CASE("bitwise comparison counts differing elements and the largest difference") {
  const std::vector<float> a{1.0f, 2.0f, 3.0f, -0.0f};
  const std::vector<float> b{1.0f, std::nextafter(2.0f, 3.0f), 3.5f, 0.0f};
  const labrun::BitwiseComparison c = labrun::compare_bitwise("a", a, "b", b);
  CHECK(c.differing == 3);  // -0 and +0 differ in their bits
  CHECK(c.max_abs_difference == 0.5);
  CHECK(c.elements == 4);
  CHECK_THROWS_AS(labrun::compare_bitwise("a", a, "b", {1.0f}), std::invalid_argument);
}
