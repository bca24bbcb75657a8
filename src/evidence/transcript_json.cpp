#include "evidence/transcript_json.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/format.hpp"
#include "base/json_parse.hpp"
#include "core/environment_contract.hpp"
#include "core/rounds.hpp"
#include "evidence/schema_validation.hpp"

namespace labrun {
namespace {

// JSON has no NaN or infinity: such values are written as the strings "nan", "inf", "-inf".
Json number_or_text(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  return value;
}

// A transcript's JSON, read in time linear in its size with each object's key order kept; a key
// given twice in one object makes the text malformed.
Json parse_ordered_json(const std::string& text) {
  ParsedJson parsed;
  try {
    parsed = parse_json_finding_duplicates(text, kTranscriptMaxDepth);
  } catch (const JsonTooDeep& error) {
    throw TranscriptFormatError((error.pointer().empty() ? "/" : error.pointer()) + ": " + error.what() +
                                ", more than a transcript allows");
  }
  if (!parsed.duplicate_keys.empty()) {
    const DuplicateKey& first = parsed.duplicate_keys.front();
    throw TranscriptFormatError("malformed JSON: the key \"" + first.key +
                                "\" appears twice in one object (" + first.pointer + ")");
  }
  return std::move(parsed.document);
}

class Reader {
 public:
  Reader(const Json& node, std::string pointer) : node_(node), pointer_(std::move(pointer)) {}

  [[nodiscard]] const Json& node() const { return node_; }
  [[nodiscard]] const std::string& pointer() const { return pointer_; }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw TranscriptFormatError(pointer_ + "/" + key + ": " + what);
  }

  [[nodiscard]] const Json& field(const std::string& key) const {
    if (!node_.is_object()) {
      throw TranscriptFormatError((pointer_.empty() ? "/" : pointer_) + ": expected an object");
    }
    const auto it = node_.find(key);
    if (it == node_.end()) {
      fail(key, "missing");
    }
    return *it;
  }
  [[nodiscard]] bool has(const std::string& key) const {
    return node_.is_object() && node_.contains(key) && !node_.at(key).is_null();
  }
  [[nodiscard]] Reader child(const std::string& key) const {
    return Reader(field(key), pointer_ + "/" + key);
  }
  [[nodiscard]] std::string text(const std::string& key) const {
    const Json& value = field(key);
    if (!value.is_string()) {
      fail(key, "expected a string");
    }
    return value.get<std::string>();
  }
  [[nodiscard]] double number(const std::string& key) const { return number_value(field(key), key); }
  [[nodiscard]] double number_value(const Json& value, const std::string& key) const {
    if (value.is_number()) {
      return value.get<double>();
    }
    if (value.is_string()) {
      const auto s = value.get<std::string>();
      if (s == "nan") {
        return std::numeric_limits<double>::quiet_NaN();
      }
      if (s == "inf") {
        return std::numeric_limits<double>::infinity();
      }
      if (s == "-inf") {
        return -std::numeric_limits<double>::infinity();
      }
    }
    fail(key, "expected a number");
  }
  [[nodiscard]] std::uint64_t count(const std::string& key) const {
    const Json& value = field(key);
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
      fail(key, "expected a non-negative integer");
    }
    return value.get<std::uint64_t>();
  }
  [[nodiscard]] int integer(const std::string& key) const {
    const Json& value = field(key);
    if (!value.is_number_integer()) {
      fail(key, "expected an integer");
    }
    // Read as 64 bits first, so that 2^32 + 2 is refused rather than wrapped to 2.
    const bool in_range =
        value.is_number_unsigned()
            ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())
            : value.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                  value.get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!in_range) {
      fail(key, "an integer out of range (at most " + std::to_string(std::numeric_limits<int>::max()) + ")");
    }
    return value.get<int>();
  }
  [[nodiscard]] bool flag(const std::string& key) const {
    const Json& value = field(key);
    if (!value.is_boolean()) {
      fail(key, "expected true or false");
    }
    return value.get<bool>();
  }
  [[nodiscard]] const Json& array(const std::string& key) const {
    const Json& value = field(key);
    if (!value.is_array()) {
      fail(key, "expected an array");
    }
    return value;
  }
  [[nodiscard]] std::vector<std::string> texts(const std::string& key) const {
    std::vector<std::string> out;
    const Json& values = array(key);
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!values[i].is_string()) {
        fail(key + "/" + std::to_string(i), "expected a string");
      }
      out.push_back(values[i].get<std::string>());
    }
    return out;
  }
  [[nodiscard]] std::vector<double> numbers(const std::string& key) const {
    std::vector<double> out;
    const Json& values = array(key);
    for (std::size_t i = 0; i < values.size(); ++i) {
      out.push_back(number_value(values[i], key + "/" + std::to_string(i)));
    }
    return out;
  }
  //! An array of sample indices (non-negative integers).
  [[nodiscard]] std::vector<std::size_t> indices(const std::string& key) const {
    std::vector<std::size_t> out;
    const Json& values = array(key);
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!values[i].is_number_unsigned()) {
        fail(key + "/" + std::to_string(i), "expected a sample index");
      }
      out.push_back(values[i].get<std::size_t>());
    }
    return out;
  }
  [[nodiscard]] std::vector<Reader> items(const std::string& key) const {
    std::vector<Reader> out;
    const Json& values = array(key);
    for (std::size_t i = 0; i < values.size(); ++i) {
      out.emplace_back(values[i], pointer_ + "/" + key + "/" + std::to_string(i));
    }
    return out;
  }

 private:
  const Json& node_;
  std::string pointer_;
};

// Text a run took from outside (its arguments, paths, facts the system reported) may hold any bytes;
// JSON holds UTF-8 only, so each byte that is not part of it is written as \xNN (base/format.hpp).
Json names_json(const std::vector<std::string>& names) {
  Json list = Json::array();
  for (const std::string& name : names) {
    list.push_back(name_text(name));
  }
  return list;
}

Json fact_value_to_json(const Fact::Value& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    return name_text(*text);
  }
  return std::visit([](const auto& v) { return Json(v); }, value);
}

Json model_to_json(const ByteModel& model) {
  return Json{
      {"read_bytes_per_element", model.read_bytes_per_element},
      {"write_bytes_per_element", model.write_bytes_per_element},
      {"launches", model.launches},
      {"flops_per_element", model.flops_per_element ? Json(*model.flops_per_element) : Json(nullptr)}};
}

