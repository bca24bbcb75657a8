// The roofline from a transcript alone (a synthetic one: its figures are chosen, not measured).

#include "evidence/roofline.hpp"

#include <algorithm>
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Approx;
using Catch::Matchers::ContainsSubstring;

namespace {

// A case timed at `median_ms` (one sample of that value), with its model.
labrun::CaseResult timed(const std::string& name, const std::string& size_label, std::uint64_t elements,
                         labrun::ByteModel model, double median_ms) {
  labrun::CaseResult c;
  c.name = name;
  c.size_label = size_label;
  c.elements = elements;
  c.model = model;
  c.samples_ms = {median_ms};
  c.summary.count = 1;
  c.summary.median = median_ms;
  return c;
}

// Synthetic: a copy at 1000 GB/s (8 MB in 8 us), a peak-FMA case at 20000 GFLOP/s, a fused case of
// 2 flops over 8 bytes at 800 GB/s, and a case without a flop model.
labrun::Transcript synthetic_roofline_transcript() {
  labrun::Transcript t;
  t.provenance = "synthetic";
  t.environment.push_back(labrun::FactGroup{"device",
                                            {labrun::Fact::known("name", std::string("Synthetic GPU")),
                                             labrun::Fact::known("memory_peak_gb_per_s", 1200.0),
                                             labrun::Fact::known("fp32_peak_gflop_per_s", 25000.0)}});
  const std::uint64_t n = 1'000'000;
  t.cases.push_back(timed("lab/card/copy", "card-scaled", n, labrun::with_flops({4, 4, 1}, 0.0), 0.008));
  t.cases.push_back(timed("lab/card/copy", "lesson", n / 4, labrun::with_flops({4, 4, 1}, 0.0), 0.001));
  t.cases.push_back(timed("lab/card/peak-fma", "fixed", n, labrun::with_flops({0, 4, 1}, 4000.0), 0.2));
  t.cases.push_back(timed("lab/part/fused", "card-scaled", n, labrun::with_flops({4, 4, 1}, 2.0), 0.01));
  t.cases.push_back(timed("lab/part/other", "card-scaled", n, labrun::ByteModel{4, 4, 1}, 0.01));
  t.roofline = labrun::RooflineRecord{{"lab/card/copy"}, "lab/card/peak-fma"};
  return t;
}

}  // namespace

TEST_CASE("the roofline's ceilings come from the copy and peak-FMA cases of the same run") {
  const labrun::RooflineOutcome outcome = labrun::roofline_of(synthetic_roofline_transcript());
  REQUIRE(outcome.figures.has_value());
  const labrun::RooflineFigures& f = *outcome.figures;
  CHECK(f.memory_gb_per_s == Approx(1000.0));  // the card-scaled copy, not the lesson's faster-looking one
  CHECK(f.memory_size_label == "card-scaled");
  CHECK(f.compute_gflop_per_s == Approx(20000.0));
  CHECK(f.ridge() == Approx(20.0));
  CHECK(f.theoretical_memory_gb_per_s == Approx(1200.0));
  CHECK(f.theoretical_compute_gflop_per_s == Approx(25000.0));
  CHECK(f.undeclared == std::vector<std::string>{"lab/part/other"});
  REQUIRE(f.points.size() == 3);
  const labrun::RooflinePoint& fused = f.points[2];
  CHECK(fused.name == "lab/part/fused");
  CHECK(fused.intensity() == Approx(0.25));
  CHECK(fused.gflop_per_s == Approx(200.0));
  CHECK(f.roof_at(fused.intensity()) == Approx(250.0));
  CHECK(f.roof_at(100.0) == Approx(20000.0));
}

TEST_CASE(
    "the roofline's table and plot show each case under the ceilings, and ncu's counts beside the model") {
  labrun::Transcript t = synthetic_roofline_transcript();
  const labrun::Table plain = labrun::roofline_table(*labrun::roofline_of(t).figures);
  CHECK(plain.title == "Roofline");
  REQUIRE(plain.rows.size() == 3);
  CHECK(plain.rows[2][0] == "lab/part/fused");
  CHECK(plain.rows[2].back() == "memory");
  CHECK(plain.rows[2][8] == "80.0%");  // 200 of the 250 GFLOP/s roof
  CHECK(std::find(plain.headers.begin(), plain.headers.end(), "ncu flop/elem") == plain.headers.end());

  labrun::ProfileRecord profile;
  labrun::ProfiledCase counted;
  counted.name = "lab/part/fused";
  counted.elements = 1'000'000;
  counted.fp32 = labrun::Fp32Instructions{1e6, 0.0, 1e6};  // 3 flops an element where the model says 2
  profile.cases.push_back(counted);
  t.profile = profile;
  const labrun::Table with_counts = labrun::roofline_table(*labrun::roofline_of(t).figures);
  REQUIRE(with_counts.headers.size() == plain.headers.size() + 1);
  CHECK(with_counts.headers[5] == "ncu flop/elem");
  CHECK(with_counts.rows[2][5] == "3.0");
  CHECK(with_counts.rows[0][5] == "-");

  const labrun::PlotSpec plot = labrun::roofline_plot(*labrun::roofline_of(t).figures, "Synthetic GPU");
  CHECK(plot.id == labrun::kRooflinePlotId);
  REQUIRE(plot.panels.size() == 1);
  CHECK(plot.panels[0].x_log);
  REQUIRE(plot.panels[0].lines.size() == 3);  // measured ceilings, theoretical peaks, the cases
  CHECK(plot.panels[0].lines[0].y[1] == Approx(20000.0));
  CHECK(plot.panels[0].lines[1].style == "dashed");
  CHECK(plot.panels[0].lines[2].point_labels == std::vector<std::string>{"card/peak-fma", "part/fused"});
  CHECK(labrun::transcript_plots(t, nullptr).size() == 1);
}

TEST_CASE("no roofline for a transcript that declares none; a reason for one whose ceilings were not timed") {
  labrun::Transcript old = synthetic_roofline_transcript();
  old.roofline.reset();  // before 1.7.0, or a lab without one
  const labrun::RooflineOutcome none = labrun::roofline_of(old);
  CHECK_FALSE(none.figures.has_value());
  CHECK(none.not_drawn.empty());
  CHECK(labrun::transcript_plots(old, nullptr).empty());

  labrun::Transcript untimed = synthetic_roofline_transcript();
  untimed.roofline->compute_ceiling_case = "lab/card/missing";
  const labrun::RooflineOutcome missing = labrun::roofline_of(untimed);
  CHECK_FALSE(missing.figures.has_value());
  CHECK_THAT(missing.not_drawn, ContainsSubstring("lab/card/missing was not timed"));
}
