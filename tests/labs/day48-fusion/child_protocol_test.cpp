#include "grading/child_protocol.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

using Catch::Matchers::ContainsSubstring;
// Names, not the namespace: this file shares a unity file with others, which name their own types.
using day48::grading::child_results_from_json;
using day48::grading::ChildRequest;
using day48::grading::ChildResults;
using day48::grading::IntermediateInspection;
using day48::grading::ProbeResult;
using day48::grading::request_from_json;
using day48::grading::TimingResult;
using day48::grading::to_json;

TEST_CASE("a request survives its JSON, launch shapes included") {
  ChildRequest request;
  request.seed = 123456789012345ull;
  request.card_elements = 134217728;
  request.first_shape = {128, 4, false};
  request.second_shape = {512, 1, true};
  const ChildRequest back = request_from_json(to_json(request));
  CHECK(back.seed == request.seed);
  CHECK(back.card_elements == 134217728);
  CHECK(back.first_shape == request.first_shape);
  CHECK(back.second_shape.grid_stride);
  auto bad = to_json(request);
  bad["mode"] = "host-code";
  CHECK_THROWS_WITH(request_from_json(bad), ContainsSubstring("/mode"));
  bad = to_json(request);
  bad.erase("seed");
  CHECK_THROWS_WITH(request_from_json(bad), ContainsSubstring("not a grading request"));
}

TEST_CASE("results survive their JSON, NaN values included") {
  ChildResults results;
  results.device = "NVIDIA H200";
  results.completed = true;
  results.kernels = {{"halfway_stages_1_2", true, {8, 8, 8}, 16, 0, 1024, "4099 blocks of 256 threads"}};
  ProbeResult probe;
  probe.size_label = "odd";
  probe.probe = "alone";
  probe.elements = 1049187;
  probe.call = 1;
  probe.output.elements = 1049187;
  probe.output.mismatches = 2;
  probe.output.first_bad_index = 5;
  probe.output.first_bad_got = std::nan("");
  probe.output.first_bad_expected = 0.5;
  probe.output.compositions = {{"gelu-twice", 3}};
  probe.intermediate = IntermediateInspection{1, 2};
  probe.guards.y = 4;
  probe.staged_buffers_written = {"t2"};
  results.probes = {probe};
  TimingResult timing;
  timing.elements = 134217728;
  timing.pair_samples_ms = {0.9, 0.91};
  timing.pair_ms = 0.905;
  results.timing = timing;
  const ChildResults back = child_results_from_json(to_json(results));
  REQUIRE(back.probes.size() == 1);
  CHECK(std::isnan(*back.probes.front().output.first_bad_got));
  CHECK(back.probes.front().output.compositions.front().matching == 3);
  CHECK(back.probes.front().intermediate->mismatches == 2);
  CHECK(back.probes.front().guards.y == 4);
  CHECK(back.timing->pair_samples_ms.size() == 2);
  CHECK(back.kernels.front().launch == "4099 blocks of 256 threads");
  CHECK_THROWS_WITH(child_results_from_json(nlohmann::ordered_json::object()),
                    ContainsSubstring("not a grading child's results"));
}
