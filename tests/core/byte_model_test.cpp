#include "core/byte_model.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

using labrun::ByteModel;

TEST_CASE("byte model totals and effective bandwidth") {
  const ByteModel staged{20.0, 16.0, 4};
  CHECK(staged.bytes_per_element() == 36.0);
  CHECK(labrun::model_bytes(staged, 16777216) == Catch::Approx(603979776.0));
  // 604 MB in 2.419 ms is the lesson's 249.7 GB/s row.
  CHECK(labrun::effective_gb_per_s(staged, 16777216, 2.419) == Catch::Approx(249.68).epsilon(1e-4));
  CHECK(labrun::effective_gb_per_s(staged, 16777216, 0.0) == 0.0);
  CHECK(labrun::effective_gb_per_s(staged, 16777216, -1.0) == 0.0);
}

TEST_CASE("predicted ratios come from the same bytes and launches") {
  const ByteModel staged{20.0, 16.0, 4};
  const ByteModel fused{8.0, 4.0, 1};
  const ByteModel halfway{12.0, 8.0, 2};
  CHECK(labrun::predicted_ratios(staged, fused).bytes == Catch::Approx(3.0));
  CHECK(labrun::predicted_ratios(staged, fused).launches == Catch::Approx(4.0));
  CHECK(labrun::predicted_ratios(staged, halfway).bytes == Catch::Approx(1.8));
  CHECK(labrun::predicted_ratios(halfway, fused).bytes == Catch::Approx(5.0 / 3.0));
  CHECK(labrun::predicted_ratios(halfway, fused).launches == Catch::Approx(2.0));
  const ByteModel nothing{0.0, 0.0, 0};
  CHECK(labrun::predicted_ratios(staged, nothing).bytes == 0.0);
  CHECK(labrun::predicted_ratios(staged, nothing).launches == 0.0);
}
