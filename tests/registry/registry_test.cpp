#include "registry/registry.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "core/statistics.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"

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
  good.claims = {labrun::time_ratio_claim("r", "b over c", "zeta/part2/b", "zeta/part2/c", "lesson",
                                          labrun::within(1.0, 0.1)),
                 labrun::bitwise_equal_claim("bits", "versions, not cases", "v1", "v2", false)};
  good.predictions = {{"b over c", "zeta/part2/b", "zeta/part2/c"}};
  good.stability_case = "zeta/part2/b";
  good.card_figures.copy_floor_case = "zeta/part2/b";
  registry.add(good);

  labrun::Lab claim = tiny_lab("eta");
  claim.claims = {labrun::time_ratio_claim("r", "b over d", "eta/part2/b", "eta/part2/d", "lesson",
                                           labrun::within(1.0, 0.1))};
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

  labrun::Lab queued = tiny_lab("lambda");
  queued.claims = {labrun::per_launch_converges_claim("l", "per launch", "lambda/part2/b", "lambda/part1/a",
                                                      0.2, "lambda/part1/queued")};
  CHECK_THROWS_WITH(
      registry.add(queued),
      "lab 'lambda': claims[0] 'l': names the case 'lambda/part1/queued', which the lab does not declare");
  queued.claims[0].queued_launch_case = "lambda/part2/c";
  CHECK(mistake_in(queued).empty());
  labrun::ClaimSpec ratio = labrun::time_ratio_claim("r", "b over c", "lambda/part2/b", "lambda/part2/c",
                                                     "lesson", labrun::within(1.0, 0.1));
  ratio.queued_launch_case = "lambda/part2/c";
  queued.claims = {ratio};
  CHECK_THAT(mistake_in(queued), ContainsSubstring("only a per-launch claim reads a queued empty launch"));
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
  misspelt.claims = {labrun::time_ratio_claim("r", "b over c", "alpha/part2/b", "alpha/part2/c", "card-scale",
                                              labrun::within(1.0, 0.1))};
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
  labrun::Lab one_round = tiny_lab("iota");
  one_round.default_rounds = 1;
  CHECK_THAT(mistake_in(one_round), ContainsSubstring("lab 'iota': default_rounds: 1: a run's intervals need "
                                                      "at least 2 rounds"));
  one_round.default_rounds = 2;
  CHECK(mistake_in(one_round).empty());
}

