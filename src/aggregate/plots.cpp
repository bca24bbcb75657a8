#include "aggregate/plots.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "base/format.hpp"

namespace labrun {
namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// The card's ratio for `description` at the first preferred size it has.
const RatioRow* preferred_ratio(const CardRow& card, const std::string& description,
                                const std::vector<std::string>& size_labels) {
  for (const std::string& size : size_labels) {
    if (const RatioRow* r = card.ratio(description, size)) {
      return r;
    }
  }
  return nullptr;
}

std::optional<PlotSpec> ratios_plot(const LabAggregate& lab) {
  std::vector<std::string> descriptions;
  for (const auto& [description, size] : lab.measured_ratios()) {
    if (std::find(descriptions.begin(), descriptions.end(), description) == descriptions.end()) {
      descriptions.push_back(description);
    }
  }
  if (descriptions.empty()) {
    return std::nullopt;
  }
  PlotSpec spec;
  spec.id = plot_id_part(lab.name) + "-ratios";
  spec.title = lab.name + ": measured ratios against the byte model, card by card";
  for (const std::string& description : descriptions) {
    PlotPanel panel;
    panel.kind = "bar";
    panel.x_label = "card (size)";
    panel.y_label = description + ": slower / faster";
    panel.value_decimals = 2;
    const RatioRow* model = nullptr;
    for (const CardRow& card : lab.cards) {
      const RatioRow* r = preferred_ratio(card, description, lab.figures.size_labels);
      if (r == nullptr) {
        continue;
      }
      model = model != nullptr ? model : r;
      panel.categories.push_back(card.label + " (" + r->size_label + ")");
      panel.bar_values.push_back(r->measured.median);
      panel.bar_low.push_back(r->measured.min);
      panel.bar_high.push_back(r->measured.max);
    }
    if (model != nullptr) {
      panel.reference_lines = {{"byte ratio " + fixed(model->byte_ratio, 2), model->byte_ratio},
                               {"launch ratio " + fixed(model->launch_ratio, 2), model->launch_ratio}};
    }
    spec.panels.push_back(std::move(panel));
  }
  return spec;
}

std::optional<PlotSpec> claims_plot(const LabAggregate& lab) {
  if (lab.cards.empty() || lab.cards.front().claims.empty()) {
    return std::nullopt;
  }
  PlotPanel panel;
  panel.kind = "matrix";
  panel.x_label = "card";
  panel.y_label = "claim";
  for (const ClaimTally& claim : lab.cards.front().claims) {
    panel.categories.push_back(claim.id + (claim.expected_to_fail ? " (expected to fail)" : ""));
  }
  for (const CardRow& card : lab.cards) {
    panel.columns.push_back(card.label);
  }
  for (std::size_t row = 0; row < panel.categories.size(); ++row) {
    for (const CardRow& card : lab.cards) {
      const ClaimTally& tally = card.claims.at(row);
      const std::size_t measured = tally.measured();
      panel.cells.push_back(measured > 0 ? static_cast<double>(tally.held) / static_cast<double>(measured)
                                         : kUnknown);
      panel.cell_labels.push_back(measured > 0 ? std::to_string(tally.held) + "/" + std::to_string(measured)
                                               : "not measured");
    }
  }
  PlotSpec spec;
  spec.id = plot_id_part(lab.name) + "-claims";
  spec.title = lab.name + ": claims held (share of each card's runs)";
  spec.panels.push_back(std::move(panel));
  return spec;
}

}  // namespace

std::vector<PlotSpec> aggregate_plots(const LabAggregate& lab) {
  std::vector<PlotSpec> specs;
  for (std::optional<PlotSpec> spec : {ratios_plot(lab), claims_plot(lab)}) {
    if (spec) {
      specs.push_back(std::move(*spec));
    }
  }
  return specs;
}

std::vector<PlotSpec> aggregate_plots(const Aggregate& aggregate) {
  std::vector<PlotSpec> specs;
  for (const LabAggregate& lab : aggregate.labs) {
    for (PlotSpec& spec : aggregate_plots(lab)) {
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

}  // namespace labrun
