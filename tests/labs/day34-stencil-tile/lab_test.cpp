// Day 34 on the host: its float64 reference, its declaration as the registry holds it, and its claim
// and figures on a synthetic transcript (built here, never measured).

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "claims/claims.hpp"
#include "evidence/markdown.hpp"
#include "registry/registry.hpp"
#include "support/sample_transcript.hpp"

namespace day34 {
// labs/day34-stencil-tile/reference.cpp
std::vector<double> stencil_reference(const std::vector<float>& grid, std::size_t width, std::size_t height);
}  // namespace day34

namespace {

const labrun::Lab& day34_lab() {
  const labrun::Lab* lab = labrun::registered_labs().find("day34-stencil-tile");
  REQUIRE(lab != nullptr);
  return *lab;
}

const std::string kNaive = "day34-stencil-tile/stencil/naive";
const std::string kTiled = "day34-stencil-tile/stencil/tiled";

// Synthetic: naive and tiled at the L2-resident and card-scaled sizes, with these medians.
labrun::Transcript stencil_run(double naive_small, double tiled_small, double naive_large,
                               double tiled_large) {
  const labrun::ByteModel model = labrun::with_flops({4.0, 4.0, 1}, 6.0);
  labrun::Transcript t;
  t.provenance = "synthetic";
  t.lab_name = "day34-stencil-tile";
  const std::uint64_t small = 2048 * 2048;
  const std::uint64_t large = std::uint64_t{1} << 27;
  t.cases = {
      labrun::testing::make_case_result(kNaive, "stencil", "l2-resident", small, model, {naive_small}),
      labrun::testing::make_case_result(kTiled, "stencil", "l2-resident", small, model, {tiled_small}),
      labrun::testing::make_case_result(kNaive, "stencil", "card-scaled", large, model, {naive_large}),
      labrun::testing::make_case_result(kTiled, "stencil", "card-scaled", large, model, {tiled_large})};
  return t;
}

labrun::ClaimResult tile_claim(const labrun::Transcript& t) {
  for (const labrun::ClaimResult& c : labrun::evaluate_claims(day34_lab().claims, t)) {
    if (c.id == "tile-is-not-faster") {
      return c;
    }
  }
  FAIL("no claim tile-is-not-faster");
  return {};
}

}  // namespace

TEST_CASE("day 34's reference: a flat grid stays flat, a spike spreads a quarter to each neighbour") {
  const std::size_t width = 5;
  const std::size_t height = 3;
  for (const double v : day34::stencil_reference(std::vector<float>(width * height, 0.75f), width, height)) {
    CHECK(v == 0.75);
  }
  std::vector<float> spike(width * height, 0.0f);
  spike[1 * width + 2] = 1.0f;
  const std::vector<double> out = day34::stencil_reference(spike, width, height);
  CHECK(out[1 * width + 2] == 0.5);
  CHECK(out[1 * width + 1] == 0.125);
  CHECK(out[0 * width + 2] == 0.125);
  CHECK(out[2 * width + 2] == 0.125);
  CHECK(out[0 * width + 0] == 0.0);
  // Edges clamped: a corner's missing neighbours are the corner itself.
  std::vector<float> corner(width * height, 0.0f);
  corner[0] = 1.0f;
  CHECK(day34::stencil_reference(corner, width, height)[0] == 0.5 + 0.125 * 2);
}

TEST_CASE("day 34 declares five loads a cell against 1.328, the same bytes, and a claim at every size") {
  const labrun::Lab& lab = day34_lab();
  const labrun::CaseSpec* naive = lab.find_case(kNaive);
  const labrun::CaseSpec* tiled = lab.find_case(kTiled);
  REQUIRE(naive != nullptr);
  REQUIRE(tiled != nullptr);
  CHECK(naive->model.bytes_per_element() == tiled->model.bytes_per_element());
  CHECK(naive->describe_sizes() == "l2-resident 2048x2048, card-scaled image");
  REQUIRE(naive->figures.size() == 2);
  CHECK(*naive->figures[0].value == 5.0);
  CHECK(*tiled->figures[0].value == Catch::Approx(1.328).margin(0.001));
  CHECK(lab.correctness_shape == labrun::Shape{1001, 999});
  CHECK_FALSE(lab.roofline.empty());
  const labrun::ClaimSpec& claim = lab.claims.at(0);
  CHECK(claim.at_every_size());
  CHECK(*claim.bound.high == 1.05);
}

TEST_CASE("day 34's claim: held where the tile gains at most 5% at every size, failed where it gains more") {
  const labrun::ClaimResult slower = tile_claim(stencil_run(0.100, 0.110, 3.00, 3.10));
  CHECK(slower.verdict == labrun::Verdict::kHeld);
  CHECK(slower.tolerance == "at most 1.05");
  const labrun::ClaimResult faster_when_large = tile_claim(stencil_run(0.100, 0.110, 3.30, 3.00));
  CHECK(faster_when_large.verdict == labrun::Verdict::kFailed);
  CHECK(*faster_when_large.measured == Catch::Approx(1.10));
  CHECK_THAT(faster_when_large.figures, Catch::Matchers::ContainsSubstring("(card-scaled)"));
}

TEST_CASE("day 34's report shows its figures as columns, from the transcript alone") {
  labrun::Transcript t = stencil_run(0.100, 0.110, 3.00, 3.10);
  labrun::record_declared_figures(day34_lab(), t);
  const labrun::CaseResult& tiled_small = t.cases[1];
  REQUIRE(tiled_small.declared_figures.size() == 2);
  CHECK(*tiled_small.declared_figures[1].value == Catch::Approx(4194304.0 / (0.110 * 1e6)));
  const std::string markdown = labrun::render_markdown(t, &day34_lab(), "");
  CHECK_THAT(markdown, Catch::Matchers::ContainsSubstring("| global loads (per cell) | cells (10^9/s) |"));
  CHECK_THAT(markdown, Catch::Matchers::ContainsSubstring("|                   1.328 |          38.13 |"));
}
