#include "runner/plan.hpp"

#include <sstream>

#include "base/format.hpp"
#include "evidence/markdown.hpp"

namespace labrun {

std::string render_plan(const Lab& lab) {
  std::ostringstream out;
  out << "# Plan for " << lab.name << ": " << lab.title << "\n\n";
  out << "Byte model, declared per case (read and written per element, launches per execution), and the "
         "flop model beside it (FP32 operations per element; - where none is declared):\n\n";
  Table model;
  model.headers = {"case", "read B/elem", "write B/elem", "total B/elem", "launches", "flop/elem", "sizes"};
  model.right_aligned = {false, true, true, true, true, true, false};
  for (const CaseSpec& spec : lab.cases) {
    model.rows.push_back({spec.name, bytes_per_element_text(spec.model.read_bytes_per_element),
                          bytes_per_element_text(spec.model.write_bytes_per_element),
                          bytes_per_element_text(spec.model.bytes_per_element()),
                          std::to_string(spec.model.launches),
                          spec.model.flops_per_element ? compact_number(*spec.model.flops_per_element) : "-",
                          spec.describe_sizes()});
  }
  out << render_table(model);
  out << "\ncard-scaled: the smallest power of two n with n * " << lab.element_bytes
      << " bytes >= " << lab.card_scaled_l2_multiple << " x the card's L2 size (read at run time).\n";
  out << "correctness: every version against a float64 reference at " << lab.correctness_elements
      << " elements"
      << (lab.correctness_shape ? " (an image of " + shape_text(*lab.correctness_shape) + ")" : "") << ".\n";
  if (!lab.predictions.empty()) {
    out << "\nPredicted ratios (slower over faster), from the byte model alone:\n\n";
    Table ratios;
    ratios.headers = {"prediction", "slower case", "faster case", "byte ratio", "launch ratio"};
    ratios.right_aligned = {false, false, false, true, true};
    for (const Prediction& p : lab.predictions) {
      const CaseSpec* slower = lab.find_case(p.slower_case);
      const CaseSpec* faster = lab.find_case(p.faster_case);
      if (slower == nullptr || faster == nullptr) {
        continue;
      }
      const PredictedRatios r = predicted_ratios(slower->model, faster->model);
      ratios.rows.push_back(
          {p.description, p.slower_case, p.faster_case, fixed(r.bytes, 2), fixed(r.launches, 2)});
    }
    out << render_table(ratios);
  }
  return out.str();
}

}  // namespace labrun
