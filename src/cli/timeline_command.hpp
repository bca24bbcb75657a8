#pragma once
// `labrun timeline LAB`: `labrun run LAB --timeline` under its own name.

#include <CLI/CLI.hpp>

#include "cli/run_command.hpp"

namespace labrun {

//! Adds the subcommand and its options (run's, --device and --nsys) to `app`, filling `arguments`
//! when parsed; it runs as run_run_command(arguments, RunCommandKind::kTimeline, ...).
CLI::App* add_timeline_command(CLI::App& app, RunArguments& arguments);

}  // namespace labrun
