#include "evidence/roofline.hpp"

#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "core/byte_model.hpp"

namespace labrun {
namespace {

std::optional<double> counted_flops(const Transcript& t, const CaseResult& c) {
  if (!t.profile) {
    return std::nullopt;
  }
  for (const ProfiledCase& profiled : t.profile->cases) {
    if (profiled.name == c.name && profiled.elements == c.elements && profiled.fp32 &&
        profiled.elements > 0) {
      return profiled.fp32->flops() / static_cast<double>(profiled.elements);
    }
  }
  return std::nullopt;
}

}  // namespace

double RooflineFigures::roof_at(double intensity) const {
  return std::min(compute_gflop_per_s, memory_gb_per_s * intensity);
}

const CaseResult* roofline_size_of(const Transcript& t, const std::string& case_name) {
  for (const char* preferred : {"card-scaled", "lesson"}) {
    const CaseResult* c = t.find_case(case_name, preferred);
    if (c != nullptr && c->central_ms() > 0.0) {
      return c;
    }
  }
  const CaseResult* largest = nullptr;
  for (const CaseResult* c : t.cases_named(case_name)) {
    if (c->central_ms() > 0.0 && (largest == nullptr || c->elements > largest->elements)) {
      largest = c;
    }
  }
  return largest;
}

RooflineOutcome roofline_of(const Transcript& t) {
  RooflineOutcome outcome;
  if (!t.roofline) {
    return outcome;
  }
  RooflineFigures figures;
  for (const std::string& name : t.roofline->memory_ceiling_cases) {
    const CaseResult* c = roofline_size_of(t, name);
    if (c != nullptr && c->gb_per_s() > figures.memory_gb_per_s) {
      figures.memory_gb_per_s = c->gb_per_s();
      figures.memory_case = c->name;
      figures.memory_size_label = c->size_label;
    }
  }
  if (figures.memory_case.empty()) {
    outcome.not_drawn =
        "no memory ceiling case (" + join(t.roofline->memory_ceiling_cases, ", ") + ") was timed";
    return outcome;
  }
  const CaseResult* compute = roofline_size_of(t, t.roofline->compute_ceiling_case);
  const std::optional<double> compute_gflops = compute != nullptr ? compute->gflop_per_s() : std::nullopt;
  if (!compute_gflops || !(*compute_gflops > 0.0)) {
    outcome.not_drawn = "the compute ceiling case " + t.roofline->compute_ceiling_case + " was not timed";
    return outcome;
  }
  figures.compute_gflop_per_s = *compute_gflops;
  figures.compute_case = compute->name;
  figures.compute_elements = compute->elements;
  figures.theoretical_memory_gb_per_s = t.numeric_fact("device", "memory_peak_gb_per_s");
  figures.theoretical_compute_gflop_per_s = t.numeric_fact("device", "fp32_peak_gflop_per_s");
  std::vector<std::string> seen;
  for (const CaseResult& c : t.cases) {
    if (std::find(seen.begin(), seen.end(), c.name) != seen.end()) {
      continue;
    }
    seen.push_back(c.name);
    const CaseResult* at = roofline_size_of(t, c.name);
    if (at == nullptr) {
      continue;  // not timed: a failed check, or a size this run did not reach
    }
    if (!at->model.flops_per_element) {
      figures.undeclared.push_back(c.name);
      continue;
    }
    RooflinePoint point;
    point.name = at->name;
    point.size_label = at->size_label;
    point.elements = at->elements;
    point.flops_per_element = *at->model.flops_per_element;
    point.bytes_per_element = at->model.bytes_per_element();
    point.gflop_per_s = at->gflop_per_s().value_or(0.0);
    point.gb_per_s = at->gb_per_s();
    point.counted_flops_per_element = counted_flops(t, *at);
    figures.points.push_back(point);
  }
  outcome.figures = figures;
  return outcome;
}

Table roofline_table(const RooflineFigures& f) {
  Table table;
  table.title = "Roofline";
  const auto peak = [](const std::optional<double>& value, const std::string& unit) {
    return value && *value > 0.0 ? fixed(*value, 1) + " " + unit : std::string("unknown");
  };
  table.notes = {
      "Each case with a flop model, at its card-scaled size (else the lesson's, else its largest), as a "
      "point "
      "at its arithmetic intensity (flops over bytes per element, from its models) and its throughput (its "
      "flops over its median time); no counters are needed.",
      "Memory ceiling: " + fixed(f.memory_gb_per_s, 1) + " GB/s, " + f.memory_case + " at the " +
          f.memory_size_label + " size, the best of the lab's copies (theoretical peak " +
          peak(f.theoretical_memory_gb_per_s, "GB/s") +
          "). Compute ceiling: " + fixed(f.compute_gflop_per_s, 1) + " GFLOP/s, " + f.compute_case +
          " at n = " + std::to_string(f.compute_elements) + " (theoretical FP32 peak " +
          peak(f.theoretical_compute_gflop_per_s, "GFLOP/s") +
          ": SMs x FP32 lanes x 2 x peak SM clock). Ridge point: " + fixed(f.ridge(), 2) + " flops per byte.",
      "roof is the ceiling at the case's intensity, the lower of the two; a case left of the ridge is bound "
      "by "
      "memory, right of it by compute."};
  table.headers = {"case", "size",         "n",         "flop/B",  "flop/elem", "GFLOP/s",
                   "GB/s", "roof GFLOP/s", "% of roof", "bound by"};
  table.right_aligned = {false, false, true, true, true, true, true, true, true, false};
  const bool counted = std::any_of(f.points.begin(), f.points.end(), [](const RooflinePoint& p) {
    return p.counted_flops_per_element.has_value();
  });
  if (counted) {
    table.headers.insert(table.headers.begin() + 5, "ncu flop/elem");
    table.right_aligned.insert(table.right_aligned.begin() + 5, true);
    table.notes.push_back(
        "ncu flop/elem: the FP32 operations Nsight Compute counted per element in `labrun profile` (FADD + "
        "FMUL + 2 x FFMA instructions over threads), beside the flop model: a library call (sqrtf, erff, "
        "expf) "
        "runs several instructions, a comparison none, and the index arithmetic of a kernel may be FP32 "
        "too.");
  }
  for (const RooflinePoint& p : f.points) {
    const double intensity = p.intensity();
    const bool moves_bytes_only = !(p.flops_per_element > 0.0);
    const bool no_bytes = !(p.bytes_per_element > 0.0);
    std::string roof = "-";
    std::string share = "-";
    std::string bound = "-";
    if (moves_bytes_only && !no_bytes) {
      share = percent(p.gb_per_s / f.memory_gb_per_s) + " of memory";
      bound = "memory (no flops)";
    } else if (!moves_bytes_only && !no_bytes) {
      const double attainable = f.roof_at(intensity);
      roof = fixed(attainable, 1);
      share = attainable > 0.0 ? percent(p.gflop_per_s / attainable) : "-";
      bound = intensity < f.ridge() ? "memory" : "compute";
    } else if (no_bytes && !moves_bytes_only) {
      share = percent(p.gflop_per_s / f.compute_gflop_per_s) + " of compute";
      bound = "compute (no bytes)";
    } else {
      bound = "launch (no bytes, no flops)";
    }
    std::vector<std::string> row{p.name,
                                 p.size_label,
                                 std::to_string(p.elements),
                                 no_bytes ? "-" : fixed(intensity, intensity < 10.0 ? 3 : 1),
                                 fixed(p.flops_per_element, p.flops_per_element < 100.0 ? 1 : 0),
                                 fixed(p.gflop_per_s, 1),
                                 fixed(p.gb_per_s, 1),
                                 roof,
                                 share,
                                 bound};
    if (counted) {
      row.insert(row.begin() + 5,
                 p.counted_flops_per_element
                     ? fixed(*p.counted_flops_per_element, *p.counted_flops_per_element < 100.0 ? 1 : 0)
                     : "-");
    }
    table.rows.push_back(std::move(row));
  }
  if (!f.undeclared.empty()) {
    table.notes.push_back("Not placed (no flop model declared): " + join(f.undeclared, ", ") + ".");
  }
  return table;
}

PlotSpec roofline_plot(const RooflineFigures& f, const std::string& device_name) {
  PlotSpec spec;
  spec.id = kRooflinePlotId;
  spec.title = "Roofline on " + device_name + ": each case at its intensity, under the ceilings measured";
  PlotPanel panel;
  panel.kind = "line";
  panel.x_label = "arithmetic intensity (flops per byte, from the models)";
  panel.y_label = "GFLOP/s (flop model over median time)";
  panel.x_log = true;
  panel.y_log = true;
  LineSeries cases;
  cases.label = "cases";
  cases.style = "points";
  double low = f.ridge();
  double high = f.ridge();
  for (const RooflinePoint& p : f.points) {
    const double intensity = p.intensity();
    if (intensity > 0.0 && p.gflop_per_s > 0.0) {
      cases.x.push_back(intensity);
      cases.y.push_back(p.gflop_per_s);
      const std::size_t slash = p.name.find('/');
      cases.point_labels.push_back(slash == std::string::npos ? p.name : p.name.substr(slash + 1));
      low = std::min(low, intensity);
      high = std::max(high, intensity);
    }
  }
  low /= 2.0;
  high *= 2.0;
  const auto roof = [&](const std::string& label, double memory, double compute, const std::string& style) {
    LineSeries line;
    line.label = label;
    line.style = style;
    const double ridge = compute / memory;
    line.x = {std::min(low, ridge), ridge, std::max(high, ridge)};
    line.y = {memory * line.x[0], compute, compute};
    return line;
  };
  panel.lines.push_back(roof(
      "measured: " + fixed(f.memory_gb_per_s, 0) + " GB/s, " + fixed(f.compute_gflop_per_s, 0) + " GFLOP/s",
      f.memory_gb_per_s, f.compute_gflop_per_s, "plain"));
  if (f.theoretical_memory_gb_per_s && f.theoretical_compute_gflop_per_s &&
      *f.theoretical_memory_gb_per_s > 0.0 && *f.theoretical_compute_gflop_per_s > 0.0) {
    panel.lines.push_back(roof("theoretical peaks: " + fixed(*f.theoretical_memory_gb_per_s, 0) + " GB/s, " +
                                   fixed(*f.theoretical_compute_gflop_per_s, 0) + " GFLOP/s",
                               *f.theoretical_memory_gb_per_s, *f.theoretical_compute_gflop_per_s, "dashed"));
  }
  panel.lines.push_back(cases);
  spec.panels.push_back(panel);
  return spec;
}

std::vector<PlotSpec> transcript_plots(const Transcript& t, const Lab* lab) {
  std::vector<PlotSpec> specs;
  if (lab != nullptr && lab->plots) {
    specs = lab->plots(t);
  }
  const RooflineOutcome roofline = roofline_of(t);
  if (roofline.figures) {
    const FactGroup* device = t.group("device");
    const Fact* name = device != nullptr ? device->find("name") : nullptr;
    specs.push_back(
        roofline_plot(*roofline.figures, name != nullptr && name->is_known() ? name->display() : "?"));
  }
  return specs;
}

}  // namespace labrun
