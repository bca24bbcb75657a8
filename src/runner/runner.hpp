#pragma once
// Runs a lab: checks the device, sizes the cases to the card, checks correctness, times every
// selected case, and writes the transcript and its Markdown.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! The request cannot be run as asked (unknown lab, no case matches, bad option value).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! No usable CUDA device: the message names the CUDA error.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  std::string lab_name;
  std::vector<std::string> case_patterns;  //!< empty: every case
  std::filesystem::path out_dir;           //!< empty: evidence/<lab>/<device-slug>
  int repetitions = 20;
  int warmups = 3;
  std::uint64_t seed = 48;
  bool smoke = false;  //!< tiny sizes and few samples: checks the lab runs; not evidence
  bool overwrite = false;
  std::vector<std::string> command_line;
};

//! Elements every size is capped at in the smoke configuration.
inline constexpr std::uint64_t kSmokeMaxElements = 1u << 16;

struct RunReport {
  Transcript transcript;
  std::filesystem::path json_path;
  std::filesystem::path markdown_path;
  std::string markdown;  //!< exactly what was written to markdown_path
};

using ProgressSink = std::function<void(const std::string&)>;

//! The sizes a case runs at once the card-scaled size is known (nullopt: not used) and the smoke
//! cap applied: duplicates removed, declared order kept.
struct ResolvedSize {
  std::string label;
  std::uint64_t elements = 0;
};
[[nodiscard]] std::vector<ResolvedSize> resolve_sizes(const CaseSpec& spec,
                                                      const std::optional<std::uint64_t>& card_scaled,
                                                      bool smoke);

//! "2026-11-30T05:40:12Z" for now (UTC).
[[nodiscard]] std::string utc_timestamp_now();
//! "2026-11-30T05-40-12Z": the timestamp as a file name.
[[nodiscard]] std::string timestamp_file_stem(const std::string& utc_timestamp);

//! Runs and writes. Throws UsageError, NoDeviceError, CudaError, FileExistsError or
//! std::runtime_error; writes nothing when the run fails before its end.
[[nodiscard]] RunReport run_lab(const Lab& lab, const RunOptions& options, const ProgressSink& progress);

}  // namespace labrun
