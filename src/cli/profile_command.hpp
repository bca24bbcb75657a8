#pragma once
// `labrun profile LAB`: `run`, then each case once more under Nsight Compute; and `profile-pass`,
// the child that Nsight Compute profiles (not for direct use).

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/run_command.hpp"

namespace labrun {

//! Adds the subcommand and its options (run's, --device, --profile-dir, --ncu) to `app`, filling
//! `arguments` when parsed; it runs as run_run_command(arguments, RunCommandKind::kProfile, ...).
CLI::App* add_profile_command(CLI::App& app, RunArguments& arguments);

//! The run's profiler: each case under ncu (profile/profiler.hpp), its report in --profile-dir
//! (default profiles/<lab>/<device>) as <stem>.ncu-rep; a record without DRAM counts is said
//! through `warn`.
[[nodiscard]] std::function<ProfileRecord(const std::vector<ProfileItem>&, const std::string&)> ncu_profiler(
    const Lab& lab, const RunArguments& arguments, const std::function<void(const std::string&)>& info,
    const std::function<void(const std::string&)>& warn);

struct ProfilePassRequest {
  std::string lab;
  std::vector<std::string> items;  //!< NAME@ELEMENTS, as profile_lab passes them
  std::uint64_t seed = 48;
};

//! Adds the hidden subcommand (no help line) to `app`, filling `request` when parsed.
CLI::App* add_profile_pass_command(CLI::App& app, ProfilePassRequest& request);

//! Runs each item once for the profiler. Returns 0; throws UsageError, NoDeviceError or CudaError.
int run_profile_pass_command(const ProfilePassRequest& request);

}  // namespace labrun
