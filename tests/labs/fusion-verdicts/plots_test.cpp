#include "fusion-verdicts/plots.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "verdicts_sample.hpp"

namespace {

const labrun::PlotSpec& plot_with_id(const std::vector<labrun::PlotSpec>& specs, const std::string& id) {
  for (const labrun::PlotSpec& spec : specs) {
    if (spec.id == id) {
      return spec;
    }
  }
  FAIL("no plot " << id);
  return specs.front();
}

}  // namespace

TEST_CASE("the plots, as data from the transcript alone") {
  const std::vector<labrun::PlotSpec> specs = verdicts::plots(verdicts::testing::sample_transcript());
  std::vector<std::string> ids;
  for (const labrun::PlotSpec& spec : specs) {
    ids.push_back(spec.id);
    for (const labrun::PlotPanel& panel : spec.panels) {
      for (const labrun::LineSeries& line : panel.lines) {
        CHECK(line.x.size() == line.y.size());
      }
    }
  }
  CHECK(ids == std::vector<std::string>{"l2-crossover", "stencil-radius-lesson", "recompute-or-materialise"});
}

TEST_CASE("the crossover plot: speedup against n, the byte ratio, and the L2 line") {
  const std::vector<labrun::PlotSpec> specs = verdicts::plots(verdicts::testing::sample_transcript());
  const labrun::PlotSpec crossover = plot_with_id(specs, "l2-crossover");
  REQUIRE(crossover.panels.size() == 2);
  const labrun::PlotPanel& ratio = crossover.panels[0];
  CHECK(ratio.x_log);
  REQUIRE(ratio.lines.size() == 1);
  CHECK(ratio.lines[0].x.size() == 18);
  CHECK(ratio.lines[0].x.front() == 1024.0);
  CHECK(ratio.lines[0].y.back() == Catch::Approx(1.96));
  REQUIRE(ratio.reference_lines.size() == 1);
  CHECK(ratio.reference_lines[0].y == 2.0);
  REQUIRE(ratio.vertical_lines.size() == 1);
  CHECK(ratio.vertical_lines[0].x == 62914560.0 / 4.0);
  // The eliminated traffic's GB/s, with the copy floor at both its sizes.
  const labrun::PlotPanel& bandwidth = crossover.panels[1];
  CHECK(bandwidth.lines[0].x.size() == 18);
  CHECK(bandwidth.reference_lines.size() == 2);
  CHECK(bandwidth.reference_lines[1].y == Catch::Approx(2684.35456));
}

TEST_CASE("the recompute plot: both values against R, with break-even at 1") {
  labrun::Transcript t = verdicts::testing::sample_transcript();
  const std::vector<labrun::PlotSpec> specs = verdicts::plots(t);
  const labrun::PlotSpec reuse = plot_with_id(specs, "recompute-or-materialise");
  REQUIRE(reuse.panels.size() == 2);
  REQUIRE(reuse.panels[0].lines.size() == 2);
  CHECK(reuse.panels[0].lines[0].label == "cheap value");
  CHECK(reuse.panels[0].lines[1].x == std::vector<double>{1, 2, 4, 8, 16, 32, 64, 128, 256});
  CHECK(reuse.panels[0].reference_lines[0].y == 1.0);
  CHECK(reuse.panels[1].lines.size() == 4);
  CHECK(reuse.panels[1].y_log);

  // Without the device's L2 or the sweep, the plots that need them are left out.
  t.environment.clear();
  std::erase_if(t.cases, [](const labrun::CaseResult& c) { return c.part == verdicts::kReusePart; });
  const std::vector<labrun::PlotSpec> fewer = verdicts::plots(t);
  CHECK(plot_with_id(fewer, "l2-crossover").panels[0].vertical_lines.empty());
  for (const labrun::PlotSpec& spec : fewer) {
    CHECK(spec.id != "recompute-or-materialise");
  }
}
