#include "device/visible_devices.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;

TEST_CASE("device N is CUDA's device N, or the N-th entry of CUDA_VISIBLE_DEVICES") {
  CHECK(labrun::visible_device_entry(std::nullopt, 3) == "3");
  CHECK(labrun::visible_device_entry(std::string(""), 1) == "1");
  CHECK(labrun::visible_device_entry(std::string("4,6"), 1) == "6");
  CHECK(labrun::visible_device_entry(std::string("GPU-1234, GPU-abcd"), 1) == "GPU-abcd");
  CHECK_THROWS_WITH(labrun::visible_device_entry(std::string("4,6"), 2),
                    ContainsSubstring("makes 2 visible"));
  CHECK_THROWS_AS(labrun::visible_device_entry(std::nullopt, -1), std::out_of_range);
}

TEST_CASE("a device list is whole numbers separated by commas") {
  CHECK(labrun::parse_device_list("0") == std::vector<int>{0});
  CHECK(labrun::parse_device_list("0, 2,3") == std::vector<int>{0, 2, 3});
  CHECK_THROWS_WITH(labrun::parse_device_list("0,x"), ContainsSubstring("'x'"));
  CHECK_THROWS_AS(labrun::parse_device_list("1,,2"), std::invalid_argument);
  CHECK_THROWS_AS(labrun::parse_device_list("-1"), std::invalid_argument);
}
