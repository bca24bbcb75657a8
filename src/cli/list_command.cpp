#include "cli/list_command.hpp"

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "registry/registry.hpp"

namespace labrun {

CLI::App* add_list_command(CLI::App& app, ListRequest& request) {
  CLI::App* command = app.add_subcommand(
      "list", "List the labs, their case names and the exercises `labrun grade` grades (no GPU needed).");
  command->add_option("lab", request.lab, "Only this lab");
  return command;
}

int run_list_command(const ListRequest& request, std::ostream& out) {
  if (!request.lab.empty()) {
    static_cast<void>(find_lab_or_throw(request.lab));
  }
  for (const Lab& lab : registered_labs().labs()) {
    if (!request.lab.empty() && lab.name != request.lab) {
      continue;
    }
    out << lab.name << "  " << lab.title << "\n  " << lab.summary << "\n";
    for (const CaseSpec& spec : lab.cases) {
      out << "    " << spec.name << "  [" << spec.describe_sizes() << "]\n";
    }
    for (const LabExercise& exercise : lab.exercises) {
      out << "  exercise " << exercise.full_name() << ": " << exercise.title << "\n";
    }
  }
  return exit_code::kOk;
}

}  // namespace labrun