ByteModel model_from(const Reader& reader) {
  ByteModel model;
  model.read_bytes_per_element = reader.number("read_bytes_per_element");
  model.write_bytes_per_element = reader.number("write_bytes_per_element");
  model.launches = reader.integer("launches");
  if (reader.has("flops_per_element")) {  // 1.7.0
    model.flops_per_element = reader.number("flops_per_element");
  }
  return model;
}

Json shape_to_json(const std::optional<Shape>& shape) {
  return shape ? Json{{"width", shape->width}, {"height", shape->height}} : Json(nullptr);
}

std::optional<Shape> shape_from(const Reader& parent) {
  if (!parent.has("shape")) {  // 1.7.0; null for a 1-D size
    return std::nullopt;
  }
  const Reader shape = parent.child("shape");
  return Shape{shape.count("width"), shape.count("height")};
}

Json summary_to_json(const SampleSummary& summary) {
  return Json{{"count", summary.count},
              {"median_ms", summary.median},
              {"mean_ms", summary.mean},
              {"min_ms", summary.min},
              {"max_ms", summary.max},
              {"q1_ms", summary.q1},
              {"q3_ms", summary.q3},
              {"relative_spread", summary.relative_spread},
              {"relative_median_ci", number_or_text(summary.relative_median_ci)}};
}

// Before 1.2.0 a summary had no quartiles or median interval: they are computed from the samples.
SampleSummary summary_from(const Reader& reader, const std::vector<double>& samples) {
  SampleSummary summary;
  summary.count = reader.integer("count");
  summary.median = reader.number("median_ms");
  summary.mean = reader.number("mean_ms");
  summary.min = reader.number("min_ms");
  summary.max = reader.number("max_ms");
  summary.relative_spread = reader.number("relative_spread");
  if (reader.has("q1_ms")) {
    summary.q1 = reader.number("q1_ms");
    summary.q3 = reader.number("q3_ms");
    summary.relative_median_ci = reader.number("relative_median_ci");
  } else {
    const SampleSummary computed = summarize(samples);
    summary.q1 = computed.q1;
    summary.q3 = computed.q3;
    summary.relative_median_ci = computed.relative_median_ci;
  }
  return summary;
}

// The stop rule of one round; a record that sets none (built by a program, not a run) is one round,
// whose rule is the run's.
Json round_rule_json(const TimingRecord& timing) {
  const bool set = timing.round_min_samples > 0;
  return Json{{"min_samples", set ? timing.round_min_samples : timing.min_samples},
              {"max_samples", set ? timing.round_max_samples : timing.max_samples},
              {"target_relative_median_ci",
               set ? timing.round_target_relative_median_ci : timing.target_relative_median_ci},
              {"case_time_limit_s", set ? timing.round_case_time_limit_s : timing.case_time_limit_s}};
}

Json timing_to_json(const TimingRecord& timing) {
  Json contexts = Json::array();
  for (const ContextRecord& context : timing.contexts) {
    contexts.push_back(
        Json{{"create_seconds", context.create_seconds}, {"setup_seconds", context.setup_seconds}});
  }
  Json json{{"mode", timing.mode},
            {"order", timing.order},
            {"min_samples", timing.min_samples},
            {"max_samples", timing.max_samples},
            {"target_relative_median_ci", timing.target_relative_median_ci},
            {"case_time_limit_s", timing.case_time_limit_s},
            {"batch", timing.batch},
            {"l2_flush_bytes", timing.l2_flush_bytes ? Json(*timing.l2_flush_bytes) : Json(nullptr)},
            {"clock_source", timing.clock_source},
            {"throttle_threshold_mhz",
             timing.throttle_threshold_mhz ? Json(*timing.throttle_threshold_mhz) : Json(nullptr)},
            {"throttle_rule", timing.throttle_rule},
            {"launch_gate", timing.launch_gate},
            {"rounds", timing.rounds},
            {"round_orders", timing.round_orders},
            {"round_rule", round_rule_json(timing)},
            {"round_placement", timing.round_placement},
            {"interval_method", timing.interval_method},
            {"precision", Json{{"small_case_batch", timing.small_case_batch},
                               {"small_case_max_elements", timing.small_case_max_elements},
                               {"host_cpu", timing.host_cpu ? Json(*timing.host_cpu) : Json(nullptr)},
                               {"device_warmup_s", timing.device_warmup_s},
                               {"clock_lock", timing.clock_lock}}},
            {"rounds_per_context", timing.rounds_per_context > 0 ? timing.rounds_per_context : timing.rounds},
            {"contexts", contexts},
            {"round_context", timing.round_context},
            {"launch_check", timing.launch_check}};
  json["process_allowance"] = timing.process_allowance;  // 1.9.0
  // 1.11.0: a record that sets no small-case rounds (built by a program, or read from before 1.11.0)
  // gives every case its `rounds`.
  const bool small_set = timing.small_case_rounds > 0;
  json["small_case_rounds"] = small_set ? timing.small_case_rounds : timing.rounds;
  json["small_case_rounds_max_elements"] = small_set ? timing.small_case_rounds_max_elements : 0;
  const bool small_rule_set = small_set && timing.small_case_round_min_samples > 0;
  json["small_case_round_rule"] =
      small_rule_set ? Json{{"min_samples", timing.small_case_round_min_samples},
                            {"max_samples", timing.small_case_round_max_samples},
                            {"target_relative_median_ci", timing.small_case_round_target_relative_median_ci},
                            {"case_time_limit_s", timing.small_case_round_case_time_limit_s}}
                     : round_rule_json(timing);
  return json;
}

Json profile_to_json(const ProfileRecord& profile) {
  Json cases = Json::array();
  for (const ProfiledCase& c : profile.cases) {
    cases.push_back(
        Json{{"name", c.name},
             {"size_label", c.size_label},
             {"elements", c.elements},
             {"kernels", c.kernels},
             {"dram_read_bytes", c.dram_read_bytes},
             {"dram_write_bytes", c.dram_write_bytes},
             {"dram_bytes_per_element", c.dram_bytes_per_element()},
             {"model_bytes_per_element", c.model_bytes_per_element},
             {"fp32_instructions",
              c.fp32 ? Json{{"fadd", c.fp32->fadd}, {"fmul", c.fp32->fmul}, {"ffma", c.fp32->ffma}}
                     : Json(nullptr)}});
  }
  return Json{{"status", profile.status},
              {"detail", profile.detail},
              {"tool_version", profile.tool_version},
              {"command", names_json(profile.command)},
              {"report_file", name_text(profile.report_file)},
              {"cases", cases}};
}

