#include "plots.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "analysis.hpp"
#include "base/format.hpp"
#include "case_names.hpp"
#include "constants.hpp"
#include "lab.hpp"

namespace verdicts {
namespace {

using labrun::fixed;
using labrun::LineSeries;
using labrun::PlotPanel;
using labrun::PlotSpec;
using labrun::Transcript;

std::optional<PlotSpec> crossover_plot(const Transcript& t) {
  const std::vector<PairPoint> points = pair_sweep(t, cases::kPairTwoPasses, cases::kPairFused);
  if (points.empty()) {
    return std::nullopt;
  }
  LineSeries speedup{"two passes / fused (measured)", {}, {}};
  LineSeries eliminated{"eliminated traffic (GB/s)", {}, {}};
  for (const PairPoint& p : points) {
    speedup.x.push_back(static_cast<double>(p.elements));
    speedup.y.push_back(p.speedup);
    if (p.eliminated_gb_per_s) {
      eliminated.x.push_back(static_cast<double>(p.elements));
      eliminated.y.push_back(*p.eliminated_gb_per_s);
    }
  }
  PlotPanel ratio;
  ratio.x_label = "n (elements)";
  ratio.y_label = "two passes / fused (ratio of medians)";
  ratio.x_log = true;
  ratio.lines = {speedup};
  ratio.reference_lines = {{"byte ratio " + fixed(points.front().byte_ratio, 2), points.front().byte_ratio}};

  PlotPanel bandwidth;
  bandwidth.x_label = "n (elements)";
  bandwidth.y_label = "GB/s of the eliminated traffic";
  bandwidth.x_log = true;
  bandwidth.lines = {eliminated};
  for (const std::string label : {"lesson", "card-scaled"}) {
    if (const std::optional<double> copy = case_gb_per_s(t, cases::kCopy, label)) {
      bandwidth.reference_lines.push_back(
          {"copy floor at the " + label + " size, " + fixed(*copy, 1) + " GB/s", *copy});
    }
  }
  if (const std::optional<double> l2 = l2_bytes(t)) {
    const labrun::VerticalLine line{
        "n x 4 B = L2 (" + labrun::binary_size(static_cast<std::uint64_t>(*l2)) + ")", *l2 / kElementBytes};
    ratio.vertical_lines.push_back(line);
    bandwidth.vertical_lines.push_back(line);
  }
  std::vector<PlotPanel> panels{ratio};
  if (!eliminated.x.empty()) {
    panels.push_back(bandwidth);
  }
  return PlotSpec{"l2-crossover", "The L2 crossover: scale then bias, two passes against one", panels};
}

std::optional<PlotSpec> stencil_plot(const Transcript& t, const std::string& size_label) {
  LineSeries speedup{"two passes / fused (measured)", {}, {}};
  double byte_ratio = 0.0;
  for (const int radius : kStencilRadii) {
    const std::optional<PairPoint> p =
        pair_at(t, cases::stencil(radius, false), cases::stencil(radius, true), size_label);
    if (p) {
      speedup.x.push_back(radius);
      speedup.y.push_back(p->speedup);
      byte_ratio = p->byte_ratio;
    }
  }
  if (speedup.x.size() < 2) {
    return std::nullopt;
  }
  PlotPanel panel;
  panel.x_label = "stencil radius R (2R + 1 points per pass)";
  panel.y_label = "two passes / fused (ratio of medians)";
  panel.x_log = true;
  panel.lines = {speedup};
  panel.reference_lines = {{"byte ratio " + fixed(byte_ratio, 2), byte_ratio}, {"break-even", 1.0}};
  return PlotSpec{"stencil-radius-" + labrun::plot_id_part(size_label),
                  "Stencil then stencil: where recomputing the halo stops paying, " + size_label + " size",
                  {panel}};
}

std::optional<PlotSpec> reuse_plot(const Transcript& t) {
  PlotPanel ratio;
  ratio.x_label = "reuse R (outputs per value)";
  ratio.y_label = "materialise / recompute (above 1: recompute wins)";
  ratio.x_log = true;
  ratio.reference_lines = {{"break-even", 1.0}};
  PlotPanel times;
  times.x_label = "reuse R (outputs per value)";
  times.y_label = "median time (ms)";
  times.x_log = true;
  times.y_log = true;
  for (const bool expensive : {false, true}) {
    const std::vector<ReusePoint> points = reuse_sweep(t, expensive);
    if (points.empty()) {
      continue;
    }
    const std::string cost = expensive ? "expensive" : "cheap";
    LineSeries ratios{cost + " value", {}, {}};
    LineSeries recompute{cost + ", recompute", {}, {}};
    LineSeries materialise{cost + ", materialise", {}, {}};
    for (const ReusePoint& p : points) {
      ratios.x.push_back(p.reuse);
      ratios.y.push_back(p.ratio);
      recompute.x.push_back(p.reuse);
      recompute.y.push_back(p.recompute_ms);
      materialise.x.push_back(p.reuse);
      materialise.y.push_back(p.materialise_ms);
    }
    ratio.lines.push_back(ratios);
    times.lines.push_back(recompute);
    times.lines.push_back(materialise);
  }
  if (ratio.lines.empty()) {
    return std::nullopt;
  }
  return PlotSpec{
      "recompute-or-materialise", "Recompute or materialise a value used by R outputs", {ratio, times}};
}

}  // namespace

std::vector<PlotSpec> plots(const Transcript& t) {
  std::vector<PlotSpec> specs;
  if (std::optional<PlotSpec> crossover = crossover_plot(t)) {
    specs.push_back(std::move(*crossover));
  }
  std::vector<std::string> labels;
  for (const labrun::CaseResult& c : t.cases) {
    if (c.part == kStencilPart && std::find(labels.begin(), labels.end(), c.size_label) == labels.end()) {
      labels.push_back(c.size_label);
    }
  }
  for (const std::string& label : labels) {
    if (std::optional<PlotSpec> stencil = stencil_plot(t, label)) {
      specs.push_back(std::move(*stencil));
    }
  }
  if (std::optional<PlotSpec> reuse = reuse_plot(t)) {
    specs.push_back(std::move(*reuse));
  }
  return specs;
}

}  // namespace verdicts
