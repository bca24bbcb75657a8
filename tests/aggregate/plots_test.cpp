#include "aggregate/plots.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cmath>

#include "aggregate/writers_support.hpp"
#include "plots/draw_plots.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;

TEST_CASE("the aggregate's plots: measured ratios against the model, and the claims matrix") {
  const labrun::testing::TemporaryDirectory temporary("labrun-aggregate-plots");
  const fs::path& dir = temporary.path;
  const labrun::Aggregate aggregate = labrun::testing::two_synthetic_cards_and_the_lesson(dir);
  const std::vector<labrun::PlotSpec> specs = labrun::aggregate_plots(aggregate);
  REQUIRE(specs.size() == 2);
  const labrun::PlotSpec& ratios = specs[0];
  CHECK(ratios.id == "day48-fusion-ratios");
  REQUIRE_FALSE(ratios.panels.empty());
  const labrun::PlotPanel& staged = ratios.panels[0];
  CHECK(staged.kind == "bar");
  REQUIRE(staged.categories.size() == 3);
  CHECK(staged.categories[0] == "Tesla T4 (transcribed) (lesson)");
  CHECK(staged.categories[2] == "Synthetic, \"Card\" A (synthetic) (card-scaled)");
  CHECK(staged.bar_low.size() == 3);
  CHECK(staged.bar_high[2] > staged.bar_low[2]);
  REQUIRE(staged.reference_lines.size() == 2);
  CHECK(staged.reference_lines[0].y == 3.0);
  CHECK(staged.reference_lines[1].y == 4.0);

  const labrun::PlotSpec& claims = specs[1];
  CHECK(claims.id == "day48-fusion-claims");
  REQUIRE(claims.panels.size() == 1);
  const labrun::PlotPanel& matrix = claims.panels[0];
  CHECK(matrix.kind == "matrix");
  CHECK(matrix.columns.size() == 3);
  CHECK(matrix.cells.size() == matrix.categories.size() * matrix.columns.size());
  CHECK(matrix.cell_labels.size() == matrix.cells.size());
  // The T4 has no half-way pair: those claims are not measured there.
  const auto row = static_cast<std::size_t>(
      std::find(matrix.categories.begin(), matrix.categories.end(), "halfway-against-staged") -
      matrix.categories.begin());
  REQUIRE(row < matrix.categories.size());
  CHECK(std::isnan(matrix.cells[row * 3]));
  CHECK(matrix.cell_labels[row * 3] == "not measured");
  CHECK(std::find(matrix.categories.begin(), matrix.categories.end(),
                  "fused-and-staged-agree-bitwise (expected to fail)") != matrix.categories.end());

  // The renderer accepts them, and draws them where matplotlib is installed.
  CHECK_NOTHROW(labrun::plot_specs_to_json(specs, dir, labrun::kAggregateStem, "svg"));
  const labrun::PlotOutcome outcome = labrun::draw_plots(specs, dir, labrun::kAggregateStem, "svg", false);
  if (outcome.skipped_reason.empty()) {
    CHECK(outcome.drawn.size() == 2);
    CHECK(fs::exists(dir / "aggregate.day48-fusion-claims.svg"));
  }
}
