#include "registry/pattern.hpp"

#include <catch2/catch_test_macros.hpp>

using labrun::case_matches;
using labrun::glob_match;

TEST_CASE("glob matching") {
  CHECK(glob_match("abc", "abc"));
  CHECK_FALSE(glob_match("abc", "abcd"));
  CHECK(glob_match("a*", "abcd"));
  CHECK(glob_match("*d", "abcd"));
  CHECK(glob_match("a?c*", "abcd"));
  CHECK_FALSE(glob_match("a?c", "ac"));
  CHECK(glob_match("*", ""));
  CHECK(glob_match("*/staged-*", "part2/staged-chain"));
  CHECK(glob_match("a*b*c", "a-b-b-c"));
  CHECK_FALSE(glob_match("a*b*c", "a-b-b-d"));
}

TEST_CASE("case patterns match with or without the lab prefix") {
  const char* lab = "day48-fusion";
  CHECK(case_matches("day48-fusion/part2/staged-chain", lab, "day48-fusion/part2/staged-chain"));
  CHECK(case_matches("part2/staged-chain", lab, "day48-fusion/part2/staged-chain"));
  CHECK(case_matches("part2/*", lab, "day48-fusion/part2/fused-chain"));
  CHECK(case_matches("*staged*", lab, "day48-fusion/part3/staged-chain"));
  CHECK_FALSE(case_matches("part3/*", lab, "day48-fusion/part2/fused-chain"));
  CHECK_FALSE(case_matches("staged-chain", lab, "day48-fusion/part2/staged-chain"));
}
