#include "timeline/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/format.hpp"
#include "core/statistics.hpp"

namespace labrun {

bool is_trace_file(const std::string& file_name) {
  const std::string_view suffix = kTraceFileSuffix;
  return file_name.size() > suffix.size() && ends_with(file_name, suffix);
}

const char* trace_kind_name(TraceKind kind) {
  switch (kind) {
    case TraceKind::kKernel: return "kernel";
    case TraceKind::kMemcpy: return "memcpy";
    case TraceKind::kMemset: return "memset";
    case TraceKind::kRuntimeCall: return "runtime";
  }
  return "kernel";
}

TraceKind trace_kind_from_name(const std::string& name) {
  for (const TraceKind kind :
       {TraceKind::kKernel, TraceKind::kMemcpy, TraceKind::kMemset, TraceKind::kRuntimeCall}) {
    if (name == trace_kind_name(kind)) {
      return kind;
    }
  }
  throw std::invalid_argument("unknown trace event kind \"" + name + "\"");
}

namespace {

constexpr double kNsPerUs = 1000.0;

double us(std::uint64_t ns) {
  return static_cast<double>(ns) / kNsPerUs;
}

// cudaLaunchKernel and its kin, and cudaGraphLaunch: the calls that put kernels on the GPU.
bool is_launch_call(const TraceEvent& e) {
  return e.kind == TraceKind::kRuntimeCall &&
         (e.name.rfind("cudaLaunch", 0) == 0 || e.name.rfind("cudaGraphLaunch", 0) == 0);
}

}  // namespace

ExecutionTrace trace_of_execution(const std::vector<TraceEvent>& events, std::uint64_t start_ns,
                                  std::uint64_t end_ns) {
  ExecutionTrace trace;
  std::set<std::uint32_t> correlations;
  for (const TraceEvent& e : events) {
    if (e.kind == TraceKind::kRuntimeCall && e.start_ns >= start_ns && e.start_ns <= end_ns) {
      correlations.insert(e.correlation);
      if (is_launch_call(e)) {
        trace.launch_calls_us += us(e.duration_ns());
      }
    }
  }
  for (const TraceEvent& e : events) {
    if (e.kind != TraceKind::kRuntimeCall && correlations.count(e.correlation) > 0) {
      trace.kernels.push_back(e);  // kernels, and copies and sets the runtime ran on the GPU
    }
  }
  std::sort(trace.kernels.begin(), trace.kernels.end(),
            [](const TraceEvent& a, const TraceEvent& b) { return a.start_ns < b.start_ns; });
  std::uint64_t last_end = 0;
  for (std::size_t k = 0; k < trace.kernels.size(); ++k) {
    const TraceEvent& kernel = trace.kernels[k];
    trace.kernel_time_us += us(kernel.duration_ns());
    if (k > 0) {
      trace.gaps_us.push_back(kernel.start_ns > last_end ? us(kernel.start_ns - last_end) : 0.0);
    }
    last_end = std::max(last_end, kernel.end_ns);
  }
  if (!trace.kernels.empty()) {
    trace.gpu_span_us = us(last_end - trace.kernels.front().start_ns);
  }
  return trace;
}

std::vector<TraceEvent> events_within(const std::vector<TraceEvent>& events,
                                      const std::vector<std::pair<std::uint64_t, std::uint64_t>>& windows) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> sorted = windows;
  std::sort(sorted.begin(), sorted.end());
  const auto inside = [&](std::uint64_t t) {
    auto after = std::upper_bound(sorted.begin(), sorted.end(), std::make_pair(t, UINT64_MAX));
    return after != sorted.begin() && t <= std::prev(after)->second;
  };
  std::set<std::uint32_t> correlations;
  for (const TraceEvent& e : events) {
    if (e.kind == TraceKind::kRuntimeCall && inside(e.start_ns)) {
      correlations.insert(e.correlation);
    }
  }
  std::vector<TraceEvent> kept;
  for (const TraceEvent& e : events) {
    if (correlations.count(e.correlation) > 0 && (e.kind != TraceKind::kRuntimeCall || inside(e.start_ns))) {
      kept.push_back(e);
    }
  }
  return kept;
}

