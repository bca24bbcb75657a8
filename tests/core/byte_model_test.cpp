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

TEST_CASE("the flop model beside the byte model: throughput, intensity and the FP32 peak") {
  const ByteModel bytes_only{4.0, 1.0, 1};
  CHECK_FALSE(labrun::effective_gflop_per_s(bytes_only, 1000, 1.0).has_value());
  CHECK_FALSE(labrun::arithmetic_intensity(bytes_only).has_value());
  const ByteModel fused = labrun::with_flops(bytes_only, 18.0);
  CHECK(fused.bytes_per_element() == 5.0);
  // 18 flops a pixel over 16,777,216 pixels in 1.323 ms: 228.3 GFLOP/s.
  CHECK(*labrun::effective_gflop_per_s(fused, 16777216, 1.323) == Catch::Approx(228.26).margin(0.01));
  CHECK_FALSE(labrun::effective_gflop_per_s(fused, 16777216, 0.0).has_value());
  CHECK(*labrun::arithmetic_intensity(fused) == Catch::Approx(3.6));
  CHECK_FALSE(labrun::arithmetic_intensity(labrun::with_flops(ByteModel{0.0, 0.0, 1}, 4.0)).has_value());
  // H200: 132 SMs x 128 lanes x 2 x 1980 MHz = 66.9 TFLOP/s; T4: 40 x 64 x 2 x 1590 MHz = 8.1.
  CHECK(labrun::fp32_lanes_per_sm("9.0") == 128);
  CHECK(labrun::fp32_lanes_per_sm("7.5") == 64);
  CHECK(labrun::fp32_lanes_per_sm("8.0") == 64);
  CHECK(labrun::fp32_lanes_per_sm("8.6") == 128);
  CHECK_FALSE(labrun::fp32_lanes_per_sm("6.1").has_value());
  CHECK_FALSE(labrun::fp32_lanes_per_sm("nine").has_value());
  CHECK(labrun::theoretical_peak_gflop_per_s(132, 128, 1980000) == Catch::Approx(66908.16));
  CHECK(labrun::theoretical_peak_gflop_per_s(40, 64, 1590000) == Catch::Approx(8140.8));
  CHECK(labrun::theoretical_peak_gflop_per_s(0, 128, 1980000) == 0.0);
}
