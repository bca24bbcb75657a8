#include "exercise/child_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace labrun {

// As evidence/transcript_json.hpp declares it (a unity build may put both in one file, where an
// alias of the anonymous namespace would be shadowed by it).
using Json = nlohmann::ordered_json;

namespace {

// A 2-D shape as the manifest gives it: [x, y] pairs.
Json shape_to_json(const LaunchShape& shape) {
  if (shape.two_d) {
    return Json{{"threads_per_block", {shape.threads_per_block, shape.threads_y}},
                {"elements_per_thread", {shape.elements_per_thread, shape.elements_y}}};
  }
  Json j{{"threads_per_block", shape.threads_per_block}};
  if (shape.grid_stride) {
    j["grid_stride"] = true;
  } else {
    j["elements_per_thread"] = shape.elements_per_thread;
  }
  return j;
}

LaunchShape shape_from_json(const Json& j) {
  LaunchShape shape;
  if (j.at("threads_per_block").is_array()) {
    shape.two_d = true;
    shape.threads_per_block = j.at("threads_per_block").at(0).get<int>();
    shape.threads_y = j.at("threads_per_block").at(1).get<int>();
    shape.elements_per_thread = j.at("elements_per_thread").at(0).get<int>();
    shape.elements_y = j.at("elements_per_thread").at(1).get<int>();
    return shape;
  }
  shape.threads_per_block = j.at("threads_per_block").get<int>();
  shape.grid_stride = j.contains("grid_stride") && j.at("grid_stride").get<bool>();
  if (!shape.grid_stride) {
    shape.elements_per_thread = j.at("elements_per_thread").get<int>();
  }
  return shape;
}

}  // namespace

Json any_double(double value) {
  return std::isfinite(value) ? Json(value) : Json(std::to_string(value));
}

double any_double_from(const Json& j) {
  return j.is_string() ? std::stod(j.get<std::string>()) : j.get<double>();
}

double LabTimes::at(const std::string& key) const {
  for (const auto& [name, ms] : medians) {
    if (name == key) {
      return ms;
    }
  }
  throw std::out_of_range("the lab's times hold no " + key);
}

Json to_json(const LabTimes& t) {
  Json j{{"elements", t.elements}};
  for (const auto& [key, ms] : t.medians) {
    j[key] = ms;
  }
  return j;
}

LabTimes lab_times_from_json(const Json& j) {
  LabTimes t;
  t.elements = j.at("elements").get<std::uint64_t>();
  for (const auto& item : j.items()) {
    if (item.key() != "elements") {
      t.medians.emplace_back(item.key(), item.value().get<double>());
    }
  }
  return t;
}

Json to_json(const ChildRequest& r) {
  Json shapes = Json::array();
  for (const LaunchShape& shape : r.shapes) {
    shapes.push_back(shape_to_json(shape));
  }
  Json globals = Json::array();
  for (const ImageGlobal& global : r.image_globals) {
    globals.push_back(Json{{"name", global.name}, {"bytes", global.bytes}});
  }
  return Json{{"lab", r.lab},
              {"exercise", r.exercise},
              {"mode", r.mode},
              {"image", r.image},
              {"results", r.results},
              {"phase", r.phase},
              {"seed", r.seed},
              {"odd_elements", r.odd_elements},
              {"card_elements", r.card_elements},
              {"sanitize_elements", r.sanitize_elements},
              {"sanitize_timed_elements", r.sanitize_timed_elements},
              {"shapes", shapes},
              {"kernel_time_limit_s", r.kernel_time_limit_s},
              {"timing_limit_s", r.timing_limit_s},
              {"timing_samples", r.timing_samples},
              {"wait_for_timing_turn", r.wait_for_timing_turn},
              {"turn_wait_limit_s", r.turn_wait_limit_s},
              {"lab_times", r.lab_times ? to_json(*r.lab_times) : Json(nullptr)},
              {"image_globals", globals}};
}

