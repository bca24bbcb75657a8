#pragma once
// `labrun run --timeline --nsys`: the traced cases run once more under Nsight Systems
// (`nsys profile --trace=cuda,nvtx`), in a child (`labrun profile-pass`), leaving a .nsys-rep that
// shows labrun's case names as NVTX ranges.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "profile/ncu_results.hpp"

namespace labrun {

struct NsysRequest {
  std::string lab_name;
  std::vector<ProfileItem> items;
  std::uint64_t seed = 0;
  std::filesystem::path nsys;         //!< the nsys executable
  std::filesystem::path report_base;  //!< the report, without .nsys-rep (nsys adds it)
  bool overwrite = false;
  double time_limit_s = 900.0;
};

//! Runs the items under nsys and returns the report written (report_base + ".nsys-rep"). Throws
//! std::runtime_error, with one line, when nsys fails or writes no report.
[[nodiscard]] std::filesystem::path record_nsys_report(
    const NsysRequest& request, const std::function<void(const std::string&)>& progress);

}  // namespace labrun