Json timeline_to_json(const TimelineRecord& timeline) {
  Json cases = Json::array();
  for (const TimelineCase& c : timeline.cases) {
    Json kernels = Json::array();
    for (const TimelineKernel& k : c.kernels) {
      kernels.push_back(Json{{"name", k.name}, {"start_us", k.start_us}, {"duration_us", k.duration_us}});
    }
    cases.push_back(Json{{"name", c.name},
                         {"size_label", c.size_label},
                         {"elements", c.elements},
                         {"executions", c.executions},
                         {"kernels", kernels},
                         {"gaps_us", c.gaps_us},
                         {"gpu_span_median_us", c.gpu_span_median_us},
                         {"kernel_time_median_us", c.kernel_time_median_us},
                         {"launch_calls_median_us", c.launch_calls_median_us},
                         {"event_median_us", c.event_median_us},
                         {"traced_event_median_us", c.traced_event_median_us}});
  }
  return Json{{"status", timeline.status},
              {"detail", timeline.detail},
              {"tool", timeline.tool},
              {"trace_file", name_text(timeline.trace_file)},
              {"nsys_report", name_text(timeline.nsys_report)},
              {"dropped_records", timeline.dropped_records},
              {"cases", cases}};
}

Json optional_count(const std::optional<std::uint64_t>& value) {
  return value ? Json(*value) : Json(nullptr);
}
Json optional_number(const std::optional<double>& value) {
  return value ? number_or_text(*value) : Json(nullptr);
}

