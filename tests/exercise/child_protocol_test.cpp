#include "exercise/child_protocol.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

#include "exercise/chain_pair_exercise.hpp"
#include "exercise/grader.hpp"

using Catch::Matchers::ContainsSubstring;
// Names, not the namespace: this file shares a unity file with others, which name their own types.
using labrun::ChainIntermediateInspection;
using labrun::ChainPairRecord;
using labrun::child_results_from_json;
using labrun::ChildRequest;
using labrun::ChildResults;
using labrun::kRacecheckTimedElementsMax;
using labrun::request_from_json;
using labrun::sanitize_timed_elements;
using labrun::TimingResult;
using labrun::to_json;

TEST_CASE("a request survives its JSON, launch shapes, lab times and the image's globals included") {
  ChildRequest request;
  request.lab = "day48-fusion";
  request.exercise = "halfway-pair";
  request.seed = 123456789012345ull;
  request.card_elements = 134217728;
  request.shapes = {{128, 4, false}, {512, 1, true}, {32, 1, false, 8, 4, true}};
  request.lab_times = labrun::LabTimes{134217728, {{"staged_ms", 1.5}, {"fused_ms", 0.5}}};
  request.image_globals = {{"squares", 4096}};
  request.sanitize_timed_elements = 1048576;
  const ChildRequest back = request_from_json(to_json(request));
  CHECK(back.exercise == "halfway-pair");
  CHECK(back.seed == request.seed);
  CHECK(back.card_elements == 134217728);
  REQUIRE(back.shapes.size() == 3);
  CHECK(back.shapes[2] == request.shapes[2]);
  CHECK(back.shapes[0] == request.shapes[0]);
  CHECK(back.shapes[1].grid_stride);
  CHECK(back.lab_times->at("fused_ms") == 0.5);
  CHECK(back.lab_times->medians.front().first == "staged_ms");
  CHECK(back.image_globals.front().bytes == 4096);
  CHECK(back.sanitize_timed_elements == 1048576);
  auto bad = to_json(request);
  bad["sanitize_timed_elements"] = request.card_elements + 1;  // past the buffers a grading allocates
  CHECK_THROWS_WITH(request_from_json(bad), ContainsSubstring("/sanitize_timed_elements"));
  bad = to_json(request);
  bad["mode"] = "host-code";
  CHECK_THROWS_WITH(request_from_json(bad), ContainsSubstring("/mode"));
  bad = to_json(request);
  bad.erase("seed");
  CHECK_THROWS_WITH(request_from_json(bad), ContainsSubstring("not a grading request"));
}

TEST_CASE("each sanitizer tool replicates a timed call at the timed calls' size, racecheck at 2^20 at most") {
  CHECK(sanitize_timed_elements("memcheck", 134217728) == 134217728);
  CHECK(sanitize_timed_elements("synccheck", 134217728) == 134217728);
  CHECK(sanitize_timed_elements("racecheck", 134217728) == kRacecheckTimedElementsMax);
  CHECK(sanitize_timed_elements("racecheck", 65536) == 65536);  // a small card's size is kept
  CHECK(sanitize_timed_elements("racecheck", 0) == 0);          // no timed calls: no replica
}

TEST_CASE("results survive their JSON, an exercise's probe records and NaN values included") {
  ChildResults results;
  results.device = "NVIDIA H200";
  results.completed = true;
  results.kernels = {{"halfway_stages_1_2", true, {8, 8, 8}, 16, 0, 1024, "4099 blocks of 256 threads"}};
  const labrun::ChainPairNames names{"x", "intermediate", "residual", "y"};
  ChainPairRecord probe;
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
  probe.intermediate = ChainIntermediateInspection{1, 2};
  probe.guards.output = 4;
  probe.staged_buffers_written = {"t2"};
  results.probes = {labrun::to_json(probe, names)};
  TimingResult timing;
  timing.elements = 134217728;
  timing.pair_samples_ms = {0.9, 0.91};
  timing.pair_ms = 0.905;
  timing.lab = labrun::LabTimes{134217728, {{"lab_halfway_ms", 0.9}}};
  results.timing = timing;
  const labrun::RecordChecks day48_records{[&names](const nlohmann::ordered_json& p) {
                                             static_cast<void>(labrun::chain_pair_record_from_json(p, names));
                                           },
                                           {}};
  const ChildResults back = child_results_from_json(to_json(results), day48_records);
  REQUIRE(back.probes.size() == 1);
  const ChainPairRecord read = labrun::chain_pair_record_from_json(back.probes.front(), names);
  CHECK(std::isnan(*read.output.first_bad_got));
  CHECK(read.output.compositions.front().matching == 3);
  CHECK(read.intermediate->mismatches == 2);
  CHECK(read.guards.output == 4);
  CHECK(back.probes.front().at("guards").at("y") == 4);
  CHECK(back.timing->pair_samples_ms.size() == 2);
  CHECK(back.timing->lab.at("lab_halfway_ms") == 0.9);
  CHECK(back.kernels.front().launch == "4099 blocks of 256 threads");
  CHECK_THROWS_WITH(child_results_from_json(nlohmann::ordered_json::object()),
                    ContainsSubstring("not a grading child's results"));
  // A probe the exercise cannot read makes the results unreadable, as a field missing would.
  nlohmann::ordered_json broken = to_json(results);
  broken["probes"][0].erase("guards");
  CHECK_THROWS_WITH(child_results_from_json(broken, day48_records),
                    ContainsSubstring("not a grading child's results"));
}
