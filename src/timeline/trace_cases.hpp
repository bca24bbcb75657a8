#pragma once
// The tracing pass of `labrun run --timeline`: each case at each of its sizes, timed with CUDA
// events without and with CUPTI recording, then executed alone a few times while CUPTI records
// what the GPU and the runtime did.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "registry/lab.hpp"
#include "timeline/timeline.hpp"

namespace labrun {

struct TimelineItem {
  const CaseSpec* spec = nullptr;
  std::string size_label;
  std::uint64_t elements = 0;
};

struct TimelinePass {
  TimelineRecord record;           //!< status "measured" when it ran
  std::vector<TraceEvent> events;  //!< everything CUPTI recorded
  std::vector<TracedSpan> spans;   //!< each case's traced executions, on CUPTI's clock
};

//! Executions traced per case and size, and event samples taken per case both ways.
inline constexpr int kTracedExecutions = 10;
inline constexpr int kTimelineEventSamples = 30;

//! Runs the pass on an open session (its buffers sized for every item). A missing or refusing
//! libcupti is recorded ("cupti-absent", with the one-line reason), not thrown; a CUDA error is
//! thrown (labrun::CudaError).
[[nodiscard]] TimelinePass trace_cases(LabSession& session, const std::vector<TimelineItem>& items,
                                       const std::function<void(const std::string&)>& progress);

}  // namespace labrun
