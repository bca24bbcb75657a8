// `labrun plan` on a machine with no GPU: everything each lab declares, claims and figures included.

#include "cli/plan_command.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "registry/registry.hpp"

using Catch::Matchers::ContainsSubstring;

TEST_CASE("plan shows every lab's cases, models, claims with their bounds, figures and predictions") {
  for (const labrun::Lab& lab : labrun::registered_labs().labs()) {
    INFO(lab.name);
    const std::string plan = labrun::render_plan(lab);
    CHECK_THAT(plan, ContainsSubstring("# Plan for " + lab.name));
    for (const labrun::CaseSpec& spec : lab.cases) {
      CHECK_THAT(plan, ContainsSubstring("| " + spec.name + " "));
      CHECK_THAT(plan, ContainsSubstring(spec.describe_sizes()));
      for (const labrun::CaseFigure& figure : spec.figures) {
        CHECK_THAT(plan, ContainsSubstring(figure.source));
      }
    }
    for (const labrun::ClaimSpec& claim : lab.claims) {
      CHECK_THAT(plan, ContainsSubstring("| " + claim.id));
      CHECK_THAT(plan, ContainsSubstring(labrun::describe_claim(claim).bound));
    }
    for (const labrun::Prediction& p : lab.predictions) {
      CHECK_THAT(plan, ContainsSubstring(p.description));
    }
  }
}

TEST_CASE("day 34's plan: its loads per cell, its claim at every size and its bound, with no GPU") {
  const labrun::Lab* lab = labrun::registered_labs().find("day34-stencil-tile");
  REQUIRE(lab != nullptr);
  const std::string plan = labrun::render_plan(*lab);
  CHECK_THAT(plan,
             ContainsSubstring("| day34-stencil-tile/stencil/naive | global loads | per cell |       5 |"));
  CHECK_THAT(plan,
             ContainsSubstring("| day34-stencil-tile/stencil/tiled | global loads | per cell |   1.328 |"));
  CHECK_THAT(plan, ContainsSubstring("at every size they share | at most 1.05"));
  CHECK_THAT(plan, ContainsSubstring("| naive over tiled | day34-stencil-tile/stencil/naive | "
                                     "day34-stencil-tile/stencil/tiled |       1.00 |         1.00 |"));
  CHECK_THAT(plan, ContainsSubstring("- roofline: memory ceiling the best of day34-stencil-tile/card/copy"));
}

TEST_CASE("plan says how many rounds a run takes by default: the lab's own where it declares them") {
  const labrun::Lab* day48 = labrun::registered_labs().find("day48-fusion");
  const labrun::Lab* verdicts = labrun::registered_labs().find("fusion-verdicts");
  REQUIRE(day48 != nullptr);
  REQUIRE(verdicts != nullptr);
  CHECK(day48->default_rounds == labrun::kDefaultRounds);
  CHECK_THAT(labrun::render_plan(*day48),
             ContainsSubstring("rounds: 5 unless --rounds is given, each in a CUDA context of its own.\n"));
  CHECK(verdicts->default_rounds == 10);
  CHECK_THAT(labrun::render_plan(*verdicts),
             ContainsSubstring("rounds: 10 unless --rounds is given, each in a CUDA context of its own (the "
                               "lab's own; labrun's default is 5).\n"));
  // Every registered lab times an empty launch at one element: a small case.
  CHECK_THAT(labrun::render_plan(*day48),
             ContainsSubstring("small cases (at most 65536 elements): at least 15 CUDA contexts in cold and "
                               "hot-gated timing unless --small-case-rounds is given; their extra rounds "
                               "come after the others'.\n"));
  labrun::Lab large_only = *day48;  // every case at the lesson's 2^24 alone: no small case to speak of
  for (labrun::CaseSpec& spec : large_only.cases) {
    spec.sizes = {labrun::SizeRequest{"lesson", std::uint64_t{1} << 24}};
  }
  CHECK_THAT(labrun::render_plan(large_only), !ContainsSubstring("small cases"));
}