TimelineCase summarize_executions(const std::string& name, const std::string& size_label,
                                  std::uint64_t elements, const std::vector<ExecutionTrace>& executions) {
  if (executions.empty()) {
    throw std::invalid_argument("no traced execution of " + name);
  }
  TimelineCase c;
  c.name = name;
  c.size_label = size_label;
  c.elements = elements;
  c.executions = static_cast<int>(executions.size());
  std::vector<double> spans;
  std::vector<double> kernel_times;
  std::vector<double> launch_calls;
  for (const ExecutionTrace& e : executions) {
    spans.push_back(e.gpu_span_us);
    kernel_times.push_back(e.kernel_time_us);
    launch_calls.push_back(e.launch_calls_us);
  }
  c.gpu_span_median_us = median(spans);
  c.kernel_time_median_us = median(kernel_times);
  c.launch_calls_median_us = median(launch_calls);
  // The execution whose span is nearest the median shows the kernels; its gaps are its own, so the
  // bars and gaps drawn add up to one real execution.
  const auto nearest =
      std::min_element(executions.begin(), executions.end(), [&](const auto& a, const auto& b) {
        return std::abs(a.gpu_span_us - c.gpu_span_median_us) <
               std::abs(b.gpu_span_us - c.gpu_span_median_us);
      });
  const std::uint64_t origin = nearest->kernels.empty() ? 0 : nearest->kernels.front().start_ns;
  for (const TraceEvent& k : nearest->kernels) {
    c.kernels.push_back({k.name, us(k.start_ns - origin), us(k.duration_ns())});
  }
  c.gaps_us = nearest->gaps_us;
  return c;
}

nlohmann::ordered_json chrome_trace(const std::vector<TraceEvent>& events,
                                    const std::vector<TracedSpan>& spans) {
  std::uint64_t origin = UINT64_MAX;
  for (const TraceEvent& e : events) {
    origin = std::min(origin, e.start_ns);
  }
  for (const TracedSpan& s : spans) {
    origin = std::min(origin, s.start_ns);
  }
  if (origin == UINT64_MAX) {
    origin = 0;
  }
  // Process ids: 1 the GPU (a thread per stream), 2 the host (a thread per calling thread), 3 labrun.
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const auto name_process = [&](int pid, const std::string& name) {
    list.push_back(
        {{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", name}}}});
  };
  name_process(1, "GPU");
  name_process(2, "host: CUDA runtime calls");
  name_process(3, "labrun: traced cases");
  std::set<std::pair<int, std::uint32_t>> named_threads;
  for (const TraceEvent& e : events) {
    const bool gpu = e.kind != TraceKind::kRuntimeCall;
    const int pid = gpu ? 1 : 2;
    if (named_threads.insert({pid, e.stream}).second) {
      list.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", pid},
                      {"tid", e.stream},
                      {"args", {{"name", (gpu ? "stream " : "thread ") + std::to_string(e.stream)}}}});
    }
    nlohmann::ordered_json event{{"name", e.name},
                                 {"cat", trace_kind_name(e.kind)},
                                 {"ph", "X"},
                                 {"ts", us(e.start_ns - origin)},
                                 {"dur", us(e.duration_ns())},
                                 {"pid", pid},
                                 {"tid", e.stream}};
    nlohmann::ordered_json args{{"correlation", e.correlation}};
    if (e.bytes > 0) {
      args["bytes"] = e.bytes;
    }
    event["args"] = args;
    list.push_back(event);
  }
  list.push_back(
      {{"name", "thread_name"}, {"ph", "M"}, {"pid", 3}, {"tid", 0}, {"args", {{"name", "cases"}}}});
  list.push_back(
      {{"name", "thread_name"}, {"ph", "M"}, {"pid", 3}, {"tid", 1}, {"args", {{"name", "executions"}}}});
  for (const TracedSpan& s : spans) {
    list.push_back({{"name", s.name},
                    {"cat", s.row == 0 ? "case" : "execution"},
                    {"ph", "X"},
                    {"ts", us(s.start_ns - origin)},
                    {"dur", us(s.end_ns > s.start_ns ? s.end_ns - s.start_ns : 0)},
                    {"pid", 3},
                    {"tid", s.row}});
  }
  return {{"traceEvents", list}, {"displayTimeUnit", "ns"}};
}

std::string execution_span_name(const std::string& case_name, const std::string& size_label, int execution) {
  return case_name + " (" + size_label + ") execution " + std::to_string(execution);
}

namespace {

std::uint64_t ns_of(const nlohmann::ordered_json& event, const char* key) {
  const auto it = event.find(key);
  if (it == event.end() || !it->is_number() || it->get<double>() < 0.0) {
    throw std::runtime_error(std::string("a trace event has no usable \"") + key + "\"");
  }
  return static_cast<std::uint64_t>(std::llround(it->get<double>() * kNsPerUs));
}

}  // namespace

RecordedTrace read_chrome_trace(const nlohmann::ordered_json& trace) {
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace.at("traceEvents").is_array()) {
    throw std::runtime_error("not a Chrome trace: no \"traceEvents\" array");
  }
  RecordedTrace recorded;
  for (const auto& event : trace.at("traceEvents")) {
    if (!event.is_object() || event.value("ph", "") != "X") {
      continue;  // metadata: process and thread names
    }
    const std::uint64_t start = ns_of(event, "ts");
    const std::uint64_t end = start + ns_of(event, "dur");
    const std::string name = event.value("name", "");
    const int pid = event.value("pid", 0);
    if (pid == 3) {
      recorded.spans.push_back({name, start, end, event.value("tid", 0)});
      continue;
    }
    TraceEvent e;
    e.kind = trace_kind_from_name(event.value("cat", ""));
    e.name = name;
    e.start_ns = start;
    e.end_ns = end;
    e.stream = event.value("tid", 0U);
    if (event.contains("args") && event.at("args").is_object()) {
      e.correlation = event.at("args").value("correlation", 0U);
      e.bytes = event.at("args").value("bytes", std::uint64_t{0});
    }
    recorded.events.push_back(std::move(e));
  }
  return recorded;
}

