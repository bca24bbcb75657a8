#include "grading/child_protocol.hpp"

#include <cmath>
#include <stdexcept>

namespace day48::grading {
namespace {

using Json = nlohmann::ordered_json;

// A double that may be NaN or infinite: a number when finite, else its text ("nan", "inf").
Json any_double(double value) {
  return std::isfinite(value) ? Json(value) : Json(std::to_string(value));
}
double any_double_from(const Json& j) {
  return j.is_string() ? std::stod(j.get<std::string>()) : j.get<double>();
}

template <typename T>
Json optional_to_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json shape_to_json(const labrun::LaunchShape& shape) {
  Json j{{"threads_per_block", shape.threads_per_block}};
  if (shape.grid_stride) {
    j["grid_stride"] = true;
  } else {
    j["elements_per_thread"] = shape.elements_per_thread;
  }
  return j;
}

labrun::LaunchShape shape_from_json(const Json& j) {
  labrun::LaunchShape shape;
  shape.threads_per_block = j.at("threads_per_block").get<int>();
  shape.grid_stride = j.contains("grid_stride") && j.at("grid_stride").get<bool>();
  if (!shape.grid_stride) {
    shape.elements_per_thread = j.at("elements_per_thread").get<int>();
  }
  return shape;
}

Json output_to_json(const OutputInspection& o) {
  Json compositions = Json::object();
  for (const CompositionMatch& m : o.compositions) {
    compositions[m.composition] = m.matching;
  }
  return Json{
      {"elements", o.elements},
      {"mismatches", o.mismatches},
      {"unwritten", o.unwritten},
      {"trailing_unwritten", o.trailing_unwritten},
      {"non_finite", o.non_finite},
      {"max_abs_error", any_double(o.max_abs_error)},
      {"first_bad_index", optional_to_json(o.first_bad_index)},
      {"first_bad_got", o.first_bad_got ? any_double(*o.first_bad_got) : Json(nullptr)},
      {"first_bad_expected", o.first_bad_expected ? any_double(*o.first_bad_expected) : Json(nullptr)},
      {"compositions", compositions}};
}

OutputInspection output_from_json(const Json& j) {
  OutputInspection o;
  o.elements = j.at("elements").get<std::uint64_t>();
  o.mismatches = j.at("mismatches").get<std::uint64_t>();
  o.unwritten = j.at("unwritten").get<std::uint64_t>();
  o.trailing_unwritten = j.at("trailing_unwritten").get<std::uint64_t>();
  o.non_finite = j.at("non_finite").get<std::uint64_t>();
  o.max_abs_error = any_double_from(j.at("max_abs_error"));
  if (!j.at("first_bad_index").is_null()) {
    o.first_bad_index = j.at("first_bad_index").get<std::uint64_t>();
  }
  if (!j.at("first_bad_got").is_null()) {
    o.first_bad_got = any_double_from(j.at("first_bad_got"));
  }
  if (!j.at("first_bad_expected").is_null()) {
    o.first_bad_expected = any_double_from(j.at("first_bad_expected"));
  }
  for (const auto& item : j.at("compositions").items()) {
    o.compositions.push_back({item.key(), item.value().get<std::uint64_t>()});
  }
  return o;
}

Json guards_to_json(const GuardChanges& g) {
  return Json{{"y", g.y}, {"intermediate", g.intermediate}, {"x", g.x}, {"residual", g.residual}};
}

GuardChanges guards_from_json(const Json& j) {
  return GuardChanges{j.at("y").get<std::uint64_t>(), j.at("intermediate").get<std::uint64_t>(),
                      j.at("x").get<std::uint64_t>(), j.at("residual").get<std::uint64_t>()};
}

}  // namespace

Json to_json(const LabTimes& t) {
  return Json{{"elements", t.elements},
              {"staged_ms", t.staged_ms},
              {"fused_ms", t.fused_ms},
              {"lab_halfway_ms", t.lab_halfway_ms},
              {"copy_floor_ms", t.copy_floor_ms},
              {"copy_vectorized_ms", t.copy_vectorized_ms},
              {"copy_memcpy_ms", t.copy_memcpy_ms}};
}

LabTimes lab_times_from_json(const Json& j) {
  LabTimes t;
  t.elements = j.at("elements").get<std::uint64_t>();
  t.staged_ms = j.at("staged_ms").get<double>();
  t.fused_ms = j.at("fused_ms").get<double>();
  t.lab_halfway_ms = j.at("lab_halfway_ms").get<double>();
  t.copy_floor_ms = j.at("copy_floor_ms").get<double>();
  t.copy_vectorized_ms = j.at("copy_vectorized_ms").get<double>();
  t.copy_memcpy_ms = j.at("copy_memcpy_ms").get<double>();
  return t;
}

Json to_json(const ChildRequest& r) {
  return Json{{"mode", r.mode},
              {"image", r.image},
              {"results", r.results},
              {"phase", r.phase},
              {"seed", r.seed},
              {"odd_elements", r.odd_elements},
              {"card_elements", r.card_elements},
              {"sanitize_elements", r.sanitize_elements},
              {"first_shape", shape_to_json(r.first_shape)},
              {"second_shape", shape_to_json(r.second_shape)},
              {"kernel_time_limit_s", r.kernel_time_limit_s},
              {"timing_limit_s", r.timing_limit_s},
              {"timing_samples", r.timing_samples},
              {"wait_for_timing_turn", r.wait_for_timing_turn},
              {"turn_wait_limit_s", r.turn_wait_limit_s},
              {"lab_times", r.lab_times ? to_json(*r.lab_times) : Json(nullptr)}};
}

ChildRequest request_from_json(const Json& j) {
  try {
    ChildRequest r;
    r.mode = j.at("mode").get<std::string>();
    if (r.mode != "grade" && r.mode != "sanitize" && r.mode != "lab-times") {
      throw std::runtime_error("/mode: expected grade, sanitize or lab-times");
    }
    r.image = j.at("image").get<std::string>();
    r.results = j.at("results").get<std::string>();
    r.phase = j.at("phase").get<std::string>();
    r.seed = j.at("seed").get<std::uint64_t>();
    r.odd_elements = j.at("odd_elements").get<std::uint64_t>();
    r.card_elements = j.at("card_elements").get<std::uint64_t>();
    r.sanitize_elements = j.at("sanitize_elements").get<std::uint64_t>();
    r.first_shape = shape_from_json(j.at("first_shape"));
    r.second_shape = shape_from_json(j.at("second_shape"));
    r.kernel_time_limit_s = j.at("kernel_time_limit_s").get<double>();
    r.timing_limit_s = j.at("timing_limit_s").get<double>();
    r.timing_samples = j.at("timing_samples").get<int>();
    r.wait_for_timing_turn = j.at("wait_for_timing_turn").get<bool>();
    r.turn_wait_limit_s = j.at("turn_wait_limit_s").get<double>();
    if (!j.at("lab_times").is_null()) {
      r.lab_times = lab_times_from_json(j.at("lab_times"));
    }
    if (r.odd_elements == 0 || r.sanitize_elements == 0 || r.timing_samples < 1 ||
        r.kernel_time_limit_s <= 0.0) {
      throw std::runtime_error("sizes, samples and the kernel time limit must be positive");
    }
    return r;
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(std::string("not a grading request: ") + error.what());
  }
}

Json to_json(const ChildResults& results) {
  Json kernels = Json::array();
  for (const KernelInfo& k : results.kernels) {
    kernels.push_back(Json{{"name", k.name},
                           {"found", k.found},
                           {"parameter_bytes", k.parameter_bytes},
                           {"registers", k.registers},
                           {"local_bytes", k.local_bytes},
                           {"max_threads_per_block", k.max_threads_per_block},
                           {"launch", k.launch}});
  }
  Json probes = Json::array();
  for (const ProbeResult& p : results.probes) {
    Json probe{{"size_label", p.size_label},
               {"probe", p.probe},
               {"elements", p.elements},
               {"call", p.call},
               {"output", output_to_json(p.output)},
               {"intermediate", p.intermediate ? Json{{"unwritten", p.intermediate->unwritten},
                                                      {"mismatches", p.intermediate->mismatches}}
                                               : Json(nullptr)},
               {"guards", guards_to_json(p.guards)},
               {"input_elements_changed", p.input_elements_changed},
               {"staged_buffers_written", p.staged_buffers_written},
               {"matches_chain_of_x", p.matches_chain_of_x},
               {"launches_writing_outside", p.launches_writing_outside}};
    probes.push_back(probe);
  }
  Json timing = nullptr;
  if (results.timing) {
    const TimingResult& t = *results.timing;
    timing = Json{
        {"elements", t.elements},
        {"samples", t.samples},
        {"pair_samples_ms", t.pair_samples_ms},
        {"pair_ms", t.pair_ms},
        {"wrong_samples", t.wrong_samples},
        {"first_wrong_sample", t.first_wrong_sample ? output_to_json(*t.first_wrong_sample) : Json(nullptr)},
        {"guard_words_changed", t.guard_words_changed},
        {"samples_writing_outside", t.samples_writing_outside},
        {"lab", to_json(t.lab)},
        {"lab_times_shared", t.lab_times_shared}};
  }
  return Json{{"device", results.device},
              {"device_uuid", results.device_uuid},
              {"pageable_memory_access", results.pageable_memory_access},
              {"completed", results.completed},
              {"error_kind", results.error_kind},
              {"error", results.error},
              {"failed_step", results.failed_step},
              {"kernels_found", results.kernels_found},
              {"kernels", kernels},
              {"probes", probes},
              {"timing", timing}};
}

ChildResults child_results_from_json(const Json& j) {
  try {
    ChildResults results;
    results.device = j.at("device").get<std::string>();
    results.device_uuid = j.at("device_uuid").get<std::string>();
    results.pageable_memory_access = j.at("pageable_memory_access").get<bool>();
    results.completed = j.at("completed").get<bool>();
    results.error_kind = j.at("error_kind").get<std::string>();
    results.error = j.at("error").get<std::string>();
    results.failed_step = j.at("failed_step").get<std::string>();
    results.kernels_found = j.at("kernels_found").get<std::vector<std::string>>();
    for (const Json& k : j.at("kernels")) {
      KernelInfo info;
      info.name = k.at("name").get<std::string>();
      info.found = k.at("found").get<bool>();
      info.parameter_bytes = k.at("parameter_bytes").get<std::vector<std::uint64_t>>();
      info.registers = k.at("registers").get<int>();
      info.local_bytes = k.at("local_bytes").get<std::uint64_t>();
      info.max_threads_per_block = k.at("max_threads_per_block").get<int>();
      info.launch = k.at("launch").get<std::string>();
      results.kernels.push_back(info);
    }
    for (const Json& p : j.at("probes")) {
      ProbeResult probe;
      probe.size_label = p.at("size_label").get<std::string>();
      probe.probe = p.at("probe").get<std::string>();
      probe.elements = p.at("elements").get<std::uint64_t>();
      probe.call = p.at("call").get<int>();
      probe.output = output_from_json(p.at("output"));
      if (!p.at("intermediate").is_null()) {
        probe.intermediate =
            IntermediateInspection{p.at("intermediate").at("unwritten").get<std::uint64_t>(),
                                   p.at("intermediate").at("mismatches").get<std::uint64_t>()};
      }
      probe.guards = guards_from_json(p.at("guards"));
      probe.input_elements_changed = p.at("input_elements_changed").get<std::uint64_t>();
      probe.staged_buffers_written = p.at("staged_buffers_written").get<std::vector<std::string>>();
      probe.matches_chain_of_x = p.at("matches_chain_of_x").get<std::uint64_t>();
      probe.launches_writing_outside = p.at("launches_writing_outside").get<std::uint64_t>();
      results.probes.push_back(probe);
    }
    if (!j.at("timing").is_null()) {
      const Json& t = j.at("timing");
      TimingResult timing;
      timing.elements = t.at("elements").get<std::uint64_t>();
      timing.samples = t.at("samples").get<int>();
      timing.pair_samples_ms = t.at("pair_samples_ms").get<std::vector<double>>();
      timing.pair_ms = t.at("pair_ms").get<double>();
      timing.wrong_samples = t.at("wrong_samples").get<std::uint64_t>();
      if (!t.at("first_wrong_sample").is_null()) {
        timing.first_wrong_sample = output_from_json(t.at("first_wrong_sample"));
      }
      timing.guard_words_changed = t.at("guard_words_changed").get<std::uint64_t>();
      timing.samples_writing_outside = t.at("samples_writing_outside").get<std::uint64_t>();
      timing.lab = lab_times_from_json(t.at("lab"));
      timing.lab_times_shared = t.at("lab_times_shared").get<bool>();
      results.timing = timing;
    }
    return results;
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(std::string("not a grading child's results: ") + error.what());
  } catch (const std::logic_error& error) {  // std::stod's invalid_argument and out_of_range
    throw std::runtime_error(std::string("not a grading child's results: ") + error.what());
  }
}

}  // namespace day48::grading