// 1.8.0: a case's declared figures; an unknown one is null with its reason.
Json declared_figures_to_json(const std::vector<DeclaredFigure>& figures) {
  Json out = Json::array();
  for (const DeclaredFigure& f : figures) {
    Json entry{{"name", f.name}, {"unit", f.unit}, {"value", optional_number(f.value)}, {"source", f.source}};
    if (!f.value) {
      entry["unknown_reason"] = f.unknown_reason;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

Json optional_interval(const std::optional<Interval>& interval) {
  return interval ? Json{{"low", number_or_text(interval->low)}, {"high", number_or_text(interval->high)}}
                  : Json(nullptr);
}

}  // namespace

Json transcript_to_json(const Transcript& t) {
  Json document;
  document["schema_version"] = kTranscriptSchemaVersion;
  if (t.is_transcribed()) {
    document["provenance"] =
        Json{{"kind", "transcribed"}, {"source", t.provenance_source}, {"note", t.provenance_note}};
  } else if (t.is_synthetic()) {
    document["provenance"] = Json{{"kind", "synthetic"}, {"note", t.provenance_note}};
  } else {
    document["provenance"] = Json{{"kind", "measured"}};
  }
  document["lab"] = Json{{"name", t.lab_name}, {"title", t.lab_title}};
  document["run"] = Json{{"configuration", t.configuration},
                         {"seed", t.seed},
                         {"repetitions", t.repetitions},
                         {"warmups", t.warmups},
                         {"case_patterns", names_json(t.case_patterns)},
                         {"command_line", names_json(t.command_line)},
                         {"started_utc", t.started_utc},
                         {"finished_utc", t.finished_utc},
                         {"wall_seconds", t.wall_seconds}};
  Json environment = Json::object();
  for (const FactGroup& group : t.environment) {
    Json facts = Json::object();
    for (const Fact& fact : group.facts) {
      facts[fact.key] = fact.value ? Json{{"value", fact_value_to_json(*fact.value)}}
                                   : Json{{"unknown", fact.unknown_reason}};
    }
    environment[group.name] = facts;
  }
  document["environment"] = environment;
  Json sizes = Json::array();
  for (const SizeRecord& size : t.sizes) {
    Json entry{{"label", size.label}, {"elements", optional_count(size.elements)}, {"rule", size.rule}};
    if (!size.elements) {
      entry["unknown"] = size.unknown_reason;
    }
    entry["shape"] = shape_to_json(size.shape);
    sizes.push_back(entry);
  }
  document["sizes"] = sizes;
  Json predictions = Json::array();
  for (const PredictionRecord& p : t.predictions) {
    predictions.push_back(Json{{"description", p.description},
                               {"slower_case", p.slower_case},
                               {"faster_case", p.faster_case},
                               {"byte_ratio", p.ratios.bytes},
                               {"launch_ratio", p.ratios.launches}});
    Json measured = Json::array();
    for (const PredictionMeasurement& m : p.measured) {
      measured.push_back(Json{{"size_label", m.size_label},
                              {"elements", m.elements},
                              {"ratio", number_or_text(m.ratio)},
                              {"interval", optional_interval(m.interval)}});
    }
    predictions.back()["measured"] = measured;
  }
  document["predictions"] = predictions;
  Json checks = Json::array();
  for (const CorrectnessCheck& c : t.correctness) {
    checks.push_back(Json{{"version", c.version},
                          {"elements", c.elements},
                          {"passed", c.passed},
                          {"max_abs_error", number_or_text(c.max_abs_error)},
                          {"max_rel_error", number_or_text(c.max_rel_error)},
                          {"relative_l2_error", number_or_text(c.relative_l2_error)},
                          {"mismatches", c.mismatches},
                          {"tolerance", c.tolerance},
                          {"first_bad_index", optional_count(c.first_bad_index)},
                          {"first_bad_got", optional_number(c.first_bad_got)},
                          {"first_bad_expected", optional_number(c.first_bad_expected)}});
  }
  Json bitwise = Json::array();
  for (const BitwiseComparison& b : t.bitwise) {
    bitwise.push_back(Json{{"first", b.first},
                           {"second", b.second},
                           {"elements", b.elements},
                           {"differing", b.differing},
                           {"max_abs_difference", number_or_text(b.max_abs_difference)}});
  }
  document["correctness"] = Json{{"checks", checks}, {"bitwise", bitwise}};
  Json cases = Json::array();
  for (const CaseResult& c : t.cases) {
    Json attributes = Json::object();
    for (const auto& [key, value] : c.attributes) {
      attributes[key] = number_or_text(value);
    }
    Json entry{{"name", c.name},
               {"part", c.part},
               {"label", c.label},
               {"size_label", c.size_label},
               {"elements", c.elements},
               {"shape", shape_to_json(c.shape)},
               {"model", model_to_json(c.model)},
               {"launches_per_sample", c.launches_per_sample},
               {"warmups", c.warmups},
               {"samples_ms", c.samples_ms},
               {"summary", c.has_samples() || !c.published ? summary_to_json(c.summary) : Json(nullptr)},
               {"attributes", attributes},
               {"declared_figures", declared_figures_to_json(c.declared_figures)}};
    if (c.published) {
      entry["published"] = Json{{"statistic", c.published->statistic},
                                {"runs", c.published->runs},
                                {"value_ms", c.published->value_ms}};
    }
    if (!c.timing_mode.empty()) {
      Json clocks = Json::array();
      for (const std::optional<double>& mhz : c.sample_sm_clock_mhz) {
        clocks.push_back(optional_number(mhz));
      }
      entry["timing_mode"] = c.timing_mode;
      entry["stop_reason"] = c.stop_reason;
      entry["sampling_seconds"] = c.sampling_seconds;
      entry["sample_sm_clock_mhz"] = clocks;
      entry["throttled_samples"] = c.throttled_samples;
      entry["gate_timeout_samples"] = c.gate_timeout_samples;
      entry["median_cycles"] = optional_number(c.median_cycles);
      Json rounds = Json::array();
      // A case built without rounds (a test's, one read from before 1.6.0) is one round of every sample.
      const std::vector<RoundRecord> one_round{RoundRecord{
          static_cast<int>(c.samples_ms.size()), c.summary.median, c.stop_reason, c.sampling_seconds}};
      for (const RoundRecord& r : c.rounds.empty() && c.has_samples() ? one_round : c.rounds) {
        rounds.push_back(Json{{"samples", r.samples},
                              {"median_ms", number_or_text(r.median_ms)},
                              {"stop_reason", r.stop_reason},
                              {"sampling_seconds", r.sampling_seconds},
                              {"context", r.context ? Json(*r.context) : Json(nullptr)}});
      }
      entry["rounds"] = rounds;
      entry["median_interval_ms"] = optional_interval(c.median_interval_ms);
      entry["figure_ms"] = optional_number(c.figure_ms);  // 1.10.0
      entry["units"] = interval_units(c).size();          // 1.11.0
      entry["event_pair_batch"] = c.event_pair_batch;
      entry["launch_check"] = c.launch_check ? Json{{"gated_samples_ms", c.launch_check->gated_samples_ms},
                                                    {"gated_median_ms", c.launch_check->gated_median_ms},
                                                    {"host_share", c.launch_check->host_share},
                                                    {"launch_bound", c.launch_check->launch_bound}}
                                             : Json(nullptr);
    }
    cases.push_back(entry);
  }
  document["cases"] = cases;
  if (t.stability) {
    const StabilityCheck& s = *t.stability;
    document["stability"] = Json{{"case", s.case_name},
                                 {"size_label", s.size_label},
                                 {"elements", s.elements},
                                 {"first_median_ms", s.first_median_ms},
                                 {"second_median_ms", s.second_median_ms},
                                 {"relative_difference", s.relative_difference},
                                 {"second_samples_ms", s.second_samples_ms}};
  } else {
    document["stability"] = nullptr;
  }
  Json claims = Json::array();
  for (const ClaimResult& c : t.claims) {
    claims.push_back(Json{
        {"id", c.id},
        {"statement", c.statement},
        {"figures", c.figures},
        {"verdict", verdict_name(c.verdict)},
        {"measured", optional_number(c.measured)},
        {"expected", optional_number(c.expected)},
        {"tolerance", c.tolerance},
        {"expected_to_fail", c.expected_to_fail},
        {"detail", c.detail},
        {"measured_interval", optional_interval(c.measured_interval)},
        {"bound", c.has_bound()
                      ? Json{{"low", optional_number(c.bound_low)}, {"high", optional_number(c.bound_high)}}
                      : Json(nullptr)},
        {"verdict_basis", c.verdict_basis},
        {"gpu_alone", c.gpu_alone
                          ? Json{{"measured", number_or_text(c.gpu_alone->measured)},
                                 {"measured_interval", optional_interval(c.gpu_alone->measured_interval)},
                                 {"verdict", verdict_name(c.gpu_alone->verdict)}}
                          : Json(nullptr)}});
  }
  document["claims"] = claims;
  document["timing"] = t.timing ? timing_to_json(*t.timing) : Json(nullptr);
  document["profile"] = t.profile ? profile_to_json(*t.profile) : Json(nullptr);
  document["timeline"] = t.timeline ? timeline_to_json(*t.timeline) : Json(nullptr);
  document["roofline"] = t.roofline ? Json{{"memory_ceiling_cases", t.roofline->memory_ceiling_cases},
                                           {"compute_ceiling_case", t.roofline->compute_ceiling_case}}
                                    : Json(nullptr);
  return document;
}

namespace {

void read_run(const Reader& run, Transcript& t) {
  t.configuration = run.text("configuration");
  t.seed = run.count("seed");
  t.repetitions = run.integer("repetitions");
  t.warmups = run.integer("warmups");
  t.case_patterns = run.texts("case_patterns");
  t.command_line = run.texts("command_line");
  t.started_utc = run.text("started_utc");
  t.finished_utc = run.text("finished_utc");
  t.wall_seconds = run.number("wall_seconds");
}

void read_environment(const Reader& environment, Transcript& t) {
  if (!environment.node().is_object()) {
    throw TranscriptFormatError(environment.pointer() + ": expected an object");
  }
  // Each member is read where the iteration finds it: a lookup by key would be linear in the
  // object's size (ordered_json), and reading every member that way quadratic.
  for (const auto& [group_name, group_node] : environment.node().items()) {
    const Reader group(group_node, environment.pointer() + "/" + group_name);
    if (!group_node.is_object()) {
      throw TranscriptFormatError(group.pointer() + ": expected an object");
    }
    FactGroup facts{group_name, {}};
    for (const auto& [key, fact_node] : group_node.items()) {
      const Reader fact(fact_node, group.pointer() + "/" + key);
      if (fact.has("value")) {
        const Json value = fact.field("value");
        if (value.is_string()) {
          facts.facts.push_back(Fact::known(key, value.get<std::string>()));
        } else if (value.is_boolean()) {
          facts.facts.push_back(Fact::known(key, value.get<bool>()));
        } else if (value.is_number_integer()) {
          facts.facts.push_back(Fact::known(key, value.get<std::int64_t>()));
        } else if (value.is_number()) {
          facts.facts.push_back(Fact::known(key, value.get<double>()));
        } else {
          fact.fail("value", "expected a string, number or boolean");
        }
      } else if (fact_node.is_object() && fact_node.contains("unknown")) {
        facts.facts.push_back(Fact::unknown(key, fact.text("unknown")));
      } else {
        throw TranscriptFormatError(fact.pointer() + ": expected {\"value\": ...} or {\"unknown\": reason}");
      }
    }
    t.environment.push_back(std::move(facts));
  }
}

void read_correctness(const Reader& correctness, Transcript& t) {
  for (const Reader& c : correctness.items("checks")) {
    CorrectnessCheck check;
    check.version = c.text("version");
    check.elements = c.count("elements");
    check.passed = c.flag("passed");
    check.max_abs_error = c.number("max_abs_error");
    check.max_rel_error = c.number("max_rel_error");
    check.relative_l2_error = c.number("relative_l2_error");
    check.mismatches = c.count("mismatches");
    check.tolerance = c.text("tolerance");
    if (c.has("first_bad_index")) {
      check.first_bad_index = c.count("first_bad_index");
      check.first_bad_got = c.number("first_bad_got");
      check.first_bad_expected = c.number("first_bad_expected");
    }
    t.correctness.push_back(check);
  }
  for (const Reader& b : correctness.items("bitwise")) {
    BitwiseComparison comparison;
    comparison.first = b.text("first");
    comparison.second = b.text("second");
    comparison.elements = b.count("elements");
    comparison.differing = b.count("differing");
    comparison.max_abs_difference = b.number("max_abs_difference");
    t.bitwise.push_back(comparison);
  }
}

// An interval the parent must have: a missing one, or one without low and high, throws.
Interval read_required_interval(const Reader& parent, const std::string& key) {
  const Reader interval = parent.child(key);
  return Interval{interval.number("low"), interval.number("high")};
}

std::optional<Interval> read_interval(const Reader& parent, const std::string& key) {
  if (!parent.has(key)) {
    return std::nullopt;
  }
  return read_required_interval(parent, key);
}

CaseResult read_case(const Reader& c, bool transcribed) {
  CaseResult result;
  result.name = c.text("name");
  result.part = c.text("part");
  result.label = c.text("label");
  result.size_label = c.text("size_label");
  result.elements = c.count("elements");
  result.shape = shape_from(c);
  result.model = model_from(c.child("model"));
  result.launches_per_sample = c.integer("launches_per_sample");
  if (!transcribed || c.has("warmups")) {
    result.warmups = c.integer("warmups");
  }
  if (!transcribed || c.has("samples_ms")) {
    result.samples_ms = c.numbers("samples_ms");
  }
  if (!transcribed || c.has("summary")) {
    result.summary = summary_from(c.child("summary"), result.samples_ms);
  }
  if (c.has("timing_mode")) {
    result.timing_mode = c.text("timing_mode");
    result.stop_reason = c.text("stop_reason");
    result.sampling_seconds = c.number("sampling_seconds");
    const Json& clocks = c.array("sample_sm_clock_mhz");
    for (std::size_t i = 0; i < clocks.size(); ++i) {
      result.sample_sm_clock_mhz.push_back(
          clocks[i].is_null()
              ? std::nullopt
              : std::optional<double>(c.number_value(clocks[i], "sample_sm_clock_mhz/" + std::to_string(i))));
    }
    result.throttled_samples = c.indices("throttled_samples");
    if (c.has("median_cycles")) {
      result.median_cycles = c.number("median_cycles");
    }
    if (c.has("gate_timeout_samples")) {  // 1.3.0
      result.gate_timeout_samples = c.indices("gate_timeout_samples");
    }
    if (c.has("rounds")) {  // 1.6.0
      std::size_t counted = 0;
      for (const Reader& r : c.items("rounds")) {
        const int samples = r.integer("samples");
        if (samples < 0) {
          r.fail("samples", "expected a non-negative integer");
        }
        counted += static_cast<std::size_t>(samples);
        result.rounds.push_back(
            RoundRecord{samples, r.number("median_ms"), r.text("stop_reason"), r.number("sampling_seconds")});
        if (r.has("context")) {  // 1.8.0
          const int context = r.integer("context");
          if (context < 0) {
            r.fail("context", "expected a non-negative integer");
          }
          result.rounds.back().context = context;
        }
      }
      if (counted != result.samples_ms.size()) {
        c.fail("rounds", "the rounds hold " + std::to_string(counted) + " samples and samples_ms " +
                             std::to_string(result.samples_ms.size()));
      }
      result.median_interval_ms = read_interval(c, "median_interval_ms");
      if (c.has("figure_ms")) {  // 1.10.0; before it, and when null, the figure is the median
        result.figure_ms = c.number("figure_ms");
        if (!(*result.figure_ms > 0.0) || !std::isfinite(*result.figure_ms)) {
          c.fail("figure_ms", "expected a positive number");
        }
      }
      if (c.has("units")) {  // 1.11.0; before it, every case's units follow from its rounds alone
        result.units = c.integer("units");
        if (*result.units < 1) {
          c.fail("units", "expected a positive integer");
        }
      }
      result.event_pair_batch = c.integer("event_pair_batch");
    }
    if (c.has("launch_check")) {  // 1.8.0
      const Reader check = c.child("launch_check");
      result.launch_check =
          LaunchLatencyCheck{check.numbers("gated_samples_ms"), check.number("gated_median_ms"),
                             check.number("host_share"), check.flag("launch_bound")};
    }
  }
  if (c.has("attributes")) {
    const Reader attributes = c.child("attributes");
    if (!attributes.node().is_object()) {
      throw TranscriptFormatError(attributes.pointer() + ": expected an object");
    }
    for (const auto& item : attributes.node().items()) {
      result.attributes[item.key()] = attributes.number_value(item.value(), item.key());
    }
  } else if (!transcribed) {
    static_cast<void>(c.field("attributes"));  // throws: missing
  }
  if (c.has("declared_figures")) {  // 1.8.0
    for (const Reader& f : c.items("declared_figures")) {
      DeclaredFigure figure{f.text("name"), f.text("unit"), std::nullopt, f.text("source"), ""};
      if (f.has("value")) {
        figure.value = f.number("value");
      } else {
        figure.unknown_reason = f.text("unknown_reason");
      }
      result.declared_figures.push_back(std::move(figure));
    }
  }
  if (c.has("published")) {
    const Reader published = c.child("published");
    result.published =
        PublishedFigure{published.text("statistic"), published.integer("runs"), published.number("value_ms")};
  }
  return result;
}

TimingRecord read_timing(const Reader& r) {
  TimingRecord timing;
  timing.mode = r.text("mode");
  timing.order = r.text("order");
  timing.min_samples = r.integer("min_samples");
  timing.max_samples = r.integer("max_samples");
  timing.target_relative_median_ci = r.number("target_relative_median_ci");
  timing.case_time_limit_s = r.number("case_time_limit_s");
  timing.batch = r.integer("batch");
  if (r.has("l2_flush_bytes")) {
    timing.l2_flush_bytes = r.count("l2_flush_bytes");
  }
  timing.clock_source = r.text("clock_source");
  if (r.has("throttle_threshold_mhz")) {
    timing.throttle_threshold_mhz = r.number("throttle_threshold_mhz");
  }
  timing.throttle_rule = r.text("throttle_rule");
  if (r.has("launch_gate")) {  // 1.3.0
    timing.launch_gate = r.text("launch_gate");
  }
  if (r.has("rounds")) {  // 1.6.0
    timing.rounds = r.integer("rounds");
    const Json& orders = r.array("round_orders");
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const std::string at = "round_orders/" + std::to_string(i);
      if (!orders[i].is_array()) {
        r.fail(at, "expected an array of case indices");
      }
      std::vector<std::size_t> order;
      for (std::size_t j = 0; j < orders[i].size(); ++j) {
        if (!orders[i][j].is_number_unsigned()) {
          r.fail(at + "/" + std::to_string(j), "expected a case index");
        }
        order.push_back(orders[i][j].get<std::size_t>());
      }
      timing.round_orders.push_back(std::move(order));
    }
    const Reader rule = r.child("round_rule");
    timing.round_min_samples = rule.integer("min_samples");
    timing.round_max_samples = rule.integer("max_samples");
    timing.round_target_relative_median_ci = rule.number("target_relative_median_ci");
    timing.round_case_time_limit_s = rule.number("case_time_limit_s");
    timing.round_placement = r.text("round_placement");
    timing.interval_method = r.text("interval_method");
    const Reader precision = r.child("precision");
    timing.small_case_batch = precision.integer("small_case_batch");
    timing.small_case_max_elements = precision.count("small_case_max_elements");
    if (precision.has("host_cpu")) {
      timing.host_cpu = precision.integer("host_cpu");
    }
    timing.device_warmup_s = precision.number("device_warmup_s");
    timing.clock_lock = precision.text("clock_lock");
  }
  if (r.has("rounds_per_context")) {  // 1.8.0
    timing.rounds_per_context = r.integer("rounds_per_context");
    if (timing.rounds_per_context < 1) {
      r.fail("rounds_per_context", "expected a positive integer");
    }
    for (const Reader& context : r.items("contexts")) {
      timing.contexts.push_back(
          ContextRecord{context.number("create_seconds"), context.number("setup_seconds")});
    }
    if (r.has("process_allowance")) {  // 1.9.0; before it, none
      timing.process_allowance = r.number("process_allowance");
      if (!(timing.process_allowance >= 0.0)) {
        r.fail("process_allowance", "expected a number of at least 0");
      }
    }
    timing.round_context = r.text("round_context");
    timing.launch_check = r.text("launch_check");
  }
  if (r.has("small_case_rounds")) {  // 1.11.0; before it, every case took `rounds`
    timing.small_case_rounds = r.integer("small_case_rounds");
    if (timing.small_case_rounds < std::max(timing.rounds, 1)) {
      r.fail("small_case_rounds",
             "expected an integer of at least /timing/rounds (" + std::to_string(timing.rounds) + ")");
    }
    timing.small_case_rounds_max_elements = r.count("small_case_rounds_max_elements");
    const Reader rule = r.child("small_case_round_rule");
    timing.small_case_round_min_samples = rule.integer("min_samples");
    timing.small_case_round_max_samples = rule.integer("max_samples");
    timing.small_case_round_target_relative_median_ci = rule.number("target_relative_median_ci");
    timing.small_case_round_case_time_limit_s = rule.number("case_time_limit_s");
  }
  return timing;
}

TimelineRecord read_timeline(const Reader& r) {
  TimelineRecord timeline;
  timeline.status = r.text("status");
  timeline.detail = r.text("detail");
  timeline.tool = r.text("tool");
  timeline.trace_file = r.text("trace_file");
  timeline.nsys_report = r.text("nsys_report");
  timeline.dropped_records = r.count("dropped_records");
  for (const Reader& c : r.items("cases")) {
    TimelineCase traced;
    traced.name = c.text("name");
    traced.size_label = c.text("size_label");
    traced.elements = c.count("elements");
    traced.executions = c.integer("executions");
    for (const Reader& k : c.items("kernels")) {
      traced.kernels.push_back({k.text("name"), k.number("start_us"), k.number("duration_us")});
    }
    traced.gaps_us = c.numbers("gaps_us");
    traced.gpu_span_median_us = c.number("gpu_span_median_us");
    traced.kernel_time_median_us = c.number("kernel_time_median_us");
    traced.launch_calls_median_us = c.number("launch_calls_median_us");
    traced.event_median_us = c.number("event_median_us");
    traced.traced_event_median_us = c.number("traced_event_median_us");
    timeline.cases.push_back(std::move(traced));
  }
  return timeline;
}

ProfileRecord read_profile(const Reader& r) {
  ProfileRecord profile;
  profile.status = r.text("status");
  profile.detail = r.text("detail");
  profile.tool_version = r.text("tool_version");
  profile.command = r.texts("command");
  profile.report_file = r.text("report_file");
  for (const Reader& c : r.items("cases")) {
    ProfiledCase profiled;
    profiled.name = c.text("name");
    profiled.size_label = c.text("size_label");
    profiled.elements = c.count("elements");
    profiled.kernels = c.integer("kernels");
    profiled.dram_read_bytes = c.number("dram_read_bytes");
    profiled.dram_write_bytes = c.number("dram_write_bytes");
    profiled.model_bytes_per_element = c.number("model_bytes_per_element");
    if (c.has("fp32_instructions")) {  // 1.7.0
      const Reader fp32 = c.child("fp32_instructions");
      profiled.fp32 = Fp32Instructions{fp32.number("fadd"), fp32.number("fmul"), fp32.number("ffma")};
    }
    profile.cases.push_back(profiled);
  }
  return profile;
}

// Before 1.2.0 the harness always sampled hot, in declared order, a fixed count per case, and read
// no per-sample clock: the migration records exactly that, and marks the record as migrated.
void migrate_timing(Transcript& t) {
  TimingRecord timing;
  timing.min_samples = std::max(1, t.repetitions);
  timing.max_samples = timing.min_samples;
  timing.batch = timing.min_samples;
  timing.clock_source = "not recorded: the transcript predates schema 1.2.0";
  timing.throttle_rule = "not recorded: the transcript predates schema 1.2.0";
  t.timing = timing;
  t.timing_recorded = false;
  for (CaseResult& c : t.cases) {
    c.timing_mode = "hot";
    c.stop_reason = "fixed-count";
    c.sample_sm_clock_mhz.assign(c.samples_ms.size(), std::nullopt);
  }
}

// Before 1.6.0 a run was one round of every sample: the migration records it so, with the ratios
// each prediction measured (no intervals), and marks the transcript as read without rounds.
void migrate_rounds(Transcript& t) {
  t.rounds_recorded = false;
  if (t.timing) {
    TimingRecord& timing = *t.timing;
    timing.rounds = 1;
    timing.round_orders = {round_order(t.cases.size(), 0, 1, t.seed)};
    timing.round_min_samples = timing.min_samples;
    timing.round_max_samples = timing.max_samples;
    timing.round_target_relative_median_ci = timing.target_relative_median_ci;
    timing.round_case_time_limit_s = timing.case_time_limit_s;
    timing.round_placement = "not recorded: the transcript predates schema 1.6.0 (one round)";
    timing.interval_method = "none: the transcript predates schema 1.6.0 (one round)";
    timing.clock_lock = "not recorded: the transcript predates schema 1.6.0";
  }
  for (CaseResult& c : t.cases) {
    if (c.has_samples() && !c.timing_mode.empty()) {
      c.rounds = {RoundRecord{static_cast<int>(c.samples_ms.size()), c.summary.median, c.stop_reason,
                              c.sampling_seconds}};
    }
  }
  for (PredictionRecord& p : t.predictions) {
    p.measured = measure_prediction(t, p);
  }
}

// Before 1.8.0 every round ran in the run's one CUDA context, and each round was its own interval
// unit (its rounds record no context, so core/rounds.hpp keeps judging them so); no case was checked
// for launch latency.
void migrate_contexts(TimingRecord& timing) {
  timing.rounds_per_context = std::max(1, timing.rounds);
  timing.round_context =
      "not recorded: the transcript predates schema 1.8.0 (every round in the run's one CUDA "
      "context, each round an interval unit)";
}

// `parent`'s "verdict", one of verdict_name's; any other text fails at its pointer.
Verdict read_verdict(const Reader& parent) {
  try {
    return verdict_from_name(parent.text("verdict"));
  } catch (const std::invalid_argument& error) {
    parent.fail("verdict", error.what());
  }
}

ClaimResult read_claim(const Reader& c) {
  ClaimResult claim;
  claim.id = c.text("id");
  claim.statement = c.text("statement");
  claim.figures = c.text("figures");
  claim.verdict = read_verdict(c);
  if (c.has("measured")) {
    claim.measured = c.number("measured");
  }
  if (c.has("expected")) {
    claim.expected = c.number("expected");
  }
  claim.tolerance = c.text("tolerance");
  claim.expected_to_fail = c.flag("expected_to_fail");
  claim.detail = c.text("detail");
  if (c.has("verdict_basis")) {  // 1.6.0
    claim.verdict_basis = c.text("verdict_basis");
    claim.measured_interval = read_interval(c, "measured_interval");
    if (c.has("bound")) {
      const Reader bound = c.child("bound");
      if (bound.has("low")) {
        claim.bound_low = bound.number("low");
      }
      if (bound.has("high")) {
        claim.bound_high = bound.number("high");
      }
    }
  } else {
    claim.verdict_basis = "point";  // before 1.6.0 every verdict was the run's figures against the tolerance
  }
  if (c.has("gpu_alone")) {  // 1.12.0
    const Reader reading = c.child("gpu_alone");
    GpuAloneReading gpu_alone;
    gpu_alone.measured = reading.number("measured");
    gpu_alone.measured_interval = read_required_interval(reading, "measured_interval");
    gpu_alone.verdict = read_verdict(reading);
    claim.gpu_alone = gpu_alone;
  }
  return claim;
}

}  // namespace

const std::vector<std::string>& readable_schema_versions() {
  // Every version before the current one, then the current one.
  static const std::vector<std::string> versions = [] {
    std::vector<std::string> older{"1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0",  "1.5.0",
                                   "1.6.0", "1.7.0", "1.8.0", "1.9.0", "1.10.0", "1.11.0"};
    older.emplace_back(kTranscriptSchemaVersion);
    return older;
  }();
  return versions;
}

Transcript transcript_from_json(const Json& document) {
  const Reader root(document, "");
  Transcript t;
  t.schema_version = root.text("schema_version");
  const auto& readable = readable_schema_versions();
  if (std::find(readable.begin(), readable.end(), t.schema_version) == readable.end()) {
    std::string known;
    for (const std::string& version : readable) {
      known += (known.empty() ? "" : ", ") + version;
    }
    root.fail("schema_version",
              "unknown schema version '" + t.schema_version + "' (this build reads " + known + ")");
  }
  // 1.0.0 had no provenance: every 1.0.0 transcript was measured.
  if (root.has("provenance")) {
    const Reader provenance = root.child("provenance");
    t.provenance = provenance.text("kind");
    if (t.provenance == "transcribed") {
      t.provenance_source = provenance.text("source");
      if (provenance.has("note")) {
        t.provenance_note = provenance.text("note");
      }
    } else if (t.provenance == "synthetic" && schema_version_at_least(t.schema_version, "1.4.0")) {
      t.provenance_note = provenance.text("note");
    } else if (t.provenance != "measured") {
      provenance.fail("kind", "expected \"measured\", \"transcribed\" or (from 1.4.0) \"synthetic\"");
    }
  } else if (t.schema_version != "1.0.0") {
    static_cast<void>(root.field("provenance"));  // throws: missing
  }
  const bool transcribed = t.is_transcribed();
  const Reader lab = root.child("lab");
  t.lab_name = lab.text("name");
  t.lab_title = lab.text("title");
  if (!transcribed || root.has("run")) {
    read_run(root.child("run"), t);
  } else {
    t.configuration = "transcribed";
  }
  read_environment(root.child("environment"), t);
  // Before 1.4.0 a measured transcript's environment could lack a group or a fact: what the
  // current contract requires and the file lacks is recorded as not recorded.
  if (!transcribed && !schema_version_at_least(t.schema_version, "1.4.0")) {
    t.not_recorded =
        complete_with_unrecorded(t.environment, "not recorded: the transcript predates schema 1.4.0");
  }
  if (!transcribed || root.has("sizes")) {
    for (const Reader& size : root.items("sizes")) {
      SizeRecord record;
      record.label = size.text("label");
      record.rule = size.text("rule");
      if (size.has("elements")) {
        record.elements = size.count("elements");
      } else {
        record.unknown_reason = size.text("unknown");
      }
      record.shape = shape_from(size);
      t.sizes.push_back(record);
    }
  }
  if (!transcribed || root.has("predictions")) {
    for (const Reader& p : root.items("predictions")) {
      PredictionRecord record;
      record.description = p.text("description");
      record.slower_case = p.text("slower_case");
      record.faster_case = p.text("faster_case");
      record.ratios.bytes = p.number("byte_ratio");
      record.ratios.launches = p.number("launch_ratio");
      if (p.has("measured")) {  // 1.6.0
        for (const Reader& m : p.items("measured")) {
          record.measured.push_back(PredictionMeasurement{m.text("size_label"), m.count("elements"),
                                                          m.number("ratio"), read_interval(m, "interval")});
        }
      }
      t.predictions.push_back(record);
    }
  }
  if (!transcribed || root.has("correctness")) {
    read_correctness(root.child("correctness"), t);
  }
  for (const Reader& c : root.items("cases")) {
    t.cases.push_back(read_case(c, transcribed));
  }
  if (root.has("stability")) {
    const Reader s = root.child("stability");
    StabilityCheck check;
    check.case_name = s.text("case");
    check.size_label = s.text("size_label");
    check.elements = s.count("elements");
    check.first_median_ms = s.number("first_median_ms");
    check.second_median_ms = s.number("second_median_ms");
    check.relative_difference = s.number("relative_difference");
    check.second_samples_ms = s.numbers("second_samples_ms");
    t.stability = check;
  } else if (!transcribed) {
    static_cast<void>(root.field("stability"));  // present, and null
  }
  // Claims arrived in 1.1.0; a transcript without them has none recorded.
  if (root.has("claims")) {
    for (const Reader& c : root.items("claims")) {
      t.claims.push_back(read_claim(c));
    }
  } else if (t.schema_version == "1.0.0" || transcribed) {
    t.claims_recorded = false;
  } else {
    static_cast<void>(root.field("claims"));  // throws: missing
  }
  // Timing and profile records arrived in 1.2.0; a measured 1.2.0 transcript always has timing.
  const bool before_1_2 = t.schema_version == "1.0.0" || t.schema_version == "1.1.0";
  if (root.has("timing")) {
    t.timing = read_timing(root.child("timing"));
  } else if (!before_1_2 && !transcribed) {
    root.fail("timing", "missing (a measured " + std::string(kTranscriptSchemaVersion) +
                            " transcript records how it sampled)");
  } else if (!transcribed) {
    migrate_timing(t);
  }
  if (root.has("profile")) {
    t.profile = read_profile(root.child("profile"));
  }
  if (root.has("timeline")) {  // 1.5.0
    t.timeline = read_timeline(root.child("timeline"));
  }
  if (root.has("roofline")) {  // 1.7.0
    const Reader roofline = root.child("roofline");
    t.roofline =
        RooflineRecord{roofline.texts("memory_ceiling_cases"), roofline.text("compute_ceiling_case")};
  }
  if (!schema_version_at_least(t.schema_version, "1.6.0")) {
    migrate_rounds(t);
  } else if (t.timing) {
    for (std::size_t r = 0; r < t.timing->round_orders.size(); ++r) {
      for (std::size_t i = 0; i < t.timing->round_orders[r].size(); ++i) {
        if (t.timing->round_orders[r][i] >= t.cases.size()) {
          root.fail("timing/round_orders/" + std::to_string(r) + "/" + std::to_string(i),
                    "a case index beyond the transcript's " + std::to_string(t.cases.size()) + " cases");
        }
      }
    }
  }
  if (t.timing && !schema_version_at_least(t.schema_version, "1.8.0")) {
    migrate_contexts(*t.timing);
  }
  return t;
}

namespace {

// `value` as JSON text indented by two spaces a level, as nlohmann's dump(2) writes it, except that an
// array of numbers (and nulls) is written on one line: a transcript's samples and clocks are most of
// its text, and one per line spent about as much on indentation as on digits (1.8.0).
void write_indented(const Json& value, std::size_t depth, std::string& out) {
  constexpr std::size_t kIndent = 2;
  const bool object = value.is_object();
  if (!object && !value.is_array()) {
    out += value.dump();
    return;
  }
  if (value.empty()) {
    out += object ? "{}" : "[]";
    return;
  }
  const bool flat = !object && std::all_of(value.begin(), value.end(), [](const Json& item) {
    return item.is_number() || item.is_null();
  });
  if (flat) {
    out += '[';
    for (auto item = value.begin(); item != value.end(); ++item) {
      out += (item == value.begin() ? "" : ", ") + item->dump();
    }
    out += ']';
    return;
  }
  out += object ? "{\n" : "[\n";
  for (auto item = value.begin(); item != value.end(); ++item) {
    if (item != value.begin()) {
      out += ",\n";
    }
    out.append((depth + 1) * kIndent, ' ');
    if (object) {
      out += Json(item.key()).dump() + ": ";
    }
    write_indented(item.value(), depth + 1, out);
  }
  out += '\n';
  out.append(depth * kIndent, ' ');
  out += object ? '}' : ']';
}

}  // namespace

std::string transcript_to_text(const Transcript& transcript) {
  std::string text;
  write_indented(transcript_to_json(transcript), 0, text);
  return text + "\n";
}

Transcript transcript_from_text(const std::string& text) {
  Json document;
  try {
    document = parse_ordered_json(text);
  } catch (const nlohmann::json::exception& error) {
    // parse_error, or out_of_range for a number beyond a double (1e400).
    throw TranscriptFormatError(std::string("malformed JSON: ") + error.what());
  }
  return transcript_from_json(document);
}

}  // namespace labrun
