#pragma once
// `labrun plan LAB`: everything a lab declares, with no GPU: its cases (labels, sizes, checks), their
// byte and flop models and declared figures, its claims with their bounds, its predicted ratios and
// the cases behind its roofline and card figures.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

#include "registry/lab.hpp"

namespace labrun {

struct PlanRequest {
  std::string lab;
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_plan_command(CLI::App& app, PlanRequest& request);

//! The plan of `lab` as Markdown: what `labrun plan` prints.
[[nodiscard]] std::string render_plan(const Lab& lab);

//! Prints the plan (render_plan). Returns 0; throws UsageError for an unknown lab.
int run_plan_command(const PlanRequest& request, std::ostream& out);

}  // namespace labrun
