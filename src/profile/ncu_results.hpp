#pragma once
// Reading what Nsight Compute (ncu) reports: its raw-page CSV, the kernels between the profiling
// pass's case markers, and the ways ncu fails. Host logic only: tested on captured ncu output.

#include <map>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace labrun {

//! The metrics `labrun profile` collects, in the order they are requested.
inline constexpr const char* kDramReadMetric = "dram__bytes_read.sum";
inline constexpr const char* kDramWriteMetric = "dram__bytes_write.sum";
//! FP32 instructions executed, summed over threads (predicated-off lanes not counted): the
//! roofline sets them beside the flop model (core/transcript.hpp: Fp32Instructions).
inline constexpr const char* kFp32AddMetric = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* kFp32MulMetric = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* kFp32FmaMetric = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
//! The kernel the profiling pass launches just before and just after every case's region.
inline constexpr const char* kProfileMarkerKernel = "labrun_profile_marker";

//! One profiled kernel launch: one data row of `ncu --import R --csv --page raw`.
struct NcuKernelRow {
  int id = 0;                                //!< ncu's launch ID, in launch order
  std::string kernel_name;                   //!< as ncu prints it (demangled)
  std::map<std::string, double> metrics;     //!< metric name -> value in the unit ncu printed
  std::map<std::string, std::string> units;  //!< metric name -> unit ("byte"), when a units row exists
};

//! Parses the raw page's CSV: a header row, an optional units row, then one row per kernel. Lines
//! that are not CSV rows (ncu's "==PROF==" messages) are skipped; thousands separators in numbers
//! are accepted. Throws std::runtime_error naming the line when a row cannot be read.
[[nodiscard]] std::vector<NcuKernelRow> parse_ncu_raw_csv(const std::string& text);

//! A case as the profiling pass ran it: one execution of its region at `elements`.
struct ProfileItem {
  std::string name;
  std::string size_label;
  std::uint64_t elements = 0;
  double model_bytes_per_element = 0.0;
};

//! The kernels between markers 2i and 2i+1 belong to items[i]; kernels between pairs (a session
//! preparing its next case) belong to none. Returns one ProfiledCase per item that launched at
//! least one kernel; `skipped` receives the names of items that launched none (a cudaMemcpy is not
//! a kernel, and ncu profiles kernels only). Throws std::runtime_error when the markers do not
//! number 2 x items.size(), or a metric is missing or not in bytes.
[[nodiscard]] std::vector<ProfiledCase> assign_rows_to_cases(const std::vector<NcuKernelRow>& rows,
                                                             const std::vector<ProfileItem>& items,
                                                             std::vector<std::string>& skipped);

//! Why an ncu run failed, from its output: "counters-refused" for ERR_NVGPUCTRPERM (with the
//! driver setting that causes it), otherwise "failed" with the first ==ERROR== line.
struct NcuFailure {
  std::string status;
  std::string detail;
};
[[nodiscard]] NcuFailure classify_ncu_failure(const std::string& output, const std::string& how_it_ended);

}  // namespace labrun
