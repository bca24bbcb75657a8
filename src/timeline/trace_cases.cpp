#include "timeline/trace_cases.hpp"

#include <cuda_runtime_api.h>

#include "core/statistics.hpp"
#include "timeline/cupti_tracer.hpp"
#include "timing/cuda_check.hpp"
#include "timing/nvtx_range.hpp"
#include "timing/sampler.hpp"

namespace labrun {

namespace {

// Event-timed median of one execution of the region, hot, in microseconds.
double event_median_us(const CaseRegion& region, int launches_per_sample) {
  CaseSampler sampler(region.run, launches_per_sample, TimingMode::kHot, nullptr, nullptr);
  sampler.warm_up(3);
  sampler.take(kTimelineEventSamples);
  return median(sampler.samples_ms()) * 1000.0 / static_cast<double>(launches_per_sample);
}

}  // namespace

TimelinePass trace_cases(LabSession& session, const std::vector<TimelineItem>& items,
                         const std::function<void(const std::string&)>& progress) {
  TimelinePass pass;
  std::unique_ptr<CuptiTracer> tracer;
  try {
    tracer = std::make_unique<CuptiTracer>();
  } catch (const TracerUnavailable& error) {
    pass.record.status = "cupti-absent";
    pass.record.detail = error.what();
    progress("no timeline: " + pass.record.detail);
    return pass;
  }
  pass.record.tool = "CUPTI Activity API (" + tracer->library() + ")";
  std::vector<std::pair<TimelineItem, CaseRegion>> prepared;
  std::vector<double> untraced;
  for (const TimelineItem& item : items) {
    progress("timeline: " + item.spec->name + " n=" + std::to_string(item.elements) + " (" + item.size_label +
             ")");
    CaseRegion region = session.prepare_case(*item.spec, item.elements);
    const NvtxRange range(item.spec->name + " untraced");
    untraced.push_back(event_median_us(region, item.spec->launches_per_sample));
    prepared.emplace_back(item, std::move(region));
  }
  tracer->start();
  std::vector<double> traced;
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> windows(prepared.size());
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    const auto& [item, region] = prepared[i];
    const NvtxRange range(item.spec->name);
    traced.push_back(event_median_us(region, item.spec->launches_per_sample));
    const std::uint64_t first = tracer->now_ns();
    for (int e = 0; e < kTracedExecutions; ++e) {
      LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
      const std::uint64_t start = tracer->now_ns();
      region.run();
      LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
      const std::uint64_t end = tracer->now_ns();
      windows[i].emplace_back(start, end);
      pass.spans.push_back({execution_span_name(item.spec->name, item.size_label, e + 1), start, end, 1});
    }
    pass.spans.push_back({item.spec->name + " (" + item.size_label + ")", first, tracer->now_ns(), 0});
  }
  const std::vector<TraceEvent> recorded = tracer->stop(pass.record.dropped_records);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> every_window;
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    const TimelineItem& item = prepared[i].first;
    std::vector<ExecutionTrace> executions;
    for (const auto& [start, end] : windows[i]) {
      executions.push_back(trace_of_execution(recorded, start, end));
      every_window.emplace_back(start, end);
    }
    TimelineCase c = summarize_executions(item.spec->name, item.size_label, item.elements, executions);
    c.event_median_us = untraced[i];
    c.traced_event_median_us = traced[i];
    pass.record.cases.push_back(std::move(c));
  }
  // The trace keeps the executions; the event samples taken while recording (up to thousands of
  // launches a case) served only to time what tracing costs.
  pass.events = events_within(recorded, every_window);
  pass.record.status = "measured";
  pass.record.detail = std::to_string(prepared.size()) + " cases traced, " +
                       std::to_string(kTracedExecutions) + " executions each" +
                       (pass.record.dropped_records > 0
                            ? "; CUPTI dropped " + std::to_string(pass.record.dropped_records) + " records"
                            : "");
  return pass;
}

}  // namespace labrun
