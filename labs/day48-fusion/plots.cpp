#include "plots.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "base/format.hpp"
#include "case_names.hpp"
#include "lab.hpp"

namespace day48 {
namespace {

using labrun::CaseResult;
using labrun::fixed;
using labrun::LineSeries;
using labrun::PlotPanel;
using labrun::PlotSpec;
using labrun::Transcript;

// Bytes of one element of the chain's buffers: n x this is the footprint the L2 line marks.
constexpr double kElementBytes = sizeof(float);

std::optional<PlotSpec> bandwidth_plot(const Transcript& t, const std::string& size_label) {
  PlotPanel panel;
  panel.kind = "bar";
  panel.x_label = "case";
  panel.y_label = "effective GB/s (model bytes / median time)";
  for (const CaseResult& c : t.cases) {
    if (c.part == "part2" && c.size_label == size_label && c.central_ms() > 0.0) {
      panel.categories.push_back(c.label);
      panel.bar_values.push_back(c.gb_per_s());
    }
  }
  if (panel.categories.empty()) {
    return std::nullopt;
  }
  const CaseResult* ceiling = nullptr;
  for (const std::string& copy : {cases::kCopyFloor, cases::kCopyVectorized, cases::kCopyMemcpy}) {
    const CaseResult* c = t.find_case(copy, size_label);
    if (c != nullptr && c->central_ms() > 0.0 &&
        (ceiling == nullptr || c->gb_per_s() > ceiling->gb_per_s())) {
      ceiling = c;
    }
  }
  if (ceiling != nullptr) {
    panel.reference_lines.push_back(
        {"measured ceiling (" + ceiling->label + ") " + fixed(ceiling->gb_per_s(), 1) + " GB/s",
         ceiling->gb_per_s()});
  }
  const std::optional<double> peak = t.numeric_fact("device", "memory_peak_gb_per_s");
  if (peak && *peak > 0.0) {
    panel.reference_lines.push_back({"theoretical peak " + fixed(*peak, 1) + " GB/s", *peak});
  }
  return PlotSpec{
      "bandwidth-" + labrun::plot_id_part(size_label),
      "Part 2: effective bandwidth of every version, " + labrun::size_title(t, "part2", size_label),
      {panel}};
}

std::optional<PlotSpec> sweep_plot(const Transcript& t) {
  std::vector<const CaseResult*> staged = t.cases_named(cases::kSweepStagedChain);
  const std::vector<const CaseResult*> fused = t.cases_named(cases::kSweepFusedChain);
  std::sort(staged.begin(), staged.end(),
            [](const CaseResult* a, const CaseResult* b) { return a->elements < b->elements; });
  LineSeries staged_times;
  LineSeries fused_times;
  LineSeries ratios;
  const CaseResult* first_pair_staged = nullptr;
  const CaseResult* first_pair_fused = nullptr;
  for (const CaseResult* s : staged) {
    const auto same_n = std::find_if(fused.begin(), fused.end(),
                                     [&](const CaseResult* f) { return f->elements == s->elements; });
    if (same_n == fused.end() || s->central_ms() <= 0.0 || (*same_n)->central_ms() <= 0.0) {
      continue;
    }
    if (first_pair_staged == nullptr) {
      first_pair_staged = s;
      first_pair_fused = *same_n;
    }
    const auto n = static_cast<double>(s->elements);
    staged_times.x.push_back(n);
    staged_times.y.push_back(s->central_ms());
    fused_times.x.push_back(n);
    fused_times.y.push_back((*same_n)->central_ms());
    ratios.x.push_back(n);
    ratios.y.push_back(s->central_ms() / (*same_n)->central_ms());
  }
  if (first_pair_staged == nullptr) {
    return std::nullopt;
  }
  staged_times.label = first_pair_staged->label;
  fused_times.label = first_pair_fused->label;
  ratios.label = first_pair_staged->label + " / " + first_pair_fused->label + " (measured)";

  PlotPanel times;
  times.x_label = "n (elements)";
  times.y_label = "median time (ms)";
  times.x_log = true;
  times.y_log = true;
  times.lines = {staged_times, fused_times};

  PlotPanel ratio;
  ratio.x_label = "n (elements)";
  ratio.y_label = "staged / fused (ratio of medians)";
  ratio.x_log = true;
  ratio.lines = {ratios};
  const labrun::PredictedRatios predicted =
      labrun::predicted_ratios(first_pair_staged->model, first_pair_fused->model);
  ratio.reference_lines = {{"byte ratio " + fixed(predicted.bytes, 2) + " (" +
                                fixed(first_pair_staged->model.bytes_per_element(), 0) + " / " +
                                fixed(first_pair_fused->model.bytes_per_element(), 0) + " B per element)",
                            predicted.bytes},
                           {"launch ratio " + fixed(predicted.launches, 2) + " (" +
                                std::to_string(first_pair_staged->model.launches) + " / " +
                                std::to_string(first_pair_fused->model.launches) + " launches)",
                            predicted.launches}};

  const std::optional<double> l2_bytes = t.numeric_fact("device", "l2_bytes");
  if (l2_bytes && *l2_bytes > 0.0) {
    const labrun::VerticalLine l2{
        "n x 4 B = L2 (" + labrun::binary_size(static_cast<std::uint64_t>(*l2_bytes)) + ")",
        *l2_bytes / kElementBytes};
    times.vertical_lines.push_back(l2);
    ratio.vertical_lines.push_back(l2);
  }
  return PlotSpec{"sweep", "Part 3: staged and fused chains swept over n", {times, ratio}};
}

std::optional<PlotSpec> width_plot(const Transcript& t, const std::string& size_label) {
  const std::string prefix = case_name("part4", cases::kFusedWidePrefix);
  std::vector<std::pair<int, const CaseResult*>> by_width;
  for (const CaseResult& c : t.cases) {
    if (c.part != "part4" || c.size_label != size_label || c.name.rfind(prefix, 0) != 0) {
      continue;
    }
    try {
      by_width.emplace_back(std::stoi(c.name.substr(prefix.size())), &c);
    } catch (const std::exception&) {
      continue;  // not a width case
    }
  }
  std::stable_sort(by_width.begin(), by_width.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  LineSeries times{"median time", {}, {}};
  LineSeries occupancy{"theoretical occupancy", {}, {}};
  for (const auto& [width, c] : by_width) {
    if (c->central_ms() > 0.0) {
      times.x.push_back(width);
      times.y.push_back(c->central_ms());
    }
    const auto found = c->attributes.find("theoretical_occupancy");
    if (found != c->attributes.end()) {
      occupancy.x.push_back(width);
      occupancy.y.push_back(found->second);
    }
  }
  if (times.x.empty()) {
    return std::nullopt;
  }
  PlotSpec spec{
      "width-" + labrun::plot_id_part(size_label),
      "Part 4: chainFused widened to K elements per thread, " + labrun::size_title(t, "part4", size_label),
      {}};
  PlotPanel time_panel;
  time_panel.x_label = "K (elements per thread)";
  time_panel.y_label = "median time (ms)";
  time_panel.x_log = true;
  time_panel.lines = {times};
  spec.panels.push_back(time_panel);
  if (!occupancy.x.empty()) {
    PlotPanel occupancy_panel;
    occupancy_panel.x_label = "K (elements per thread)";
    occupancy_panel.y_label = "theoretical occupancy (fraction)";
    occupancy_panel.x_log = true;
    occupancy_panel.lines = {occupancy};
    spec.panels.push_back(occupancy_panel);
  }
  return spec;
}

}  // namespace

std::vector<PlotSpec> plots(const Transcript& transcript) {
  std::vector<PlotSpec> specs;
  const auto add = [&](std::optional<PlotSpec> spec) {
    if (spec) {
      specs.push_back(std::move(*spec));
    }
  };
  for (const std::string& label : transcript.size_labels_of("part2")) {
    add(bandwidth_plot(transcript, label));
  }
  add(sweep_plot(transcript));
  for (const std::string& label : transcript.size_labels_of("part4")) {
    add(width_plot(transcript, label));
  }
  return specs;
}

}  // namespace day48