TEST_CASE("a ratio claim derived from the byte models says their ratio, and one that disagrees is refused") {
  labrun::Lab lab = tiny_lab("alpha");
  lab.cases[1].model = labrun::ByteModel{8.0, 5.0, 2};
  lab.cases[2].model = labrun::ByteModel{4.0, 1.0, 1};
  const labrun::ClaimSpec derived =
      labrun::byte_ratio_claim("traffic", "b over c follows {byte_ratio}, not {launch_ratio}", lab.cases,
                               "alpha/part2/b", "alpha/part2/c", "lesson", 0.15);
  CHECK(derived.bound.expected == 13.0 / 5.0);
  CHECK(derived.statement == "b over c follows 2.60, not 2.00");
  CHECK(derived.expected_from_byte_models);
  lab.claims = {derived};
  CHECK(mistake_in(lab).empty());
  lab.claims[0].bound.expected = 2.5;  // typed over the derived figure
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

namespace {

// An exercise a factory makes, named `name`, with a grader that grades nothing (these tests only
// register it).
labrun::LabExercise graded_exercise(const labrun::Lab& lab, const std::string& name) {
  labrun::LabExercise exercise;
  exercise.name = name;
  exercise.lab = lab.name;
  exercise.grade = [](const labrun::GradeRequest&, const std::function<void(const std::string&)>&) {
    return labrun::GradeReport{};
  };
  exercise.prepare_grading = [](const labrun::GradeRequest&, const std::function<void(const std::string&)>&) {
    return nlohmann::ordered_json::object();
  };
  exercise.run_child = [](const nlohmann::ordered_json&) { return 0; };
  return exercise;
}

}  // namespace

TEST_CASE("an exercise with a mistake in its declaration is left out alone, never its lab") {
  const std::vector<labrun::ExerciseFactory> factories{
      {"kept", [](const labrun::Lab& lab) { return graded_exercise(lab, "kept"); }},
      {"ns::broken_entry",
       [](const labrun::Lab&) -> labrun::LabExercise {
         throw std::invalid_argument(
             "exercise 'broken' names the case 'x', which lab 'alpha' does not declare");
       }},
      {"ungraded",
       [](const labrun::Lab& lab) {
         labrun::LabExercise exercise = graded_exercise(lab, "ungraded");
         exercise.run_child = nullptr;
         return exercise;
       }},
      {"kept-twice", [](const labrun::Lab& lab) { return graded_exercise(lab, "kept"); }}};
  labrun::LabRegistry registry;
  registry.add_or_leave_out("alpha", [&] { return labrun::with_exercises(tiny_lab("alpha"), factories); });
  REQUIRE(registry.labs().size() == 1);
  REQUIRE(registry.labs()[0].exercises.size() == 1);
  CHECK(registry.labs()[0].exercises[0].name == "kept");
  REQUIRE(registry.left_out().size() == 3);
  CHECK(labrun::left_out_line(registry.left_out()[0]) ==
        "labrun: exercise 'ns::broken_entry' of lab 'alpha' left out of this build: exercise 'broken' names "
        "the case 'x', which lab 'alpha' does not declare");
  CHECK_THAT(
      labrun::left_out_line(registry.left_out()[1]),
      ContainsSubstring("exercise 'ungraded' of lab 'alpha' left out of this build: it cannot be graded"));
  CHECK_THAT(labrun::left_out_line(registry.left_out()[2]), ContainsSubstring("registered already"));
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

TEST_CASE("a declared figure has a name, a unit, and a value or a formula; a bad one is refused") {
  labrun::Lab lab = tiny_lab("pi");
  lab.cases[1].figures = {labrun::declared_figure("global loads", "per cell", 5.0, "counted"),
                          labrun::rate_figure("cells", "10^9/s")};
  CHECK(mistake_in(lab).empty());
  labrun::Lab unnamed = lab;
  unnamed.cases[1].figures[0].unit.clear();
  CHECK_THAT(mistake_in(unnamed), ContainsSubstring("cases[1] 'pi/part2/b': figures[0] 'global loads': a "
                                                    "declared figure has a name and a unit"));
  labrun::Lab twice = lab;
  twice.cases[1].figures[1].name = "global loads";
  CHECK_THAT(mistake_in(twice), ContainsSubstring("figures[1] 'global loads': declared twice for the case"));
  labrun::Lab both = lab;
  both.cases[1].figures[0].formula = [](const labrun::CaseResult&) { return std::optional<double>(1.0); };
  CHECK_THAT(mistake_in(both), ContainsSubstring("a value or a formula, not both and not neither"));
  labrun::Lab infinite = lab;
  infinite.cases[1].figures[0].value = std::numeric_limits<double>::infinity();
  CHECK_THAT(mistake_in(infinite), ContainsSubstring("figures[0] 'global loads': value: inf"));
}

TEST_CASE("a claim's bound is checked, and a claim at every size needs sizes its cases share") {
  labrun::Lab lab = tiny_lab("rho");
  lab.claims = {labrun::time_ratio_claim("r", "b over c", "rho/part2/b", "rho/part2/c", labrun::kEverySize,
                                         labrun::at_most(1.05))};
  CHECK(mistake_in(lab).empty());
  labrun::Lab unbounded = lab;
  unbounded.claims[0].bound = {};
  CHECK_THAT(mistake_in(unbounded), ContainsSubstring("claims[0] 'r': bound: none"));
  labrun::Lab inverted = lab;
  inverted.claims[0].bound = labrun::between(1.2, 0.8);
  CHECK_THAT(mistake_in(inverted), ContainsSubstring("its low end is above its high end"));
  labrun::Lab apart = lab;
  apart.cases[2].sizes = {{"sweep", 64}};
  CHECK_THAT(mistake_in(apart),
             ContainsSubstring("claims[0] 'r': size_label: every size, but rho/part2/c (sweep 64) shares no "
                               "size with rho/part2/b (lesson 16)"));
  labrun::Lab ceiling = lab;
  ceiling.claims = {
      labrun::not_faster_claim("n", "c not faster", "rho/part2/b", {"rho/part2/c"}, "lesson", 0.98)};
  CHECK(mistake_in(ceiling).empty());
  ceiling.claims[0].bound = labrun::at_most(1.02);
  CHECK_THAT(mistake_in(ceiling), ContainsSubstring("a not-faster claim bounds its figure from below only"));
}

TEST_CASE("a claim of at least the byte ratio derives its floor from the models") {
  labrun::Lab lab = tiny_lab("sigma");
  lab.cases[1].model = labrun::ByteModel{8.0, 4.0, 3};
  lab.cases[2].model = labrun::ByteModel{4.0, 0.0, 2};
  const labrun::ClaimSpec floor =
      labrun::byte_ratio_floor_claim("fold", "b over c gains at least {byte_ratio}", lab.cases,
                                     "sigma/part2/b", "sigma/part2/c", "lesson", 0.9);
  CHECK(floor.statement == "b over c gains at least 3.00");
  CHECK(*floor.bound.expected == 3.0);
  CHECK(*floor.bound.low == 0.9 * 3.0);
  CHECK_FALSE(floor.bound.high.has_value());
  CHECK(floor.bound.words == "at least 90% of the byte ratio 3.00 (more is allowed)");
  lab.claims = {floor};
  CHECK(mistake_in(lab).empty());
}

TEST_CASE("declared figures are recorded with each timed case: a value, or a formula's, or unknown") {
  labrun::Lab lab = tiny_lab("tau");
  lab.cases[1].figures = {labrun::declared_figure("global loads", "per cell", 5.0, "counted from kernels.cu"),
                          labrun::rate_figure("cells", "10^9/s")};
  labrun::Transcript t;
  labrun::CaseResult timed;
  timed.name = "tau/part2/b";
  timed.elements = 2'000'000;
  timed.samples_ms = {0.5, 0.5, 0.5};
  timed.summary = labrun::summarize(timed.samples_ms);
  labrun::CaseResult untimed = timed;
  untimed.samples_ms.clear();
  untimed.summary = {};
  labrun::CaseResult other = timed;
  other.name = "tau/part2/c";
  t.cases = {timed, untimed, other};
  labrun::record_declared_figures(lab, t);
  REQUIRE(t.cases[0].declared_figures.size() == 2);
  CHECK(t.cases[0].declared_figures[0].name == "global loads");
  CHECK(*t.cases[0].declared_figures[0].value == 5.0);
  CHECK(t.cases[0].declared_figures[0].source == "counted from kernels.cu");
  CHECK(*t.cases[0].declared_figures[1].value == 4.0);  // 2e6 cells in 0.5 ms: 4 x 10^9 a second
  CHECK_FALSE(t.cases[1].declared_figures[1].value.has_value());
  CHECK(t.cases[1].declared_figures[1].unknown_reason == "the case has no time");
  CHECK(*t.cases[1].declared_figures[0].value == 5.0);
  CHECK(t.cases[2].declared_figures.empty());
}

TEST_CASE("every lab judges its committed transcripts of 1.6.0 on as their runs did") {
  // The claims' rules may be reworded, never rejudged: each recorded claim's verdict, figure, bound and
  // interval follow again from the transcript's own figures by the lab's claims as this build
  // declares them (before 1.6.0 no bound was recorded).
  const std::filesystem::path evidence =
      std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence";
  int judged = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(evidence)) {
    const std::string where = entry.path().generic_string();
    if (!labrun::named_as_transcript(entry.path()) || where.find("/schema/") != std::string::npos ||
        where.find(".trace.") != std::string::npos || where.find("/comparisons/") != std::string::npos ||
        where.find("/grading/") != std::string::npos ||
        where.find("/verdict-stability/") != std::string::npos) {
      continue;
    }
    const labrun::Transcript t = labrun::transcript_from_text(labrun::read_evidence_text(entry.path()));
    const labrun::Lab* lab = labrun::registered_labs().find(t.lab_name);
    if (lab == nullptr || !t.claims_recorded || !t.rounds_recorded) {
      continue;
    }
    const std::vector<labrun::ClaimResult> again = labrun::evaluate_claims(lab->claims, t);
    for (const labrun::ClaimResult& recorded : t.claims) {
      INFO(where << ": " << recorded.id);
      const auto found = std::find_if(again.begin(), again.end(),
                                      [&](const labrun::ClaimResult& c) { return c.id == recorded.id; });
      REQUIRE(found != again.end());
      CHECK(found->verdict == recorded.verdict);
      CHECK(found->measured == recorded.measured);
      CHECK(found->expected == recorded.expected);
      CHECK(found->bound_low == recorded.bound_low);
      CHECK(found->bound_high == recorded.bound_high);
      REQUIRE(found->measured_interval.has_value() == recorded.measured_interval.has_value());
      if (recorded.measured_interval) {
        CHECK(found->measured_interval->low == recorded.measured_interval->low);
        CHECK(found->measured_interval->high == recorded.measured_interval->high);
      }
      ++judged;
    }
  }
  CHECK(judged >= 6);
}
