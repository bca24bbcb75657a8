#pragma once
// The aggregate as Markdown: per lab, one row per card, the predicted ratios measured on each card,
// the claims card by card and the transcripts used; then the plots and what was left out. Tables
// go through the project's table rendering (evidence/markdown.hpp, render_table).

#include <string>

#include "aggregate/aggregate.hpp"

namespace labrun {

//! The whole report. `plots_section` (plot_links_markdown of the drawn plots) goes before the list
//! of files left out.
[[nodiscard]] std::string aggregate_to_markdown(const Aggregate& aggregate,
                                                const std::string& plots_section = "");

//! "2387.9" for one run, "2387.9 (0.5%)" with the spread (max - min) / median for several, "-" for none.
[[nodiscard]] std::string spread_text(const RunSpread& spread, int decimals);

//! Where a card's swept pair settles: "4194304", "1048576-4194304", "does not settle", "-" (not
//! swept), with "(in 2 of 3 runs)" when only some runs settle.
[[nodiscard]] std::string settling_text(const CardRow& card);

//! "hot 3, hot-gated 1": the card's runs per timing mode.
[[nodiscard]] std::string timing_text(const CardRow& card);

}  // namespace labrun
