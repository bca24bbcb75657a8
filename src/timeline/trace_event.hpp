#pragma once
// One span of GPU or host activity, as a tracer recorded it: plain data, so that the analysis, the
// Chrome trace and the tests need no GPU and no CUPTI.

#include <cstdint>
#include <string>

namespace labrun {

enum class TraceKind { kKernel, kMemcpy, kMemset, kRuntimeCall };

//! "kernel", "memcpy", "memset", "runtime"; and back (std::invalid_argument for any other text).
[[nodiscard]] const char* trace_kind_name(TraceKind kind);
[[nodiscard]] TraceKind trace_kind_from_name(const std::string& name);

struct TraceEvent {
  TraceKind kind = TraceKind::kKernel;
  std::string name;            //!< the kernel's name, "cudaLaunchKernel", "memcpy HtoD", ...
  std::uint64_t start_ns = 0;  //!< CUPTI's timestamps (cuptiGetTimestamp's clock), nanoseconds
  std::uint64_t end_ns = 0;
  std::uint32_t stream = 0;       //!< GPU work: the stream; runtime calls: the calling thread
  std::uint32_t correlation = 0;  //!< joins a runtime call to the GPU work it launched
  std::uint64_t bytes = 0;        //!< memcpy and memset only

  [[nodiscard]] std::uint64_t duration_ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
};

}  // namespace labrun
