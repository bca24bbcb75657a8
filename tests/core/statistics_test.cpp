#include "core/statistics.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

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