TimelineCase timeline_case_from_trace(const RecordedTrace& trace, const std::string& case_name,
                                      const std::string& size_label, std::uint64_t elements) {
  const std::string prefix = execution_span_name(case_name, size_label, 0);
  const std::string stem = prefix.substr(0, prefix.size() - 1);  // "... execution "
  std::vector<ExecutionTrace> executions;
  for (const TracedSpan& span : trace.spans) {
    if (span.row == 1 && span.name.rfind(stem, 0) == 0 &&
        span.name.find_first_not_of("0123456789", stem.size()) == std::string::npos) {
      executions.push_back(trace_of_execution(trace.events, span.start_ns, span.end_ns));
    }
  }
  if (executions.empty()) {
    throw std::runtime_error("the trace has no execution of " + case_name + " (" + size_label + ")");
  }
  return summarize_executions(case_name, size_label, elements, executions);
}

namespace {

std::string xml_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
  }
  return out;
}

// The last part of a case name ("day48-fusion/part2/staged" gives "staged").
std::string short_name(const std::string& name) {
  const std::size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace

std::string timeline_svg(const TimelineRecord& record, const std::string& title) {
  // Groups by size label, in the order the cases were traced.
  std::vector<std::string> labels;
  std::map<std::string, std::vector<const TimelineCase*>> groups;
  for (const TimelineCase& c : record.cases) {
    if (groups.count(c.size_label) == 0) {
      labels.push_back(c.size_label);
    }
    groups[c.size_label].push_back(&c);
  }
  constexpr double kLeft = 220.0;
  constexpr double kWidth = 900.0;
  constexpr double kRow = 26.0;
  constexpr double kBar = 16.0;
  constexpr double kGroupHead = 46.0;
  double height = 40.0;
  for (const std::string& label : labels) {
    height += kGroupHead + kRow * static_cast<double>(groups[label].size()) + 10.0;
  }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fixed(kLeft + kWidth + 40.0, 0)
      << "\" height=\"" << fixed(height, 0) << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"10\" y=\"22\" font-size=\"15\">" << xml_text(title) << "</text>\n";
  double y = 40.0;
  static constexpr const char* kColours[] = {"#4c72b0", "#dd8452", "#55a868",
                                             "#c44e52", "#8172b3", "#937860"};
  for (const std::string& label : labels) {
    double longest = 0.0;
    for (const TimelineCase* c : groups[label]) {
      for (const TimelineKernel& k : c->kernels) {
        longest = std::max(longest, k.start_us + k.duration_us);
      }
    }
    const double scale = longest > 0.0 ? kWidth / longest : 0.0;
    svg << "<text x=\"10\" y=\"" << fixed(y + 18.0, 1) << "\" font-size=\"13\">" << xml_text(label)
        << ", n = " << groups[label].front()->elements << " (axis 0 to " << fixed(longest, 1)
        << " µs)</text>\n";
    svg << "<line x1=\"" << fixed(kLeft, 1) << "\" y1=\"" << fixed(y + 30.0, 1) << "\" x2=\""
        << fixed(kLeft + kWidth, 1) << "\" y2=\"" << fixed(y + 30.0, 1) << "\" stroke=\"#999\"/>\n";
    y += kGroupHead;
    for (const TimelineCase* c : groups[label]) {
      svg << "<text x=\"10\" y=\"" << fixed(y + kBar - 3.0, 1) << "\">" << xml_text(short_name(c->name))
          << "</text>\n";
      for (std::size_t k = 0; k < c->kernels.size(); ++k) {
        const TimelineKernel& kernel = c->kernels[k];
        svg << "<rect x=\"" << fixed(kLeft + kernel.start_us * scale, 2) << "\" y=\"" << fixed(y, 1)
            << "\" width=\"" << fixed(std::max(1.0, kernel.duration_us * scale), 2) << "\" height=\""
            << fixed(kBar, 1) << "\" fill=\"" << kColours[k % std::size(kColours)] << "\"><title>"
            << xml_text(kernel.name) << ": " << fixed(kernel.duration_us, 2) << " µs</title></rect>\n";
      }
      y += kRow;
    }
    y += 10.0;
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace labrun
