#include "profile/profiler.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "base/atomic_file.hpp"
#include "process/process.hpp"
#include "timing/cuda_check.hpp"
#include "timing/nvtx_range.hpp"
#include "timing/probes.hpp"

namespace labrun {
namespace {

// The child's output is only ncu's log; the CSV import can be long (one row per kernel).
constexpr std::size_t kOutputCap = 8u << 20;

std::string metric_list() {
  return std::string(kDramReadMetric) + "," + kDramWriteMetric + "," + kFp32AddMetric + "," + kFp32MulMetric +
         "," + kFp32FmaMetric;
}

std::string first_line_of_version(const std::string& output) {
  const std::size_t at = output.find("Version");
  if (at == std::string::npos) {
    return "unknown";
  }
  const std::size_t end = output.find('\n', at);
  return output.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

}  // namespace

std::string item_argument(const ProfileItem& item) {
  return item.name + "=" + std::to_string(item.elements);
}

std::pair<std::string, std::uint64_t> parse_item_argument(const std::string& text) {
  const std::size_t equals = text.rfind('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    throw std::invalid_argument("--item '" + text + "' is not NAME=ELEMENTS");
  }
  const std::string count = text.substr(equals + 1);
  if (!std::all_of(count.begin(), count.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument("--item '" + text + "': ELEMENTS is not a whole number");
  }
  return {text.substr(0, equals), std::stoull(count)};
}

ProfileRecord profile_lab(const ProfileRequest& request,
                          const std::function<void(const std::string&)>& progress) {
  ProfileRecord record;
  record.report_file = request.report_file.string();
  const std::filesystem::path ncu = request.ncu.empty() ? find_on_path("ncu") : request.ncu;
  if (ncu.empty() || !std::filesystem::exists(ncu)) {
    record.status = "ncu-absent";
    record.detail =
        request.ncu.empty()
            ? "Nsight Compute's ncu is not on PATH; install Nsight Compute (it ships with the CUDA "
              "Toolkit) or pass --ncu PATH. The timings were taken without counters."
            : "--ncu " + request.ncu.string() + " does not exist";
    record.report_file.clear();
    return record;
  }
  if (std::filesystem::exists(request.report_file) && !request.overwrite) {
    record.status = "failed";
    record.detail =
        request.report_file.string() + " exists; refusing to overwrite it (pass --force to replace it)";
    record.report_file.clear();
    return record;
  }
  const ProcessResult version = run_with_limit({ncu.string(), "--version"}, 60.0);
  record.tool_version = version.succeeded() ? first_line_of_version(version.output) : "unknown";

  std::error_code error;
  std::filesystem::create_directories(request.report_file.parent_path(), error);
  if (error) {
    record.status = "failed";
    record.detail = "cannot create " + request.report_file.parent_path().string() + ": " + error.message();
    record.report_file.clear();
    return record;
  }
  // Leave the card's clocks as they are (ncu would otherwise lock them to base), so counters and
  // timings describe the same card state.
  record.command = {ncu.string(), "--clock-control",           "none", "--metrics", metric_list(),
                    "--export",   request.report_file.string()};
  if (request.overwrite) {
    record.command.push_back("--force-overwrite");
  }
  record.command.push_back(request.labrun.empty() ? current_executable().string() : request.labrun.string());
  record.command.push_back("profile-pass");
  record.command.push_back(request.lab_name);
  record.command.push_back("--seed");
  record.command.push_back(std::to_string(request.seed));
  for (const ProfileItem& item : request.items) {
    record.command.push_back("--item");
    record.command.push_back(item_argument(item));
  }
  progress("profiling " + std::to_string(request.items.size()) + " cases under " + ncu.string() +
           " (every kernel is replayed; this takes a while)");
  const ProcessResult profiled = run_with_limit(record.command, request.time_limit_s, {}, kOutputCap);
  // ncu may refuse the counters and still exit 0: look for the refusal whatever the exit status.
  if (!profiled.succeeded() || profiled.output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    const NcuFailure failure = classify_ncu_failure(profiled.output, profiled.describe());
    record.status = failure.status;
    record.detail = failure.detail;
    if (!std::filesystem::exists(request.report_file)) {
      record.report_file.clear();
    }
    return record;
  }
  const ProcessResult imported =
      run_with_limit({ncu.string(), "--import", request.report_file.string(), "--csv", "--page", "raw",
                      "--metrics", metric_list(), "--print-units", "base"},
                     120.0, {}, kOutputCap);
  if (!imported.succeeded()) {
    const NcuFailure failure = classify_ncu_failure(imported.output, "--import " + imported.describe());
    record.status = "failed";
    record.detail = failure.detail;
    return record;
  }
  std::vector<std::string> skipped;
  try {
    record.cases = assign_rows_to_cases(parse_ncu_raw_csv(imported.output), request.items, skipped);
  } catch (const std::runtime_error& unreadable) {
    record.status = "failed";
    record.detail = std::string("the profile could not be read: ") + unreadable.what();
    return record;
  }
  record.status = "measured";
  record.detail =
      "each case's region ran once at the size shown; ncu flushed the caches before every kernel "
      "(its default --cache-control all) and left the clocks alone";
  if (!skipped.empty()) {
    std::string names;
    for (const std::string& name : skipped) {
      names += (names.empty() ? "" : ", ") + name;
    }
    record.detail += "; launched no kernel, so not counted (ncu profiles kernels only): " + names;
  }
  return record;
}

void run_profile_pass(const Lab& lab, const std::vector<ProfileItem>& items, std::uint64_t seed) {
  std::uint64_t max_elements = lab.correctness_elements;
  for (const ProfileItem& item : items) {
    max_elements = std::max(max_elements, item.elements);
  }
  std::unique_ptr<LabSession> session = lab.open_session(SessionConfig{max_elements, seed});
  for (const ProfileItem& item : items) {
    const CaseSpec* spec = lab.find_case(item.name);
    if (spec == nullptr) {
      throw std::invalid_argument("lab " + lab.name + " has no case " + item.name);
    }
    // Kernels the session launches while preparing fall outside the case's pair of markers.
    const CaseRegion region = session->prepare_case(*spec, item.elements);
    LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
    launch_profile_marker(nullptr);
    {
      // Named after the case for `ncu --nvtx` and Nsight Systems (`labrun run --timeline --nsys`).
      const NvtxRange range(item.name);
      region.run();
    }
    launch_profile_marker(nullptr);
    LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

}  // namespace labrun
