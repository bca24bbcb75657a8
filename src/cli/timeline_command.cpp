#include "cli/timeline_command.hpp"

namespace labrun {

CLI::App* add_timeline_command(CLI::App& app, RunArguments& arguments) {
  CLI::App* timeline = app.add_subcommand(
      "timeline",
      "`labrun run LAB --timeline`: run a lab, then trace its cases with CUPTI (see `run --help`).");
  add_run_options(timeline, arguments);
  timeline->add_option("--device", arguments.device, kRunDeviceHelp)->check(CLI::NonNegativeNumber);
  timeline->add_flag("--nsys", arguments.nsys, kNsysHelp);
  return timeline;
}

}  // namespace labrun
