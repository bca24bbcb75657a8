#include "cli/plan_command.hpp"

#include <algorithm>
#include <sstream>

#include "base/format.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "core/rounds.hpp"
#include "evidence/markdown.hpp"

namespace labrun {
namespace {

Table cases_table(const Lab& lab) {
  Table table;
  table.title = "Cases";
  table.notes = {
      "Each case as declared: its row label, the sizes it runs at, the correctness version that "
      "checks its kernels, and the executions of its region in one timed sample."};
  table.headers = {"case", "label", "sizes", "checked by", "per sample"};
  table.right_aligned = {false, false, false, false, true};
  for (const CaseSpec& spec : lab.cases) {
    table.rows.push_back({spec.name, spec.label, spec.describe_sizes(),
                          spec.verified_by.empty() ? "-" : spec.verified_by,
                          std::to_string(spec.launches_per_sample)});
  }
  return table;
}

Table models_table(const Lab& lab) {
  Table table;
  table.title = "Byte and flop models";
  table.notes = {
      "Bytes each case must move through device memory per element (read and written), launches "
      "per execution, and FP32 operations per element (- where none is declared)."};
  table.headers = {"case", "read B/elem", "write B/elem", "total B/elem", "launches", "flop/elem"};
  table.right_aligned = {false, true, true, true, true, true};
  for (const CaseSpec& spec : lab.cases) {
    table.rows.push_back(
        {spec.name, bytes_per_element_text(spec.model.read_bytes_per_element),
         bytes_per_element_text(spec.model.write_bytes_per_element),
         bytes_per_element_text(spec.model.bytes_per_element()), std::to_string(spec.model.launches),
         spec.model.flops_per_element ? compact_number(*spec.model.flops_per_element) : "-"});
  }
  return table;
}

Table figures_table(const Lab& lab) {
  Table table;
  table.title = "Declared figures";
  table.notes = {
      "The lab's own figures for its cases: each run records them with every timed case, and the "
      "report shows them as columns of its table of every case."};
  table.headers = {"case", "figure", "unit", "value", "from"};
  table.right_aligned = {false, false, false, true, false};
  for (const CaseSpec& spec : lab.cases) {
    for (const CaseFigure& figure : spec.figures) {
      table.rows.push_back({spec.name, figure.name, figure.unit,
                            figure.value ? significant(*figure.value, 4) : "per run", figure.source});
    }
  }
  return table;
}

Table claims_table(const Lab& lab) {
  Table table;
  table.title = "Claims";
  table.notes = {
      "Each claim, the figures it reads and where they must lie for it to hold; every run judges "
      "them (with rounds, by the 95% interval of the figure)."};
  table.headers = {"claim", "kind", "figure", "bound", "statement"};
  table.right_aligned = {false, false, false, false, false};
  for (const ClaimSpec& claim : lab.claims) {
    const ClaimDescription described = describe_claim(claim);
    table.rows.push_back({claim.id + (claim.expected_to_fail ? " (expected to fail)" : ""), described.kind,
                          described.figures, described.bound, claim.statement});
  }
  return table;
}

Table predictions_table(const Lab& lab) {
  Table table;
  table.title = "Predicted ratios";
  table.notes = {"Slower over faster, from the byte model alone."};
  table.headers = {"prediction", "slower case", "faster case", "byte ratio", "launch ratio"};
  table.right_aligned = {false, false, false, true, true};
  for (const Prediction& p : lab.predictions) {
    const CaseSpec* slower = lab.find_case(p.slower_case);
    const CaseSpec* faster = lab.find_case(p.faster_case);
    if (slower == nullptr || faster == nullptr) {
      continue;
    }
    const PredictedRatios r = predicted_ratios(slower->model, faster->model);
    table.rows.push_back(
        {p.description, p.slower_case, p.faster_case, fixed(r.bytes, 2), fixed(r.launches, 2)});
  }
  return table;
}

// The cases the roofline, the aggregate's card figures and the stability check read.
std::string roles_text(const Lab& lab) {
  std::string text;
  if (!lab.roofline.empty()) {
    text += "- roofline: memory ceiling the best of " + join(lab.roofline.memory_ceiling_cases, ", ") +
            "; compute ceiling " + lab.roofline.compute_ceiling_case + "\n";
  }
  const CardFigures& card = lab.card_figures;
  if (!card.copy_floor_case.empty()) {
    text += "- card figures: copy floor " + card.copy_floor_case +
            (card.ceiling_cases.empty() ? "" : "; ceiling " + join(card.ceiling_cases, ", ")) +
            (card.launch_case.empty() ? "" : "; launch cost " + card.launch_case) +
            (card.sweep_slower_case.empty()
                 ? ""
                 : "; swept pair " + card.sweep_slower_case + " over " + card.sweep_faster_case) +
            "\n";
  }
  if (!lab.stability_case.empty()) {
    text += "- stability: " + lab.stability_case + ", timed again at its largest size at the end of a run\n";
  }
  return text;
}

}  // namespace

CLI::App* add_plan_command(CLI::App& app, PlanRequest& request) {
  CLI::App* command = app.add_subcommand(
      "plan",
      "Print what a lab declares: cases, byte and flop models, figures, claims and predicted "
      "ratios (no GPU needed).");
  command->add_option("lab", request.lab, "Lab name, as `labrun list` shows it")->required();
  return command;
}

std::string render_plan(const Lab& lab) {
  std::ostringstream out;
  out << "# Plan for " << lab.name << ": " << lab.title << "\n\n" << lab.summary << "\n";
  out << render_table_section(cases_table(lab));
  out << "\ncard-scaled: the smallest power of two n with n * " << lab.element_bytes
      << " bytes >= " << lab.card_scaled_l2_multiple << " x the card's L2 size (read at run time).\n";
  out << "correctness: every version against a float64 reference at " << lab.correctness_elements
      << " elements"
      << (lab.correctness_shape ? " (an image of " + shape_text(*lab.correctness_shape) + ")" : "") << ".\n";
  out << "rounds: " << lab.default_rounds << " unless --rounds is given, each in a CUDA context of its own"
      << (lab.default_rounds != kDefaultRounds
              ? " (the lab's own; labrun's default is " + std::to_string(kDefaultRounds) + ")"
              : std::string())
      << ".\n";
  const bool has_small_case = std::any_of(lab.cases.begin(), lab.cases.end(), [](const CaseSpec& spec) {
    return std::any_of(spec.sizes.begin(), spec.sizes.end(), [](const SizeRequest& size) {
      return !size.is_card_scaled() && size.elements <= kSmallCaseRoundsMaxElements;
    });
  });
  if (has_small_case) {
    out << "small cases (at most " << kSmallCaseRoundsMaxElements << " elements): at least "
        << small_case_contexts_words()
        << " unless --small-case-rounds is given; their extra rounds come after the "
           "others'.\n";
  }
  out << render_table_section(models_table(lab));
  if (const Table figures = figures_table(lab); !figures.rows.empty()) {
    out << render_table_section(figures);
  }
  if (!lab.claims.empty()) {
    out << render_table_section(claims_table(lab));
  }
  if (const Table ratios = predictions_table(lab); !ratios.rows.empty()) {
    out << render_table_section(ratios);
  }
  if (const std::string roles = roles_text(lab); !roles.empty()) {
    out << "\n## Cases the harness reads for the card\n\n" << roles;
  }
  return out.str();
}

int run_plan_command(const PlanRequest& request, std::ostream& out) {
  out << render_plan(find_lab_or_throw(request.lab));
  return exit_code::kOk;
}

}  // namespace labrun
