#pragma once
// Records GPU activity with the CUPTI Activity API: kernels, memcpy and memset, and CUDA runtime
// calls. No performance counters are used, so it needs no special permission. libcupti is opened
// at run time (dlopen), so labrun starts and runs everywhere else without it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timeline/trace_event.hpp"

namespace labrun {

//! libcupti could not be opened or refused to trace; the message is one line, for the user.
class TracerUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CuptiTracer {
 public:
  //! Opens libcupti ($LABRUN_CUPTI when set, and only it; else libcupti.so.13, libcupti.so, then
  //! the CUDA Toolkit's lib64 this build used) and registers its buffers. Throws TracerUnavailable
  //! (one line). At most one tracer exists at a time.
  CuptiTracer();
  ~CuptiTracer();
  CuptiTracer(const CuptiTracer&) = delete;
  CuptiTracer& operator=(const CuptiTracer&) = delete;

  //! Starts recording (kernels, memcpy, memset, runtime calls). Throws TracerUnavailable.
  void start();
  //! Stops recording, flushes CUPTI's buffers and returns every event recorded since start(), in
  //! the order CUPTI delivered them. `dropped` counts records CUPTI had no room for.
  [[nodiscard]] std::vector<TraceEvent> stop(std::uint64_t& dropped);
  //! CUPTI's clock now, in nanoseconds: the clock its records are stamped with.
  [[nodiscard]] std::uint64_t now_ns() const;
  //! Where libcupti was found.
  [[nodiscard]] const std::string& library() const;

  struct Api;  // the CUPTI entry points, resolved with dlsym

 private:
  std::unique_ptr<Api> api_;
};

}  // namespace labrun
