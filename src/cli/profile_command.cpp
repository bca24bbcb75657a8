#include "cli/profile_command.hpp"

#include <filesystem>

#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "device/device_info.hpp"
#include "profile/profiler.hpp"

namespace labrun {

CLI::App* add_profile_command(CLI::App& app, RunArguments& arguments) {
  CLI::App* profile = app.add_subcommand(
      "profile",
      "Run a lab as `run` does, then run each case once more under Nsight Compute (ncu) at its largest size "
      "and record the DRAM bytes it moved beside its byte model; keeps the .ncu-rep report.");
  add_run_options(profile, arguments);
  profile->add_option("--device", arguments.device, kRunDeviceHelp)->check(CLI::NonNegativeNumber);
  profile->add_option("--profile-dir", arguments.profile_dir,
                      "Directory for the .ncu-rep report (default: profiles/<lab>/<device>)");
  profile->add_option("--ncu", arguments.ncu_path, "The ncu executable (default: ncu on PATH)");
  return profile;
}

std::function<ProfileRecord(const std::vector<ProfileItem>&, const std::string&)> ncu_profiler(
    const Lab& lab, const RunArguments& arguments, const std::function<void(const std::string&)>& info,
    const std::function<void(const std::string&)>& warn) {
  return [&lab, &arguments, info, warn](const std::vector<ProfileItem>& items, const std::string& stem) {
    ProfileRequest request;
    request.lab_name = lab.name;
    request.items = items;
    request.seed = arguments.options.seed;
    request.ncu = arguments.ncu_path;
    const std::filesystem::path dir =
        arguments.profile_dir.empty()
            ? std::filesystem::path("profiles") / lab.name / device_slug(read_device_sizing().name)
            : std::filesystem::path(arguments.profile_dir);
    request.report_file = dir / (stem + ".ncu-rep");
    request.overwrite = arguments.options.overwrite;
    ProfileRecord record = profile_lab(request, info);
    if (record.status != "measured") {
      warn("no DRAM counts: " + record.detail);
    }
    return record;
  };
}

CLI::App* add_profile_pass_command(CLI::App& app, ProfilePassRequest& request) {
  CLI::App* profile_pass = app.add_subcommand("profile-pass", "");
  profile_pass->group("");
  profile_pass->add_option("lab", request.lab)->required();
  profile_pass->add_option("--item", request.items)->required();
  profile_pass->add_option("--seed", request.seed);
  return profile_pass;
}

int run_profile_pass_command(const ProfilePassRequest& request) {
  const Lab& lab = find_lab_or_throw(request.lab);
  std::vector<ProfileItem> items;
  for (const std::string& text : request.items) {
    const auto [name, elements] = parse_item_argument(text);
    items.push_back(ProfileItem{name, "", elements, 0.0});
  }
  if (const DeviceAvailability availability = probe_devices(); !availability.usable) {
    throw NoDeviceError("no usable CUDA device: " + availability.error);
  }
  run_profile_pass(lab, items, request.seed);
  return exit_code::kOk;
}

}  // namespace labrun
