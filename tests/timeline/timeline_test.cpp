// The timeline's host side: from tracer events to executions, summaries, the Chrome trace (and
// back), the SVG, the transcript's timeline record and its Markdown. Events built here are
// synthetic (written by hand, never recorded); the last test reads a trace recorded on the H200.

#include "timeline/timeline.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdlib>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "evidence/cross_references.hpp"
#include "evidence/markdown.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "support/sample_transcript.hpp"
#include "support/test_data.hpp"
#include "timeline/cupti_tracer.hpp"

namespace fs = std::filesystem;
using Catch::Approx;
using Catch::Matchers::ContainsSubstring;

namespace {

using labrun::TraceEvent;
using labrun::TraceKind;

// A synthetic staged chain: a launch call on the host for each of four kernels, with gaps.
std::vector<TraceEvent> staged_chain(std::uint64_t origin, std::uint32_t first_correlation) {
  std::vector<TraceEvent> events;
  std::uint64_t gpu = origin + 5000;
  for (std::uint32_t k = 0; k < 4; ++k) {
    const std::uint32_t correlation = first_correlation + k;
    const std::uint64_t call = origin + std::uint64_t{1000} * k;
    events.push_back({TraceKind::kRuntimeCall, "cudaLaunchKernel", call, call + 400, 7, correlation, 0});
    events.push_back(
        {TraceKind::kKernel, "stage_" + std::to_string(k + 1), gpu, gpu + 2000, 13, correlation, 0});
    gpu += 2000 + std::uint64_t{1500} * (k + 1);  // gaps of 1.5, 3.0 and 4.5 us
  }
  events.push_back(
      {TraceKind::kRuntimeCall, "cudaDeviceSynchronize", origin + 4000, gpu, 7, first_correlation + 9, 0});
  return events;
}

}  // namespace

TEST_CASE("an execution is the GPU work correlated with the runtime calls made in its window") {
  std::vector<TraceEvent> events = staged_chain(1'000'000, 10);
  const std::vector<TraceEvent> other = staged_chain(2'000'000, 50);  // another execution
  events.insert(events.end(), other.begin(), other.end());
  const labrun::ExecutionTrace trace = labrun::trace_of_execution(events, 1'000'000, 1'100'000);
  REQUIRE(trace.kernels.size() == 4);
  CHECK(trace.kernels.front().name == "stage_1");
  CHECK(trace.gaps_us == std::vector<double>{1.5, 3.0, 4.5});
  CHECK(trace.kernel_time_us == Approx(8.0));
  CHECK(trace.gpu_span_us == Approx(8.0 + 9.0));
  CHECK(trace.launch_calls_us == Approx(1.6));  // four cudaLaunchKernel calls of 0.4 us; the sync is not one
}

TEST_CASE("overlapping kernels leave no negative gap, and an empty window has no span") {
  const std::vector<TraceEvent> events{
      {TraceKind::kRuntimeCall, "cudaLaunchKernel", 100, 200, 1, 1, 0},
      {TraceKind::kRuntimeCall, "cudaLaunchKernel", 300, 400, 1, 2, 0},
      {TraceKind::kKernel, "a", 1000, 3000, 5, 1, 0},
      {TraceKind::kKernel, "b", 2000, 2500, 6, 2, 0},
  };
  const labrun::ExecutionTrace trace = labrun::trace_of_execution(events, 0, 10000);
  CHECK(trace.gaps_us == std::vector<double>{0.0});
  CHECK(trace.gpu_span_us == Approx(2.0));  // the first start to the latest end
  CHECK(labrun::trace_of_execution(events, 20000, 30000).gpu_span_us == 0.0);
}

