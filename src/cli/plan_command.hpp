#pragma once
// `labrun plan LAB`: a lab's byte model and predicted ratios, with no GPU.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

namespace labrun {

struct PlanRequest {
  std::string lab;
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_plan_command(CLI::App& app, PlanRequest& request);

//! Prints the plan (runner/plan.hpp). Returns 0; throws UsageError for an unknown lab.
int run_plan_command(const PlanRequest& request, std::ostream& out);

}  // namespace labrun
