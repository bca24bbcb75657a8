#include "timeline/nsys_pass.hpp"

#include <stdexcept>

#include "process/process.hpp"
#include "profile/profiler.hpp"

namespace labrun {

namespace {

// nsys's output is long; what is kept of it for an error message.
constexpr std::size_t kNsysOutputCap = std::size_t{64} << 10;

}  // namespace

std::filesystem::path record_nsys_report(const NsysRequest& request,
                                         const std::function<void(const std::string&)>& progress) {
  std::filesystem::path report = request.report_base;
  report += ".nsys-rep";
  if (std::filesystem::exists(report) && !request.overwrite) {
    throw std::runtime_error(report.string() +
                             " exists; refusing to overwrite it (pass --force to replace it)");
  }
  std::vector<std::string> command{request.nsys.string(),
                                   "profile",
                                   "--trace=cuda,nvtx",
                                   "--output",
                                   request.report_base.string(),
                                   std::string("--force-overwrite=") + (request.overwrite ? "true" : "false"),
                                   current_executable().string(),
                                   "profile-pass",
                                   request.lab_name,
                                   "--seed",
                                   std::to_string(request.seed)};
  for (const ProfileItem& item : request.items) {
    command.push_back("--item");
    command.push_back(item_argument(item));
  }
  progress("recording " + std::to_string(request.items.size()) + " cases under Nsight Systems");
  const ProcessResult run = run_with_limit(command, request.time_limit_s, {}, kNsysOutputCap);
  if (!run.succeeded()) {
    const std::string why = last_output_line(run.output);
    throw std::runtime_error("nsys " + run.describe() + (why.empty() ? "" : ": " + why));
  }
  if (!std::filesystem::exists(report)) {
    throw std::runtime_error("nsys ended without writing " + report.string());
  }
  return report;
}

}  // namespace labrun
