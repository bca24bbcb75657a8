#pragma once
// The aggregate's plots, as data (plots/plot_spec.hpp): per lab, each card's measured ratios against
// the byte and launch ratios, and the matrix of claims held or failed, card by card.

#include <string>
#include <vector>

#include "aggregate/aggregate.hpp"
#include "plots/plot_spec.hpp"

namespace labrun {

//! The file stem the aggregate's plots are drawn under: `<out>/aggregate.<plot id>.svg`.
inline constexpr const char* kAggregateStem = "aggregate";

//! "<lab>-ratios": one bar panel per prediction, a bar per card (the median of its runs at the first
//! size of the lab's CardFigures::size_labels it ran, with the runs' range), the byte and launch
//! ratios as reference lines. "<lab>-claims": a matrix of claims by cards, each cell the share of
//! the card's runs that held the claim (unknown when none measured it). Specs with nothing to show
//! are left out.
[[nodiscard]] std::vector<PlotSpec> aggregate_plots(const LabAggregate& lab);

//! All labs' plots.
[[nodiscard]] std::vector<PlotSpec> aggregate_plots(const Aggregate& aggregate);

}  // namespace labrun