TEST_CASE("a case's summary shows the execution whose span is the median") {
  std::vector<labrun::ExecutionTrace> executions;
  for (const std::uint64_t origin : {1'000'000ULL, 2'000'000ULL, 3'000'000ULL}) {
    executions.push_back(labrun::trace_of_execution(
        staged_chain(origin, static_cast<std::uint32_t>(origin / 1000)), origin, origin + 100'000));
  }
  executions[2].gpu_span_us = 100.0;  // an outlier
  const labrun::TimelineCase c =
      labrun::summarize_executions("day48-fusion/part2/staged", "lesson", 1024, executions);
  CHECK(c.executions == 3);
  CHECK(c.gpu_span_median_us == Approx(17.0));
  REQUIRE(c.kernels.size() == 4);
  CHECK(c.kernels[0].start_us == 0.0);
  CHECK(c.kernels[1].start_us == Approx(3.5));
  CHECK(c.gaps_us.size() == 3);
  CHECK_THROWS(labrun::summarize_executions("x", "y", 1, {}));
}

TEST_CASE("the Chrome trace reads back to the same events, spans and analysis") {
  const std::vector<TraceEvent> events = staged_chain(5'000'000, 1);
  const std::vector<labrun::TracedSpan> spans{
      {"day48-fusion/part2/staged (lesson)", 4'999'000, 5'200'000, 0},
      {labrun::execution_span_name("day48-fusion/part2/staged", "lesson", 1), 5'000'000, 5'100'000, 1}};
  const nlohmann::ordered_json trace = labrun::chrome_trace(events, spans);
  REQUIRE(trace.contains("traceEvents"));
  const labrun::RecordedTrace back = labrun::read_chrome_trace(nlohmann::ordered_json::parse(trace.dump()));
  REQUIRE(back.events.size() == events.size());
  CHECK(back.spans.size() == 2);
  const labrun::TimelineCase from_trace =
      labrun::timeline_case_from_trace(back, "day48-fusion/part2/staged", "lesson", 1024);
  const labrun::TimelineCase direct =
      labrun::summarize_executions("day48-fusion/part2/staged", "lesson", 1024,
                                   {labrun::trace_of_execution(events, 5'000'000, 5'100'000)});
  CHECK(from_trace.gaps_us == direct.gaps_us);
  CHECK(from_trace.gpu_span_median_us == direct.gpu_span_median_us);
  CHECK_THROWS(labrun::timeline_case_from_trace(back, "day48-fusion/part2/fused", "lesson", 1024));
  CHECK_THROWS(labrun::read_chrome_trace(nlohmann::ordered_json::object()));
  CHECK(labrun::is_trace_file("2026-12-01T05-00-00Z.trace.json"));
  CHECK_FALSE(labrun::is_trace_file("2026-12-01T05-00-00Z.json"));
}

TEST_CASE("the SVG draws one bar per kernel and escapes names") {
  labrun::TimelineRecord record;
  record.status = "measured";
  labrun::TimelineCase staged;
  staged.name = "day48-fusion/part2/staged";
  staged.size_label = "small";
  staged.elements = 4096;
  staged.kernels = {{"a<b>", 0.0, 2.0}, {"c", 3.0, 2.0}, {"d", 6.0, 2.0}, {"e", 9.0, 2.0}};
  labrun::TimelineCase fused = staged;
  fused.name = "day48-fusion/part2/fused";
  fused.kernels = {{"fused", 0.0, 2.5}};
  record.cases = {staged, fused};
  const std::string svg = labrun::timeline_svg(record, "title & more");
  CHECK_THAT(svg, ContainsSubstring("<svg"));
  CHECK_THAT(svg, ContainsSubstring("title &amp; more"));
  CHECK_THAT(svg, ContainsSubstring("a&lt;b&gt;"));
  std::size_t bars = 0;
  for (std::size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) {
    ++bars;
  }
  CHECK(bars == 5);
}

TEST_CASE("a transcript's timeline survives the JSON round trip, validates, and renders") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  labrun::TimelineRecord record;
  record.status = "measured";
  record.detail = "2 cases traced, 10 executions each";
  record.tool = "CUPTI Activity API (libcupti.so.13)";
  record.trace_file = "2026-12-01T05-00-00Z.trace.json";
  labrun::TimelineCase c;
  c.name = t.cases.front().name;
  c.size_label = t.cases.front().size_label;
  c.elements = t.cases.front().elements;
  c.executions = 10;
  c.kernels = {{"k1", 0.0, 2.0}, {"k2", 4.0, 2.0}};
  c.gaps_us = {2.0};
  c.gpu_span_median_us = 6.0;
  c.kernel_time_median_us = 4.0;
  c.launch_calls_median_us = 3.2;
  c.event_median_us = 8.0;
  c.traced_event_median_us = 8.8;
  record.cases = {c};
  t.timeline = record;
  const std::string text = labrun::transcript_to_text(t);
  CHECK(labrun::validate_transcript_text(text).empty());
  const labrun::Transcript back = labrun::transcript_from_text(text);
  REQUIRE(back.timeline);
  CHECK(back.timeline->cases.front().gaps_us == std::vector<double>{2.0});
  CHECK(back.timeline->cases.front().kernels.back().start_us == 4.0);
  CHECK(labrun::transcript_to_text(back) == text);
  const std::string markdown = labrun::render_markdown(back, nullptr);
  CHECK_THAT(markdown, ContainsSubstring("Timeline (CUPTI), " + c.size_label));
  CHECK_THAT(markdown, ContainsSubstring("2.0, 2.0"));
  CHECK_THAT(markdown, ContainsSubstring("10.0%"));  // tracing cost: 8.8 over 8.0
  CHECK_THAT(markdown, ContainsSubstring("`2026-12-01T05-00-00Z.trace.json`"));
}

TEST_CASE("a trace keeps the executions' runtime calls and the GPU work they launched, nothing else") {
  std::vector<TraceEvent> events = staged_chain(1'000'000, 10);
  const std::vector<TraceEvent> outside = staged_chain(9'000'000, 90);  // the tracing-cost samples
  events.insert(events.end(), outside.begin(), outside.end());
  const std::vector<TraceEvent> kept = labrun::events_within(events, {{1'000'000, 1'100'000}});
  CHECK(kept.size() == 9);  // 4 launch calls, 4 kernels, the synchronisation
  for (const TraceEvent& e : kept) {
    CHECK(e.correlation < 90);
  }
  CHECK(labrun::events_within(events, {}).empty());
}

TEST_CASE("a copy the runtime runs on the GPU is GPU work of its execution, like a kernel") {
  const std::vector<TraceEvent> events{
      {TraceKind::kRuntimeCall, "cudaMemcpyAsync", 100, 300, 1, 1, 0},
      {TraceKind::kMemcpy, "memcpy DtoD", 1000, 4000, 5, 1, 1 << 20},
  };
  const labrun::ExecutionTrace trace = labrun::trace_of_execution(events, 0, 10000);
  REQUIRE(trace.kernels.size() == 1);
  CHECK(trace.kernels.front().name == "memcpy DtoD");
  CHECK(trace.gpu_span_us == Approx(3.0));
  CHECK(trace.launch_calls_us == 0.0);  // a copy is not a kernel launch
}

TEST_CASE("a libcupti that cannot be opened is one line naming it, and a later tracer may still be made") {
  const char* saved = std::getenv("LABRUN_CUPTI");
  const std::string before = saved != nullptr ? saved : "";
  setenv("LABRUN_CUPTI", "/nonexistent/libcupti.so", 1);
  for (int attempt = 0; attempt < 2; ++attempt) {  // a failed attempt leaves no tracer in use behind
    try {
      labrun::CuptiTracer tracer;
      FAIL("a tracer was made without libcupti");
    } catch (const labrun::TracerUnavailable& error) {
      const std::string message = error.what();
      CHECK(message.find('\n') == std::string::npos);
      CHECK_THAT(message, ContainsSubstring("/nonexistent/libcupti.so"));
      CHECK_THAT(message, ContainsSubstring("was not found"));
    }
  }
  if (saved != nullptr) {
    setenv("LABRUN_CUPTI", before.c_str(), 1);
  } else {
    unsetenv("LABRUN_CUPTI");
  }
}

TEST_CASE("validate names a traced case the transcript does not have") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  labrun::TimelineRecord record;
  record.status = "measured";
  labrun::TimelineCase traced;
  traced.name = t.cases.front().name;
  traced.size_label = "no-such-size";
  traced.executions = 1;
  record.cases = {traced};
  t.timeline = record;
  const std::optional<labrun::SchemaProblem> problem = labrun::dangling_reference(t);
  REQUIRE(problem);
  CHECK(problem->pointer == "/timeline/cases/0/name");
  CHECK_THAT(problem->message, ContainsSubstring("at size 'no-such-size' names no case"));
}
