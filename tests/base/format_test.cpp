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

TEST_CASE("a figure to four significant digits drops its trailing zeros") {
  CHECK(labrun::significant(5.0, 4) == "5");
  CHECK(labrun::significant(340.0 / 256.0, 4) == "1.328");
  CHECK(labrun::significant(512.345, 4) == "512.3");
  CHECK(labrun::significant(123456.0, 4) == "123456");
  CHECK(labrun::significant(0.25, 4) == "0.25");
  CHECK(labrun::significant(-2.5, 4) == "-2.5");
  CHECK(labrun::significant(0.0123456, 4) == "0.01235");
  CHECK(labrun::significant(0.0, 4) == "0");
}

TEST_CASE("a name that is not UTF-8 becomes text: each stray byte as \\xNN, valid UTF-8 kept") {
  CHECK(labrun::name_text("run-\xff\xfe.json") == "run-\\xff\\xfe.json");
  CHECK(labrun::name_text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  // Overlong forms, surrogates, code points above U+10FFFF and cut sequences are not UTF-8.
  CHECK(labrun::name_text("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(labrun::name_text("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  CHECK(labrun::name_text("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");
  CHECK(labrun::name_text("a\xe2\x82") == "a\\xe2\\x82");
  CHECK(labrun::one_line("bad\xff\nname") == "bad\\xff\\nname");
}

TEST_CASE("ends_with: the text's last characters, every text ending with the empty suffix") {
  CHECK(labrun::ends_with("run.json.gz", ".json.gz"));
  CHECK(labrun::ends_with(".json", ".json"));
  CHECK_FALSE(labrun::ends_with("run.json.gz", ".json"));
  CHECK_FALSE(labrun::ends_with("gz", ".json.gz"));
  CHECK(labrun::ends_with("anything", ""));
}