ChildRequest request_from_json(const Json& j) {
  try {
    ChildRequest r;
    r.lab = j.at("lab").get<std::string>();
    r.exercise = j.at("exercise").get<std::string>();
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
    r.sanitize_timed_elements = j.at("sanitize_timed_elements").get<std::uint64_t>();
    for (const Json& shape : j.at("shapes")) {
      r.shapes.push_back(shape_from_json(shape));
    }
    r.kernel_time_limit_s = j.at("kernel_time_limit_s").get<double>();
    r.timing_limit_s = j.at("timing_limit_s").get<double>();
    r.timing_samples = j.at("timing_samples").get<int>();
    r.wait_for_timing_turn = j.at("wait_for_timing_turn").get<bool>();
    r.turn_wait_limit_s = j.at("turn_wait_limit_s").get<double>();
    if (!j.at("lab_times").is_null()) {
      r.lab_times = lab_times_from_json(j.at("lab_times"));
    }
    for (const Json& global : j.at("image_globals")) {
      r.image_globals.push_back(
          {global.at("name").get<std::string>(), global.at("bytes").get<std::uint64_t>()});
    }
    if (r.odd_elements == 0 || r.sanitize_elements == 0 || r.timing_samples < 1 ||
        r.kernel_time_limit_s <= 0.0) {
      throw std::runtime_error("sizes, samples and the kernel time limit must be positive");
    }
    if (r.sanitize_timed_elements > std::max(r.odd_elements, r.card_elements)) {
      throw std::runtime_error("/sanitize_timed_elements: larger than the buffers a grading allocates");
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
  for (const Json& probe : results.probes) {
    probes.push_back(probe);
  }
  Json timing = nullptr;
  if (results.timing) {
    const TimingResult& t = *results.timing;
    timing = Json{{"elements", t.elements},
                  {"samples", t.samples},
                  {"pair_samples_ms", t.pair_samples_ms},
                  {"pair_ms", t.pair_ms},
                  {"calls_checked", t.calls_checked},
                  {"wrong_samples", t.wrong_samples},
                  {"first_wrong_sample", t.first_wrong_sample ? *t.first_wrong_sample : Json(nullptr)},
                  {"samples_breaking_structure", t.samples_breaking_structure},
                  {"first_broken_sample", t.first_broken_sample ? *t.first_broken_sample : Json(nullptr)},
                  {"guard_words_changed", t.guard_words_changed},
                  {"samples_writing_outside", t.samples_writing_outside},
                  {"samples_changing_inputs", t.samples_changing_inputs},
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

ChildResults child_results_from_json(const Json& j, const RecordChecks& checks) {
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
      if (!p.is_object()) {
        throw std::runtime_error("not a grading child's results: a probe is not an object");
      }
      if (checks.probe) {
        checks.probe(p);
      }
      results.probes.push_back(p);
    }
    if (!j.at("timing").is_null()) {
      const Json& t = j.at("timing");
      TimingResult timing;
      timing.elements = t.at("elements").get<std::uint64_t>();
      timing.samples = t.at("samples").get<int>();
      timing.pair_samples_ms = t.at("pair_samples_ms").get<std::vector<double>>();
      timing.pair_ms = t.at("pair_ms").get<double>();
      timing.calls_checked = t.at("calls_checked").get<std::uint64_t>();
      timing.wrong_samples = t.at("wrong_samples").get<std::uint64_t>();
      timing.samples_breaking_structure = t.at("samples_breaking_structure").get<std::uint64_t>();
      for (const auto& [key, record] : {std::pair{"first_wrong_sample", &timing.first_wrong_sample},
                                        std::pair{"first_broken_sample", &timing.first_broken_sample}}) {
        if (!t.at(key).is_null()) {
          *record = t.at(key);
          if (checks.inspection) {
            checks.inspection(**record);
          }
        }
      }
      timing.guard_words_changed = t.at("guard_words_changed").get<std::uint64_t>();
      timing.samples_writing_outside = t.at("samples_writing_outside").get<std::uint64_t>();
      timing.samples_changing_inputs = t.at("samples_changing_inputs").get<std::uint64_t>();
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

}  // namespace labrun
