#pragma once
// `labrun validate FILE...`: transcripts checked against the JSON Schema of their version.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace labrun {

struct ValidateRequest {
  std::vector<std::string> files;
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_validate_command(CLI::App& app, ValidateRequest& request);

//! One line per file: "FILE: valid (schema X, provenance)" on `out`, or "labrun: FILE: POINTER:
//! problem" on `err`. Returns 0 when every file is valid, else 1.
int run_validate_command(const ValidateRequest& request, std::ostream& out, std::ostream& err);

}  // namespace labrun
