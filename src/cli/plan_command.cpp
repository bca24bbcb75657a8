#include "cli/plan_command.hpp"

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "runner/plan.hpp"

namespace labrun {

CLI::App* add_plan_command(CLI::App& app, PlanRequest& request) {
  CLI::App* command =
      app.add_subcommand("plan", "Print a lab's byte model and predicted ratios (no GPU needed).");
  command->add_option("lab", request.lab, "Lab name, as `labrun list` shows it")->required();
  return command;
}

int run_plan_command(const PlanRequest& request, std::ostream& out) {
  out << render_plan(find_lab_or_throw(request.lab));
  return exit_code::kOk;
}

}  // namespace labrun
