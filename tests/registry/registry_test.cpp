#include "registry/registry.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <stdexcept>

namespace {

// Three cases of 8 B and one launch an element, b and c verified by the versions v1 and v2.
labrun::Lab tiny_lab(const std::string& name) {
  labrun::Lab lab;
  lab.name = name;
  lab.correctness_elements = 1001;
  for (const char* c : {"part1/a", "part2/b", "part2/c"}) {
    labrun::CaseSpec spec =
        labrun::case_spec(name + "/" + c, c, labrun::ByteModel{4.0, 4.0, 1}, {{"lesson", 16}});
    lab.cases.push_back(spec);
  }
  lab.cases[1].verified_by = "v1";
  lab.cases[2].verified_by = "v2";
  return lab;
}

using Catch::Matchers::ContainsSubstring;

// The message check_lab gives `lab`, or "" when it finds nothing wrong.
std::string mistake_in(const labrun::Lab& lab) {
  try {
    labrun::check_lab(lab);
  } catch (const labrun::LabDeclarationError& error) {
    return error.what();
  }
  return "";
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
  CHECK_THROWS_WITH(registry.add(claim),
                    "lab 'eta': claims[0] 'r': names the case 'eta/part2/d', which the lab does not declare");
  labrun::Lab prediction = tiny_lab("theta");
  prediction.predictions = {{"b over x", "theta/part2/b", "theta/part2/x"}};
  CHECK_THROWS_AS(registry.add(prediction), std::invalid_argument);
  labrun::Lab stability = tiny_lab("iota");
  stability.stability_case = "iota/part9/b";
  CHECK_THROWS_AS(registry.add(stability), std::invalid_argument);
  labrun::Lab figures = tiny_lab("kappa");
  figures.card_figures.ceiling_cases = {"kappa/part2/copy"};
  CHECK_THROWS_WITH(registry.add(figures), ContainsSubstring("lab 'kappa': card_figures: names the case"));
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

TEST_CASE("a byte model of no launch or negative bytes is refused, naming the lab, the case and the field") {
  labrun::Lab no_launch = tiny_lab("lambda");
  no_launch.cases[1].model.launches = 0;
  CHECK_THAT(mistake_in(no_launch),
             ContainsSubstring("lab 'lambda': cases[1] 'lambda/part2/b': model: launches: 0 "
                               "launches per execution"));
  labrun::Lab negative = tiny_lab("mu");
  negative.cases[0].model.write_bytes_per_element = -4.0;
  CHECK_THAT(
      mistake_in(negative),
      ContainsSubstring("lab 'mu': cases[0] 'mu/part1/a': model: write_bytes_per_element: -4.00 bytes"));
  labrun::Lab flops = tiny_lab("nu");
  flops.cases[2].model = labrun::with_flops(flops.cases[2].model, -1.0);
  CHECK_THAT(mistake_in(flops), ContainsSubstring("model: flops_per_element"));
  labrun::Lab per_sample = tiny_lab("xi");
  per_sample.cases[2].launches_per_sample = 0;
  CHECK_THAT(mistake_in(per_sample), ContainsSubstring("launches_per_sample"));
  CHECK(mistake_in(tiny_lab("omicron")).empty());
}

TEST_CASE("size labels, image sizes and the correctness size are checked when the lab registers") {
  labrun::Lab misspelt = tiny_lab("alpha");
  misspelt.claims = {
      labrun::ratio_near_claim("r", "b over c", "alpha/part2/b", "alpha/part2/c", "card-scale", 1.0, 0.1)};
  CHECK_THAT(mistake_in(misspelt),
             ContainsSubstring("lab 'alpha': claims[0] 'r': size_label: 'card-scale' is not a "
                               "size of alpha/part2/b (it declares: lesson 16)"));
  labrun::Lab label = tiny_lab("beta");
  label.cases[0].sizes = {{"Lesson Size", 16}};
  CHECK_THAT(mistake_in(label), ContainsSubstring("sizes[0]: label"));
  labrun::Lab zero = tiny_lab("gamma");
  zero.cases[0].sizes = {{"lesson", 0}};
  CHECK_THAT(mistake_in(zero), ContainsSubstring("its label must be 'card-scaled'"));
  labrun::Lab image = tiny_lab("delta");
  image.cases[0].sizes = {labrun::SizeRequest{"lesson", 12, labrun::Shape{3, 5}}};
  CHECK_THAT(mistake_in(image), ContainsSubstring("the image 3x5 is not 12 elements"));
  labrun::Lab mixed = tiny_lab("epsilon");
  mixed.cases[0].sizes = {labrun::image_size("lesson", 4, 4), {"sweep", 64}};
  CHECK_THAT(mistake_in(mixed), ContainsSubstring("some sizes are images and some are not"));
  labrun::Lab even = tiny_lab("zeta");
  even.correctness_elements = 1000;
  CHECK_THAT(mistake_in(even), ContainsSubstring("lab 'zeta': correctness_elements: 1000 is even"));
  labrun::Lab shape = tiny_lab("eta");
  shape.correctness_shape = labrun::Shape{7, 11};
  CHECK_THAT(mistake_in(shape), ContainsSubstring("correctness_shape: 7x11"));
  shape.correctness_elements = 77;
  CHECK(mistake_in(shape).empty());
  labrun::Lab images = tiny_lab("theta");
  images.cases[0].sizes = {labrun::image_size("lesson", 8, 4), labrun::card_scaled_image()};
  CHECK(mistake_in(images).empty());
  CHECK(images.cases[0].describe_sizes() == "lesson 8x4, card-scaled image");
}

TEST_CASE("a ratio claim derived from the byte models says their ratio, and one that disagrees is refused") {
  labrun::Lab lab = tiny_lab("alpha");
  lab.cases[1].model = labrun::ByteModel{8.0, 5.0, 2};
  lab.cases[2].model = labrun::ByteModel{4.0, 1.0, 1};
  const labrun::ClaimSpec derived =
      labrun::byte_ratio_claim("traffic", "b over c follows {byte_ratio}, not {launch_ratio}", lab.cases,
                               "alpha/part2/b", "alpha/part2/c", "lesson", 0.15);
  CHECK(derived.expected == 13.0 / 5.0);
  CHECK(derived.statement == "b over c follows 2.60, not 2.00");
  CHECK(derived.expected_from_byte_models);
  lab.claims = {derived};
  CHECK(mistake_in(lab).empty());
  lab.claims[0].expected = 2.5;  // typed over the derived figure
  CHECK_THAT(mistake_in(lab),
             ContainsSubstring("claims[0] 'traffic': expected: 2.50, where the byte models of its "
                               "cases give 2.60"));
  CHECK_THROWS_WITH(
      labrun::byte_ratio_claim("x", "", lab.cases, "alpha/part2/b", "alpha/part9/z", "lesson", 0.1),
      ContainsSubstring("'alpha/part9/z', which the lab does not declare"));
  labrun::Lab bitwise = tiny_lab("beta");
  bitwise.claims = {labrun::bitwise_equal_claim("bits", "versions", "v1", "v9", false)};
  CHECK_THAT(mistake_in(bitwise), ContainsSubstring("names the correctness version 'v9'"));
}

TEST_CASE("a lab with a mistake is left out with one line saying why, and the others still register") {
  labrun::LabRegistry registry;
  registry.add_or_leave_out("alpha", [] { return tiny_lab("alpha"); });
  registry.add_or_leave_out("beta", [] {
    labrun::Lab lab = tiny_lab("beta");
    lab.cases[0].model.launches = 0;
    return lab;
  });
  registry.add_or_leave_out("gamma",
                            []() -> labrun::Lab { throw std::invalid_argument("declared twice: x"); });
  registry.add_or_leave_out("delta", [] { return tiny_lab("delta"); });
  REQUIRE(registry.labs().size() == 2);
  CHECK(registry.labs()[0].name == "alpha");
  CHECK(registry.labs()[1].name == "delta");
  REQUIRE(registry.left_out().size() == 2);
  CHECK(registry.left_out()[0].name == "beta");
  CHECK_THAT(labrun::left_out_line(registry.left_out()[0]),
             ContainsSubstring(
                 "labrun: lab 'beta' left out of this build: lab 'beta': cases[0] 'beta/part1/a': model: "
                 "launches"));
  CHECK(labrun::left_out_line(registry.left_out()[1]) ==
        "labrun: lab 'gamma' left out of this build: declared twice: x");
}

TEST_CASE("case specs come from a part and a name") {
  CHECK(labrun::case_name("lab", "part2", "fused") == "lab/part2/fused");
  const labrun::CaseSpec spec =
      labrun::case_spec("lab/part2/fused", "row", labrun::ByteModel{4, 4, 1}, {{"lesson", 8}}, 3);
  CHECK(spec.part == "part2");
  CHECK(spec.launches_per_sample == 3);
  CHECK_THROWS_AS(labrun::case_spec("lab/fused", "row", {}, {}), std::invalid_argument);
  CHECK_THROWS_AS(labrun::case_spec("lab//fused", "row", {}, {}), std::invalid_argument);
  CHECK(labrun::shape_at(labrun::case_spec("l/p/c", "", {}, {labrun::image_size("lesson", 8, 2)}), 16) ==
        labrun::Shape{8, 2});
  CHECK(labrun::shape_at(labrun::case_spec("l/p/c", "", {}, {labrun::card_scaled_image()}), 1u << 5) ==
        labrun::Shape{8, 4});
  CHECK_FALSE(labrun::shape_at(labrun::case_spec("l/p/c", "", {}, {{"lesson", 16}}), 16).has_value());
}

TEST_CASE("every lab of this build registers: none is left out") {
  for (const labrun::LeftOutLab& left_out : labrun::registered_labs().left_out()) {
    FAIL(labrun::left_out_line(left_out));
  }
  CHECK_FALSE(labrun::registered_labs().labs().empty());
}

TEST_CASE("the build registers the day-48 lab") {
  const labrun::Lab* lab = labrun::registered_labs().find("day48-fusion");
  REQUIRE(lab != nullptr);
  CHECK(lab->open_session);
  CHECK(lab->render_tables);
}
