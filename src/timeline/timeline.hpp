#pragma once
// From a tracer's events to what the transcript, the Chrome trace and the SVG show (the Markdown
// is rendered from the transcript by evidence/markdown).
// Host code only: tests feed it recorded events.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/transcript.hpp"
#include "timeline/trace_event.hpp"

namespace labrun {

//! What `run --timeline` writes beside <stem>.json: the Chrome trace (JSON, but not a transcript:
//! readers of transcripts in a folder pass it by) and the kernels drawn as bars.
inline constexpr const char* kTraceFileSuffix = ".trace.json";
inline constexpr const char* kTimelineSvgSuffix = ".timeline.svg";

//! Whether a file is a Chrome trace `run --timeline` wrote (its name ends in kTraceFileSuffix).
[[nodiscard]] bool is_trace_file(const std::string& file_name);

//! What one execution of a case's region did, found from the runtime calls the host made between
//! two timestamps and the GPU work correlated with them.
struct ExecutionTrace {
  //! The GPU work, in start order: kernels, and the copies and sets (cudaMemcpy, cudaMemset) the
  //! runtime ran on the GPU.
  std::vector<TraceEvent> kernels;
  std::vector<double> gaps_us;   //!< next kernel's start minus this one's end (0 when they overlap)
  double gpu_span_us = 0.0;      //!< first start to last end of that work; 0 with none
  double kernel_time_us = 0.0;   //!< summed durations of that work
  double launch_calls_us = 0.0;  //!< summed durations of the runtime's cudaLaunch* and cudaGraphLaunch calls
};

//! The execution bracketed by [start_ns, end_ns] on CUPTI's clock.
[[nodiscard]] ExecutionTrace trace_of_execution(const std::vector<TraceEvent>& events, std::uint64_t start_ns,
                                                std::uint64_t end_ns);

//! The events of the windows [start_ns, end_ns] given: runtime calls made in one, and the GPU work
//! correlated with them, in their original order. What a trace keeps of the executions traced.
[[nodiscard]] std::vector<TraceEvent> events_within(
    const std::vector<TraceEvent>& events,
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& windows);

//! Summarises a case's traced executions (at least one): medians, and the kernels and gaps of the
//! execution whose GPU span is the median. The event medians are left for the caller.
[[nodiscard]] TimelineCase summarize_executions(const std::string& name, const std::string& size_label,
                                                std::uint64_t elements,
                                                const std::vector<ExecutionTrace>& executions);

//! A named span of the run on the host, for the trace's "labrun" rows: a traced case (row 0), or
//! one of its executions (row 1, named execution_span_name()), whose bounds are what
//! trace_of_execution reads.
struct TracedSpan {
  std::string name;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  int row = 0;
};

//! "day48-fusion/part2/staged (lesson) execution 3".
[[nodiscard]] std::string execution_span_name(const std::string& case_name, const std::string& size_label,
                                              int execution);

//! What a Chrome trace written by chrome_trace() holds, read back (times rounded to nanoseconds).
struct RecordedTrace {
  std::vector<TraceEvent> events;
  std::vector<TracedSpan> spans;
};
//! Throws std::runtime_error naming what is missing or mistyped.
[[nodiscard]] RecordedTrace read_chrome_trace(const nlohmann::ordered_json& trace);

//! A traced case from a recorded trace: its executions are the row-1 spans named after it.
//! Throws std::runtime_error when the trace has none.
[[nodiscard]] TimelineCase timeline_case_from_trace(const RecordedTrace& trace, const std::string& case_name,
                                                    const std::string& size_label, std::uint64_t elements);

//! The Chrome trace event format (JSON object form), which the Perfetto UI and chrome://tracing
//! open: GPU work in one process row per stream, runtime calls in one per host thread, and the
//! traced cases in a "labrun" row. Times are microseconds from the earliest event.
[[nodiscard]] nlohmann::ordered_json chrome_trace(const std::vector<TraceEvent>& events,
                                                  const std::vector<TracedSpan>& spans);

//! The traced cases as bars, one row per case, grouped by size label with one time axis per group:
//! a staged chain's kernels with the gaps between them above a fused chain's one kernel.
[[nodiscard]] std::string timeline_svg(const TimelineRecord& record, const std::string& title);

}  // namespace labrun
