#include "base/json_parse.hpp"

#include <catch2/catch_test_macros.hpp>

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
  const labrun::ParsedJson nested = labrun::parse_json_finding_duplicates(deep);
  REQUIRE(nested.duplicate_keys.size() == 1);
  CHECK(nested.duplicate_keys.front().pointer.size() < 2 * labrun::kPointerLevelsShown + 10);
  CHECK(nested.duplicate_keys.front().pointer.substr(0, 4) == "/a/a");
}
