#include "grading/utf8.hpp"

#include <catch2/catch_test_macros.hpp>

TEST_CASE("valid UTF-8 passes unchanged") {
  CHECK(labrun::valid_utf8("plain ascii\ttab\nnewline") == "plain ascii\ttab\nnewline");
  CHECK(labrun::valid_utf8("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") ==
        "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST_CASE("every malformed byte becomes U+FFFD") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(labrun::valid_utf8("a\xFF"
                           "b") == "a" + r + "b");
  CHECK(labrun::valid_utf8("\xC0\xAF") == r + r);                              // overlong '/'
  CHECK(labrun::valid_utf8("\xED\xA0\x80") == r + r + r);                      // a surrogate
  CHECK(labrun::valid_utf8("\xF4\x90\x80\x80") == r + r + r + r);              // above U+10FFFF
  CHECK(labrun::valid_utf8("\xE2\x82") == r + r);                              // cut short
  CHECK(labrun::valid_utf8(std::string("a\0b\x1b", 4)) == "a" + r + "b" + r);  // control characters
}
