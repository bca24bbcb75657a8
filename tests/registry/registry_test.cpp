#include "registry/registry.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <stdexcept>

namespace {

labrun::Lab tiny_lab(const std::string& name) {
  labrun::Lab lab;
  lab.name = name;
  for (const char* c : {"part1/a", "part2/b", "part2/c"}) {
    labrun::CaseSpec spec;
    spec.name = name + "/" + c;
    spec.sizes = {{"lesson", 16}};
    lab.cases.push_back(spec);
  }
  return lab;
}

}  // namespace

TEST_CASE("registry finds labs and rejects duplicates and misnamed cases") {
  labrun::LabRegistry registry;
  registry.add(tiny_lab("alpha"));
  CHECK(registry.find("alpha") != nullptr);
  CHECK(registry.find("beta") == nullptr);
  CHECK_THROWS_AS(registry.add(tiny_lab("alpha")), std::invalid_argument);

  labrun::Lab misnamed = tiny_lab("beta");
  misnamed.cases[0].name = "gamma/part1/a";
  CHECK_THROWS_AS(registry.add(misnamed), std::invalid_argument);

  labrun::Lab duplicate = tiny_lab("delta");
  duplicate.cases[1].name = duplicate.cases[0].name;
  CHECK_THROWS_AS(registry.add(duplicate), std::invalid_argument);

  labrun::Lab sizeless = tiny_lab("epsilon");
  sizeless.cases[2].sizes.clear();
  CHECK_THROWS_AS(registry.add(sizeless), std::invalid_argument);
}

TEST_CASE("a claim, prediction, stability case or card figure naming an undeclared case is refused") {
  using Catch::Matchers::ContainsSubstring;
  labrun::LabRegistry registry;
  labrun::Lab good = tiny_lab("zeta");
  good.claims = {
      labrun::ratio_near_claim("r", "b over c", "zeta/part2/b", "zeta/part2/c", "lesson", 1.0, 0.1),
      labrun::bitwise_equal_claim("bits", "versions, not cases", "v1", "v2", false)};
  good.predictions = {{"b over c", "zeta/part2/b", "zeta/part2/c"}};
  good.stability_case = "zeta/part2/b";
  good.card_figures.copy_floor_case = "zeta/part2/b";
  registry.add(good);

  labrun::Lab claim = tiny_lab("eta");
  claim.claims = {
      labrun::ratio_near_claim("r", "b over d", "eta/part2/b", "eta/part2/d", "lesson", 1.0, 0.1)};
  CHECK_THROWS_WITH(registry.add(claim), ContainsSubstring("claim 'r' names the case 'eta/part2/d'"));
  labrun::Lab prediction = tiny_lab("theta");
  prediction.predictions = {{"b over x", "theta/part2/b", "theta/part2/x"}};
  CHECK_THROWS_AS(registry.add(prediction), std::invalid_argument);
  labrun::Lab stability = tiny_lab("iota");
  stability.stability_case = "iota/part9/b";
  CHECK_THROWS_AS(registry.add(stability), std::invalid_argument);
  labrun::Lab figures = tiny_lab("kappa");
  figures.card_figures.ceiling_cases = {"kappa/part2/copy"};
  CHECK_THROWS_WITH(registry.add(figures), ContainsSubstring("the card figures"));
  CHECK(registry.find("eta") == nullptr);
}

TEST_CASE("case selection keeps declared order and unions patterns") {
  const labrun::Lab lab = tiny_lab("alpha");
  CHECK(labrun::select_cases(lab, {}).size() == 3);
  const auto part2 = labrun::select_cases(lab, {"part2/*"});
  REQUIRE(part2.size() == 2);
  CHECK(part2[0]->name == "alpha/part2/b");
  const auto both = labrun::select_cases(lab, {"alpha/part2/c", "part1/*"});
  REQUIRE(both.size() == 2);
  CHECK(both[0]->name == "alpha/part1/a");
  CHECK(both[1]->name == "alpha/part2/c");
  CHECK(labrun::select_cases(lab, {"nothing"}).empty());
}

TEST_CASE("a pattern that matches no case is named, even beside one that matches") {
  const labrun::Lab lab = tiny_lab("alpha");
  CHECK(labrun::patterns_matching_nothing(lab, {}).empty());
  CHECK(labrun::patterns_matching_nothing(lab, {"part2/*", "alpha/part1/a"}).empty());
  CHECK(labrun::patterns_matching_nothing(lab, {"part2/*", "part2/bb", "zeta/*"}) ==
        std::vector<std::string>{"part2/bb", "zeta/*"});
}

TEST_CASE("the build registers the day-48 lab") {
  const labrun::Lab* lab = labrun::registered_labs().find("day48-fusion");
  REQUIRE(lab != nullptr);
  CHECK(lab->open_session);
  CHECK(lab->render_tables);
}
