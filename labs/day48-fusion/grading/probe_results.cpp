#include "grading/probe_results.hpp"

#include "exercise/child_protocol.hpp"

namespace day48::grading {
namespace {

using Json = nlohmann::ordered_json;
using labrun::any_double;
using labrun::any_double_from;

template <typename T>
Json optional_to_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json guards_to_json(const GuardChanges& g) {
  return Json{{"y", g.y}, {"intermediate", g.intermediate}, {"x", g.x}, {"residual", g.residual}};
}

GuardChanges guards_from_json(const Json& j) {
  return GuardChanges{j.at("y").get<std::uint64_t>(), j.at("intermediate").get<std::uint64_t>(),
                      j.at("x").get<std::uint64_t>(), j.at("residual").get<std::uint64_t>()};
}

}  // namespace

Json to_json(const OutputInspection& o) {
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

Json to_json(const ProbeResult& p) {
  return Json{{"size_label", p.size_label},
              {"probe", p.probe},
              {"elements", p.elements},
              {"call", p.call},
              {"output", to_json(p.output)},
              {"intermediate", p.intermediate ? Json{{"unwritten", p.intermediate->unwritten},
                                                     {"mismatches", p.intermediate->mismatches}}
                                              : Json(nullptr)},
              {"guards", guards_to_json(p.guards)},
              {"input_elements_changed", p.input_elements_changed},
              {"staged_buffers_written", p.staged_buffers_written},
              {"matches_chain_of_x", p.matches_chain_of_x},
              {"launches_writing_outside", p.launches_writing_outside}};
}

ProbeResult probe_from_json(const Json& p) {
  ProbeResult probe;
  probe.size_label = p.at("size_label").get<std::string>();
  probe.probe = p.at("probe").get<std::string>();
  probe.elements = p.at("elements").get<std::uint64_t>();
  probe.call = p.at("call").get<int>();
  probe.output = output_from_json(p.at("output"));
  if (!p.at("intermediate").is_null()) {
    probe.intermediate = IntermediateInspection{p.at("intermediate").at("unwritten").get<std::uint64_t>(),
                                                p.at("intermediate").at("mismatches").get<std::uint64_t>()};
  }
  probe.guards = guards_from_json(p.at("guards"));
  probe.input_elements_changed = p.at("input_elements_changed").get<std::uint64_t>();
  probe.staged_buffers_written = p.at("staged_buffers_written").get<std::vector<std::string>>();
  probe.matches_chain_of_x = p.at("matches_chain_of_x").get<std::uint64_t>();
  probe.launches_writing_outside = p.at("launches_writing_outside").get<std::uint64_t>();
  return probe;
}

}  // namespace day48::grading
