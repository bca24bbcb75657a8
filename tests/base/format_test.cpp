#include "base/format.hpp"

#include <catch2/catch_test_macros.hpp>

TEST_CASE("bytes per element print whole numbers whole and fractions with up to two decimals") {
  CHECK(labrun::bytes_per_element_text(36.0) == "36");
  CHECK(labrun::bytes_per_element_text(0.0) == "0");
  CHECK(labrun::bytes_per_element_text(4.5) == "4.5");
  CHECK(labrun::bytes_per_element_text(4.03125) == "4.03");
  CHECK(labrun::bytes_per_element_text(8.0 + 4.0 / 256.0) == "8.02");
}

TEST_CASE("join puts the separator between items only") {
  CHECK(labrun::join({}, ", ").empty());
  CHECK(labrun::join({"a"}, ", ") == "a");
  CHECK(labrun::join({"a", "b", "c"}, ";") == "a;b;c");
}
