#include "grading/child_results.hpp"

#include <stdexcept>

namespace day48::grading {
namespace {

using Json = nlohmann::ordered_json;

Json check_to_json(const labrun::CorrectnessCheck& c) {
  const auto optional = [](const auto& value) { return value ? Json(*value) : Json(nullptr); };
  return Json{{"version", c.version},
              {"elements", c.elements},
              {"passed", c.passed},
              {"mismatches", c.mismatches},
              {"max_abs_error", c.max_abs_error},
              {"relative_l2_error", c.relative_l2_error},
              {"tolerance", c.tolerance},
              {"first_bad_index", optional(c.first_bad_index)},
              // NaN is the usual first bad value (a poisoned element): kept as text.
              {"first_bad_got", c.first_bad_got ? Json(std::to_string(*c.first_bad_got)) : Json(nullptr)},
              {"first_bad_expected", optional(c.first_bad_expected)}};
}

labrun::CorrectnessCheck check_from_json(const Json& j) {
  labrun::CorrectnessCheck c;
  c.version = j.at("version").get<std::string>();
  c.elements = j.at("elements").get<std::uint64_t>();
  c.passed = j.at("passed").get<bool>();
  c.mismatches = j.at("mismatches").get<std::uint64_t>();
  c.max_abs_error = j.at("max_abs_error").get<double>();
  c.relative_l2_error = j.at("relative_l2_error").get<double>();
  c.tolerance = j.at("tolerance").get<std::string>();
  if (!j.at("first_bad_index").is_null()) {
    c.first_bad_index = j.at("first_bad_index").get<std::uint64_t>();
    c.first_bad_got = std::stod(j.at("first_bad_got").get<std::string>());
    c.first_bad_expected = j.at("first_bad_expected").get<double>();
  }
  return c;
}

}  // namespace

Json to_json(const ChildResults& results) {
  Json sizes = Json::array();
  for (const SizeResult& s : results.sizes) {
    Json compositions = Json::object();
    for (const CompositionMatch& m : s.compositions) {
      compositions[m.composition] = m.matching;
    }
    Json size{{"label", s.label},
              {"elements", s.elements},
              {"check", check_to_json(s.check)},
              {"compositions", compositions},
              {"composition_elements", s.composition_elements},
              {"unwritten", s.unwritten},
              {"trailing_unwritten", s.trailing_unwritten},
              {"computed_non_finite", s.computed_non_finite},
              {"guards_around_output_intact", s.guards_around_output_intact},
              {"guards_around_intermediate_intact", s.guards_around_intermediate_intact},
              {"inputs_unchanged", s.inputs_unchanged},
              {"isolated_check", s.isolated_check ? check_to_json(*s.isolated_check) : Json(nullptr)},
              {"staged_buffers_written", s.staged_buffers_written}};
    sizes.push_back(size);
  }
  Json timing = nullptr;
  if (results.timing) {
    const TimingResult& t = *results.timing;
    timing = Json{{"elements", t.elements},
                  {"submission_ms", t.submission_ms},
                  {"staged_ms", t.staged_ms},
                  {"fused_ms", t.fused_ms},
                  {"reference_halfway_ms", t.reference_halfway_ms},
                  {"copy_ms", t.copy_ms},
                  {"submission_samples_ms", t.submission_samples_ms}};
  }
  return Json{{"device", results.device}, {"seed", results.seed}, {"completed", results.completed},
              {"error", results.error},   {"sizes", sizes},       {"timing", timing}};
}

ChildResults child_results_from_json(const Json& document) {
  try {
    ChildResults results;
    results.device = document.at("device").get<std::string>();
    results.seed = document.at("seed").get<std::uint64_t>();
    results.completed = document.at("completed").get<bool>();
    results.error = document.at("error").get<std::string>();
    for (const Json& s : document.at("sizes")) {
      SizeResult size;
      size.label = s.at("label").get<std::string>();
      size.elements = s.at("elements").get<std::uint64_t>();
      size.check = check_from_json(s.at("check"));
      for (const auto& item : s.at("compositions").items()) {
        size.compositions.push_back({item.key(), item.value().get<std::uint64_t>()});
      }
      size.composition_elements = s.at("composition_elements").get<std::uint64_t>();
      size.unwritten = s.at("unwritten").get<std::uint64_t>();
      size.trailing_unwritten = s.at("trailing_unwritten").get<std::uint64_t>();
      size.computed_non_finite = s.at("computed_non_finite").get<std::uint64_t>();
      size.guards_around_output_intact = s.at("guards_around_output_intact").get<bool>();
      size.guards_around_intermediate_intact = s.at("guards_around_intermediate_intact").get<bool>();
      size.inputs_unchanged = s.at("inputs_unchanged").get<bool>();
      if (!s.at("isolated_check").is_null()) {
        size.isolated_check = check_from_json(s.at("isolated_check"));
      }
      size.staged_buffers_written = s.at("staged_buffers_written").get<std::vector<std::string>>();
      results.sizes.push_back(size);
    }
    if (!document.at("timing").is_null()) {
      const Json& t = document.at("timing");
      TimingResult timing;
      timing.elements = t.at("elements").get<std::uint64_t>();
      timing.submission_ms = t.at("submission_ms").get<double>();
      timing.staged_ms = t.at("staged_ms").get<double>();
      timing.fused_ms = t.at("fused_ms").get<double>();
      timing.reference_halfway_ms = t.at("reference_halfway_ms").get<double>();
      timing.copy_ms = t.at("copy_ms").get<double>();
      timing.submission_samples_ms = t.at("submission_samples_ms").get<std::vector<double>>();
      results.timing = timing;
    }
    return results;
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(std::string("the grading child's report is malformed: ") + error.what());
  }
}

}  // namespace day48::grading
