#include "base/json_parse.hpp"

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "base/atomic_file.hpp"
#include "support/temporary_directory.hpp"

TEST_CASE("a key given twice is found at any depth, by its pointer, and neither value is kept") {
  const labrun::ParsedJson parsed = labrun::parse_json_finding_duplicates(
      R"({"a": 1, "b": {"c": [0, {"d": 1, "d": 2, "e": 3}], "c~/": 1, "c~/": 2}, "a": 3, "a": 4, "f": true})");
  REQUIRE(parsed.duplicate_keys.size() == 3);
  CHECK(parsed.duplicate_keys[0].pointer == "/b/c/1/d");
  CHECK(parsed.duplicate_keys[1].pointer == "/b/c~0~1");
  CHECK(parsed.duplicate_keys[1].key == "c~/");
  CHECK(parsed.duplicate_keys[2].pointer == "/a");
  CHECK(parsed.document.dump() == R"({"b":{"c":[0,{"e":3}]},"f":true})");
}

TEST_CASE("a document without duplicates is read as written, key order kept") {
  const std::string text = R"({"z":1,"a":[true,null,"x",{"m":2.5,"b":-3}],"k":{}})";
  const labrun::ParsedJson parsed = labrun::parse_json_finding_duplicates(text);
  CHECK(parsed.duplicate_keys.empty());
  CHECK(parsed.document.dump() == text);
}

TEST_CASE("text that is not JSON throws nlohmann's own errors") {
  CHECK_THROWS_AS(labrun::parse_json_finding_duplicates("{\"a\": "), nlohmann::json::parse_error);
  CHECK_THROWS_AS(labrun::parse_json_finding_duplicates("[1e400]"), nlohmann::json::out_of_range);
  CHECK_THROWS_AS(labrun::parse_json_finding_duplicates("{\"a\": \"\xff\"}"), nlohmann::json::parse_error);
  CHECK(labrun::json_pointer_token("a/b~c") == "a~1b~0c");
}

TEST_CASE("the record of duplicates is bounded, however many and however deep they are") {
  std::string many = "{";
  for (int i = 0; i < 150; ++i) {
    many += "\"k" + std::to_string(i) + "\": 1, \"k" + std::to_string(i) + "\": 2, ";
  }
  many += "\"kept\": 3}";
  const labrun::ParsedJson parsed = labrun::parse_json_finding_duplicates(many);
  CHECK(parsed.duplicate_keys.size() == labrun::kDuplicateKeysRecorded);
  CHECK(parsed.duplicate_keys_not_recorded == 50);
  CHECK(parsed.document.dump() == R"({"kept":3})");
  std::string deep;
  for (int i = 0; i < 1000; ++i) {
    deep += "{\"a\": ";
  }
  deep += "{\"b\": 1, \"b\": 2}" + std::string(1000, '}');
  const labrun::ParsedJson nested = labrun::parse_json_finding_duplicates(deep, 2000);
  REQUIRE(nested.duplicate_keys.size() == 1);
  CHECK(nested.duplicate_keys.front().pointer.size() < 2 * labrun::kPointerLevelsShown + 10);
  CHECK(nested.duplicate_keys.front().pointer.substr(0, 4) == "/a/a");
}

TEST_CASE("nesting beyond the limit is refused while parsing, at its pointer, before any of it is built") {
  // 100,000 arrays deep: nlohmann's copy of such a document recursed once per level and overflowed the
  // stack (grade --merge); the parse stops at the first level beyond the limit.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  try {
    static_cast<void>(labrun::parse_json_finding_duplicates(deep));
    FAIL("a text 100,000 deep was parsed");
  } catch (const labrun::JsonTooDeep& error) {
    CHECK(std::string(error.what()) ==
          "nested more than 64 levels deep (arrays and objects inside one another)");
    CHECK(error.pointer().substr(0, 6) == "/0/0/0");
    CHECK(error.pointer().size() < 2 * labrun::kPointerLevelsShown + 10);
  }
  // The limit is exact: 64 levels are read, 65 are not; a lower limit is the reader's to ask for.
  const std::string at_limit = std::string(64, '[') + std::string(64, ']');
  CHECK(labrun::parse_json_finding_duplicates(at_limit).document.is_array());
  CHECK_THROWS_AS(labrun::parse_json_finding_duplicates("[" + at_limit + "]"), labrun::JsonTooDeep);
  CHECK_THROWS_AS(labrun::parse_json_finding_duplicates(at_limit, 32), labrun::JsonTooDeep);
  try {
    static_cast<void>(labrun::parse_json_finding_duplicates(R"({"a": [1, {"b~/": [[[]]]}]})", 4));
    FAIL("five levels were read under a limit of four");
  } catch (const labrun::JsonTooDeep& error) {
    CHECK(error.pointer() == "/a/1/b~0~1/0");
  }
}

TEST_CASE("read_json_file names the file in every refusal: too deep, not JSON, a key given twice") {
  const labrun::testing::TemporaryDirectory dir;
  const auto refusal = [&](const std::string& name, const std::string& text) {
    labrun::write_file_atomically(dir.path / name, text, true);
    try {
      static_cast<void>(labrun::read_json_file(dir.path / name, 1 << 20));
    } catch (const std::exception& error) {
      return std::string(error.what());
    }
    return std::string("read");
  };
  std::string pointer;  // the 65th level: index 0 of each of the 64 arrays around it
  for (int level = 0; level < 64; ++level) {
    pointer += "/0";
  }
  CHECK(refusal("deep.json", std::string(70, '[') + std::string(70, ']')) ==
        (dir.path / "deep.json").string() + ": " + pointer +
            ": nested more than 64 levels deep (arrays and objects inside one another)");
  CHECK(refusal("twice.json", R"({"a": 1, "a": 2})") ==
        (dir.path / "twice.json").string() + ": /a: the key \"a\" is given twice in one object");
  CHECK(refusal("broken.json", "{").rfind((dir.path / "broken.json").string() + ": not JSON: ", 0) == 0);
  CHECK(refusal("fine.json", R"({"a": [1, 2]})") == "read");
}
