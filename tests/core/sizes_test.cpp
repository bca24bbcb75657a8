#include "core/sizes.hpp"

#include <catch2/catch_test_macros.hpp>
#include <stdexcept>

TEST_CASE("card-scaled size is the smallest power of two at least 8 x L2") {
  // H200: 60 MiB of L2 -> 480 MiB -> 125,829,120 floats -> 2^27.
  CHECK(labrun::card_scaled_elements(62914560, 4, 8) == 134217728);
  // Tesla T4: 4 MiB of L2 -> 32 MiB -> exactly 2^23 floats.
  CHECK(labrun::card_scaled_elements(4194304, 4, 8) == 8388608);
  // One byte more of L2 needs the next power of two.
  CHECK(labrun::card_scaled_elements(4194305, 4, 8) == 16777216);
  CHECK(labrun::card_scaled_elements(1, 1, 1) == 1);
}

TEST_CASE("buffers fit when they leave a tenth of the free memory") {
  CHECK(labrun::fits_in_device_memory(900, 1000));
  CHECK_FALSE(labrun::fits_in_device_memory(901, 1000));
  CHECK(labrun::fits_in_device_memory(0, 0));
}

TEST_CASE("card-scaled size rejects zero arguments") {
  CHECK_THROWS_AS(labrun::card_scaled_elements(0, 4, 8), std::invalid_argument);
  CHECK_THROWS_AS(labrun::card_scaled_elements(1024, 0, 8), std::invalid_argument);
  CHECK_THROWS_AS(labrun::card_scaled_elements(1024, 4, 0), std::invalid_argument);
}

TEST_CASE("an image size: its text, and the image a power-of-two count is laid out as") {
  CHECK(labrun::shape_text(labrun::Shape{4096, 4096}) == "4096x4096");
  CHECK(labrun::Shape{1001, 999}.elements() == 999999);
  // H200's card-scaled 2^27 floats: 16384 x 8192, as square as a power of two allows.
  CHECK(labrun::power_of_two_image(std::uint64_t{1} << 27) == labrun::Shape{16384, 8192});
  CHECK(labrun::power_of_two_image(std::uint64_t{1} << 24) == labrun::Shape{4096, 4096});
  CHECK(labrun::power_of_two_image(1) == labrun::Shape{1, 1});
  CHECK_FALSE(labrun::power_of_two_image(0).has_value());
  CHECK_FALSE(labrun::power_of_two_image(999999).has_value());
}
