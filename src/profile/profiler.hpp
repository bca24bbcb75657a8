#pragma once
// `labrun profile`: runs the lab's kernels once more under Nsight Compute (ncu), in a child
// process, and reads back the DRAM bytes each case moved.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "profile/ncu_results.hpp"
#include "registry/lab.hpp"

namespace labrun {

struct ProfileRequest {
  std::string lab_name;
  std::vector<ProfileItem> items;
  std::uint64_t seed = 0;
  std::filesystem::path ncu;          //!< empty: `ncu` on PATH
  std::filesystem::path report_file;  //!< the .ncu-rep to write
  std::filesystem::path labrun;       //!< the labrun executable to profile; empty: this process's own
  bool overwrite = false;
  double time_limit_s = 900.0;  //!< for the profiled child, which replays every kernel
};

//! Profiles the items and returns what was measured. A missing ncu, refused counters, a failed ncu
//! run, an unreadable profile and an existing report file without `overwrite` are recorded in the
//! result's status and detail, not thrown: the run's timings are kept whatever happens here.
[[nodiscard]] ProfileRecord profile_lab(const ProfileRequest& request,
                                        const std::function<void(const std::string&)>& progress);

//! The child's side (`labrun profile-pass`): opens the lab's session, then for every item prepares
//! the case and launches the marker kernel, one execution of the case's region, and the marker again.
//! Throws NoDeviceError-like std::runtime_error or CudaError on failure.
void run_profile_pass(const Lab& lab, const std::vector<ProfileItem>& items, std::uint64_t seed);

//! "name=elements" as the child's --item argument, and back (throws std::invalid_argument).
[[nodiscard]] std::string item_argument(const ProfileItem& item);
[[nodiscard]] std::pair<std::string, std::uint64_t> parse_item_argument(const std::string& text);

}  // namespace labrun
