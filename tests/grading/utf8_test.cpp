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

TEST_CASE("hidden code points: controls, format characters, invisible and unassigned ones") {
  for (const char32_t hidden :
       {U'\0',      U'\x1b',    U'\x7f',    U'\x85',    U'\x9b',   U'\xad',   U'\x61c',   U'\x180e',
        U'\x200b',  U'\x200d',  U'\x200e',  U'\x200f',  U'\x2028', U'\x2029', U'\x202a',  U'\x202e',
        U'\x2060',  U'\x2064',  U'\x2066',  U'\x2069',  U'\x206f', U'\xfeff', U'\xfff9',  U'\xfffb',
        U'\xfffe',  U'\xffff',  U'\xe000',  U'\xfdd0',  U'\xfe0f', U'\x3164', U'\x1fffe', U'\x4ffff',
        U'\xe0001', U'\xe0020', U'\xe007f', U'\x10fffd'}) {
    INFO(labrun::code_point_name(hidden));
    CHECK(labrun::is_hidden_code_point(hidden));
  }
  for (const char32_t shown : {U' ', U'a', U'~', U'\xa0', U'\xe9', U'\x416', U'\x5d0', U'\x627', U'\x200a',
                               U'\x2030', U'\x20ac', U'\x4e2d', U'\xfffd', U'\x1f600', U'\x20000'}) {
    INFO(labrun::code_point_name(shown));
    CHECK_FALSE(labrun::is_hidden_code_point(shown));
  }
}

TEST_CASE("inert text is one line of valid UTF-8 that shows what it holds and does nothing else") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(labrun::inert_text("plain \xC3\xA9t\xC3\xA9 \xE2\x82\xAC") == "plain \xC3\xA9t\xC3\xA9 \xE2\x82\xAC");
  CHECK(labrun::inert_text("a\r\nb\tc") == "a  b c");
  CHECK(labrun::inert_text("\x1b[2J\x1b]0;title\x07") == r + "[2J" + r + "]0;title" + r);
  CHECK(labrun::inert_text("\xC2\x9B"
                           "31m") == r + "31m");                                 // C1 CSI
  CHECK(labrun::inert_text("evil\xE2\x80\xAEtxt.cu") == "evil" + r + "txt.cu");  // U+202E
  CHECK(labrun::inert_text("a\xE2\x80\x8B"
                           "b\xEF\xBB\xBF") == "a" + r + "b" + r);  // ZWSP, BOM
  CHECK(labrun::inert_text("\xF3\xA0\x80\x81tag") == r + "tag");    // U+E0001
  CHECK(labrun::inert_text("\xFF\xC0\xAF") == r + r + r);
}

TEST_CASE("characters are counted and cut as code points, never inside a sequence") {
  CHECK(labrun::code_point_count("s\xC3\xA9") == 2);
  CHECK(labrun::code_point_count("\xF0\x9F\x98\x80") == 1);
  CHECK_FALSE(labrun::code_point_count("\xC3").has_value());
  CHECK(labrun::first_code_points("\xC3\xA9\xC3\xA9\xC3\xA9", 2) == "\xC3\xA9\xC3\xA9...");
  CHECK(labrun::first_code_points("short", 10) == "short");
  CHECK(labrun::code_point_name(U'\x202e') == "U+202E");
  CHECK(labrun::code_point_name(U'\xe0001') == "U+E0001");
  const auto hidden = labrun::first_hidden_code_point(
      "ab\xE2\x80\xAE"
      "c");
  REQUIRE(hidden.has_value());
  CHECK(hidden->code_point == U'\x202e');
  CHECK(hidden->position == 2);
  CHECK_FALSE(labrun::first_hidden_code_point("Zo\xC3\xAB").has_value());
}
