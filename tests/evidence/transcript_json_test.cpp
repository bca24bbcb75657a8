#include "evidence/transcript_json.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "core/rounds.hpp"
#include "support/sample_transcript.hpp"

using Catch::Matchers::ContainsSubstring;
using labrun::Json;
using labrun::TranscriptFormatError;

TEST_CASE("a transcript survives a round trip through its JSON text unchanged") {
  const labrun::Transcript original = labrun::testing::sample_day48_transcript();
  const std::string text = labrun::transcript_to_text(original);
  const labrun::Transcript back = labrun::transcript_from_text(text);
  CHECK(labrun::transcript_to_text(back) == text);

  CHECK(back.schema_version == labrun::kTranscriptSchemaVersion);
  REQUIRE(back.cases.size() == original.cases.size());
  CHECK(back.cases[1].samples_ms == original.cases[1].samples_ms);
  CHECK(back.cases[0].launches_per_sample == 1000);
  REQUIRE(back.stability.has_value());
  CHECK(back.stability->second_samples_ms == original.stability->second_samples_ms);
  const labrun::Fact* uuid = back.group("device")->find("uuid");
  REQUIRE(uuid != nullptr);
  CHECK_FALSE(uuid->is_known());
  CHECK(uuid->unknown_reason == "not readable in this test");
  CHECK(std::get<std::int64_t>(*back.group("device")->find("sm_count")->value) == 132);
  CHECK(std::get<bool>(*back.group("device")->find("ecc_enabled")->value));
  // A poisoned (NaN) value survives as NaN.
  CHECK(std::isnan(*back.correctness[1].first_bad_got));
  CHECK_FALSE(back.sizes[1].elements.has_value());
  CHECK(back.sizes[1].unknown_reason == "smoke configuration");
}

TEST_CASE("the JSON carries every raw sample and the schema version") {
  const Json document = labrun::transcript_to_json(labrun::testing::sample_day48_transcript());
  CHECK(document["schema_version"] == labrun::kTranscriptSchemaVersion);
  CHECK(document["provenance"]["kind"] == "synthetic");
  CHECK(document["provenance"]["note"] == "built by tests/support/sample_transcript.cpp; never measured");
  CHECK(document["cases"][1]["samples_ms"].size() == 3);
  CHECK(document["environment"]["device"]["uuid"]["unknown"] == "not readable in this test");
  CHECK(document["correctness"]["checks"][1]["first_bad_got"] == "nan");
}

namespace {

std::string error_of(const Json& document) {
  try {
    static_cast<void>(labrun::transcript_from_json(document));
  } catch (const TranscriptFormatError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("bad transcripts are refused with the JSON pointer of the problem") {
  const Json good = labrun::transcript_to_json(labrun::testing::sample_day48_transcript());

  Json missing = good;
  missing["run"].erase("seed");
  CHECK_THAT(error_of(missing), ContainsSubstring("/run/seed: missing"));

  Json mistyped = good;
  mistyped["cases"][2]["samples_ms"][1] = "fast";
  CHECK_THAT(error_of(mistyped), ContainsSubstring("/cases/2/samples_ms/1: expected a number"));

  Json version = good;
  version["schema_version"] = "2.0.0";
  CHECK_THAT(error_of(version), ContainsSubstring("/schema_version: unknown schema version '2.0.0'"));

  Json fact = good;
  fact["environment"]["device"]["name"] = Json{{"guess", "H200"}};
  CHECK_THAT(error_of(fact), ContainsSubstring("/environment/device/name"));

  Json no_stability = good;
  no_stability.erase("stability");
  CHECK_THAT(error_of(no_stability), ContainsSubstring("/stability: missing"));

  CHECK_THROWS_AS(labrun::transcript_from_text("{\"schema_version\": "), TranscriptFormatError);
  CHECK_THROWS_WITH(labrun::transcript_from_text("[1, 2"), ContainsSubstring("malformed JSON"));
}

namespace {

// The sample transcript with its part-2 chains measured in three rounds, their prediction measured,
// a claim judged over the rounds, and the run's round orders and precision settings.
labrun::Transcript rounds_sample() {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  for (labrun::CaseResult& c : t.cases) {
    if (c.name == "day48-fusion/part2/staged-chain" || c.name == "day48-fusion/part2/fused-chain") {
      const double m = c.summary.median;
      labrun::CaseResult measured = labrun::testing::make_rounds_case(
          c.name, c.part, c.size_label, c.elements, c.model, {{m}, {m * 1.01}, {m * 0.99}});
      measured.attributes = c.attributes;
      c = measured;
    }
  }
  for (labrun::PredictionRecord& p : t.predictions) {
    p.measured = labrun::measure_prediction(t, p);
  }
  t.claims.front().measured_interval = labrun::Interval{2.9, 3.1};
  t.claims.front().bound_low = 2.7;
  t.claims.front().bound_high = 3.3;
  t.claims.front().verdict_basis = "interval";
  t.claims.front().verdict = labrun::Verdict::kInconclusive;
  t.timing->rounds = 3;
  t.timing->round_orders.clear();
  for (int r = 0; r < 3; ++r) {
    t.timing->round_orders.push_back(labrun::round_order(t.cases.size(), r, 3, t.seed));
  }
  t.timing->host_cpu = 2;
  t.timing->small_case_batch = 8;
  t.timing->clock_lock = "off";
  return t;
}

}  // namespace

TEST_CASE("rounds, intervals, bounds and the precision settings survive a round trip (1.6.0)") {
  const labrun::Transcript original = rounds_sample();
  const std::string text = labrun::transcript_to_text(original);
  const labrun::Transcript back = labrun::transcript_from_text(text);
  CHECK(labrun::transcript_to_text(back) == text);
  CHECK(back.rounds_recorded);
  const labrun::CaseResult* staged = back.find_case("day48-fusion/part2/staged-chain");
  REQUIRE(staged != nullptr);
  REQUIRE(staged->rounds.size() == 3);
  CHECK(staged->rounds[1].samples == 1);
  REQUIRE(staged->median_interval_ms.has_value());
  CHECK(staged->median_interval_ms->low < staged->summary.median);
  REQUIRE_FALSE(back.predictions.front().measured.empty());
  CHECK(back.predictions.front().measured.front().interval.has_value());
  const labrun::ClaimResult& claim = back.claims.front();
  CHECK(claim.verdict == labrun::Verdict::kInconclusive);
  CHECK(claim.verdict_basis == "interval");
  CHECK(*claim.bound_high == 3.3);
  CHECK(claim.measured_interval->low == 2.9);
  CHECK(back.timing->round_orders.size() == 3);
  CHECK(*back.timing->host_cpu == 2);
  CHECK(back.timing->small_case_batch == 8);
  // An open end of a bound is null, and reads back open.
  labrun::Transcript open = original;
  open.claims.front().bound_high.reset();
  const labrun::Transcript open_back = labrun::transcript_from_text(labrun::transcript_to_text(open));
  CHECK(*open_back.claims.front().bound_low == 2.7);
  CHECK_FALSE(open_back.claims.front().bound_high.has_value());
}

TEST_CASE("rounds that do not add up to the samples, and a round order beyond the cases, are refused") {
  Json document = labrun::transcript_to_json(rounds_sample());
  Json short_rounds = document;
  for (Json& c : short_rounds["cases"]) {
    if (c["rounds"].size() == 3) {
      c["rounds"][0]["samples"] = 2;
      break;
    }
  }
  CHECK_THAT(error_of(short_rounds), ContainsSubstring("rounds: the rounds hold 4 samples and samples_ms 3"));
  Json negative = document;
  for (Json& c : negative["cases"]) {
    if (c["rounds"].size() == 3) {
      c["rounds"][0]["samples"] = -1;
      c["rounds"][1]["samples"] = 3;
      break;
    }
  }
  CHECK_THAT(error_of(negative), ContainsSubstring("/rounds/0/samples: expected a non-negative integer"));
  Json beyond = document;
  beyond["timing"]["round_orders"][1][0] = 999u;
  CHECK_THAT(error_of(beyond), ContainsSubstring("/timing/round_orders/1/0: a case index beyond"));
}

TEST_CASE("a transcript older than 1.6.0 reads as one round, its verdicts as recorded") {
  const labrun::Transcript t = labrun::transcript_from_text(
      labrun::read_evidence_text(std::filesystem::path(LABRUN_TEST_DATA_DIR) / "evidence" / "golden" /
                                 "day48-fusion-nvidia-h200-1.1.0.json"));
  CHECK_FALSE(t.rounds_recorded);
  CHECK(t.timing->rounds == 1);
  REQUIRE(t.timing->round_orders.size() == 1);
  CHECK(t.timing->round_orders[0].size() == t.cases.size());
  for (const labrun::CaseResult& c : t.cases) {
    REQUIRE(c.rounds.size() == 1);
    CHECK(static_cast<std::size_t>(c.rounds[0].samples) == c.samples_ms.size());
    CHECK_FALSE(c.median_interval_ms.has_value());
  }
  for (const labrun::ClaimResult& c : t.claims) {
    CHECK(c.verdict_basis == "point");
    CHECK_FALSE(c.measured_interval.has_value());
    CHECK(c.verdict != labrun::Verdict::kInconclusive);
  }
  CHECK_FALSE(t.predictions.front().measured.empty());  // computed from the cases, no interval
  CHECK_FALSE(t.predictions.front().measured.front().interval.has_value());
}

TEST_CASE("a case's declared figures survive a round trip, an unknown one with its reason (1.8.0)") {
  const labrun::Transcript original = labrun::testing::sample_day48_transcript();
  const labrun::Transcript back = labrun::transcript_from_text(labrun::transcript_to_text(original));
  const labrun::CaseResult* fused = back.find_case("day48-fusion/part2/fused-chain");
  REQUIRE(fused != nullptr);
  REQUIRE(fused->declared_figures.size() == 2);
  CHECK(fused->declared_figures[0].name == "global loads");
  CHECK(fused->declared_figures[0].unit == "per element");
  CHECK(*fused->declared_figures[0].value == 2.0);
  CHECK(fused->declared_figures[0].source == "counted from the source: x and the residual");
  CHECK_FALSE(fused->declared_figures[1].value.has_value());
  CHECK(fused->declared_figures[1].unknown_reason == "the case has no time");
  CHECK(back.find_case("day48-fusion/part2/copy-floor")->declared_figures.empty());
  // A figure of no value must say why, and a 1.7.0 transcript has none.
  Json document = Json::parse(labrun::transcript_to_text(original));
  for (Json& c : document["cases"]) {
    if (!c["declared_figures"].empty()) {
      c["declared_figures"][1].erase("unknown_reason");
    }
  }
  CHECK_THROWS_WITH(labrun::transcript_from_json(document),
                    ContainsSubstring("declared_figures/1/unknown_reason"));
  const labrun::Transcript older = labrun::transcript_from_text(
      labrun::read_evidence_text(std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence" /
                                 "day20-sobel-threshold" / "nvidia-h200" / "2026-12-02T02-48-10Z.json.gz"));
  CHECK(older.schema_version == "1.7.0");
  for (const labrun::CaseResult& c : older.cases) {
    CHECK(c.declared_figures.empty());
  }
}

TEST_CASE("contexts, each round's context and the launch check survive a round trip (1.8.0)") {
  const labrun::Transcript original = labrun::testing::sample_day48_transcript();
  const std::string text = labrun::transcript_to_text(original);
  const labrun::Transcript back = labrun::transcript_from_text(text);
  CHECK(labrun::transcript_to_text(back) == text);
  CHECK(back.timing->rounds_per_context == 1);
  REQUIRE(back.timing->contexts.size() == 3);
  CHECK(back.timing->contexts[1].create_seconds == 0.25);
  CHECK(back.timing->contexts[2].setup_seconds == 0.03);
  CHECK(back.timing->round_context == original.timing->round_context);
  CHECK(back.timing->launch_check == original.timing->launch_check);
  const labrun::CaseResult* staged = back.find_case("day48-fusion/part2/staged-chain");
  REQUIRE(staged != nullptr);
  CHECK(staged->rounds[2].context == 2);
  const labrun::CaseResult* small = back.find_case("day48-fusion/part3/fused-chain");
  REQUIRE(small->launch_check.has_value());
  CHECK(small->launch_check->gated_samples_ms == std::vector<double>{0.002, 0.002, 0.0021});
  CHECK(small->launch_check->launch_bound);
  CHECK_FALSE(staged->launch_check.has_value());
  // A context index below 0 is refused.
  Json negative = labrun::transcript_to_json(original);
  negative["cases"][1]["rounds"][0]["context"] = -1;
  CHECK_THAT(error_of(negative),
             ContainsSubstring("/cases/1/rounds/0/context: expected a non-negative integer"));
}

TEST_CASE("a process allowance survives a round trip, and a 1.8.0 transcript reads as having none (1.9.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.timing->process_allowance = 1.0;
  const Json with = labrun::transcript_to_json(t);
  CHECK(with["timing"]["process_allowance"] == 1.0);
  CHECK(labrun::transcript_from_json(with).timing->process_allowance == 1.0);
  // Before 1.9.0 no run allowed for a process component: its intervals read as they were computed.
  Json older = with;
  older["schema_version"] = "1.8.0";
  older["timing"].erase("process_allowance");
  CHECK(labrun::transcript_from_json(older).timing->process_allowance == 0.0);
  Json negative = with;
  negative["timing"]["process_allowance"] = -0.5;
  CHECK_THAT(error_of(negative), ContainsSubstring("process_allowance: expected a number of at least 0"));
}

TEST_CASE(
    "a case's figure survives a round trip, and a 1.9.0 transcript reads as its samples' medians (1.10.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  REQUIRE(t.cases[0].has_samples());
  const double pooled = t.cases[0].summary.median;
  t.cases[0].figure_ms = pooled * 1.25;
  const Json with = labrun::transcript_to_json(t);
  CHECK(with["cases"][0]["figure_ms"] == pooled * 1.25);
  CHECK(with["cases"][1]["figure_ms"].is_null());  // none recorded: the figure is the median
  const labrun::Transcript back = labrun::transcript_from_json(with);
  REQUIRE(back.cases[0].figure_ms.has_value());
  CHECK(back.cases[0].central_ms() == pooled * 1.25);
  CHECK_FALSE(back.cases[1].figure_ms.has_value());
  CHECK(back.cases[1].central_ms() == back.cases[1].summary.median);
  // Before 1.10.0 every figure was the median of the case's samples: it reads exactly so.
  Json older = with;
  older["schema_version"] = "1.9.0";
  for (Json& c : older["cases"]) {
    c.erase("figure_ms");
  }
  const labrun::Transcript old = labrun::transcript_from_json(older);
  CHECK_FALSE(old.cases[0].figure_ms.has_value());
  CHECK(old.cases[0].central_ms() == pooled);
  Json zero = with;
  zero["cases"][0]["figure_ms"] = 0.0;
  CHECK_THAT(error_of(zero), ContainsSubstring("/cases/0/figure_ms: expected a positive number"));
}

TEST_CASE(
    "a claim's reading on GPU time alone survives a round trip, and is null where none was made (1.12.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.claims.front().gpu_alone =
      labrun::GpuAloneReading{2.95, labrun::Interval{2.9, 3.02}, labrun::Verdict::kHeld};
  const Json with = labrun::transcript_to_json(t);
  const Json& reading = with["claims"][0]["gpu_alone"];
  CHECK(reading["measured"] == 2.95);
  CHECK(reading["measured_interval"]["low"] == 2.9);
  CHECK(reading["measured_interval"]["high"] == 3.02);
  CHECK(reading["verdict"] == "held");
  const labrun::Transcript back = labrun::transcript_from_json(with);
  REQUIRE(back.claims.front().gpu_alone.has_value());
  CHECK(back.claims.front().gpu_alone->measured == 2.95);
  CHECK(back.claims.front().gpu_alone->measured_interval.high == 3.02);
  CHECK(back.claims.front().gpu_alone->verdict == labrun::Verdict::kHeld);
  CHECK(labrun::transcript_to_json(back) == with);
  // A claim judged on one reading writes null; a transcript before 1.12.0 has no key and reads the same.
  const Json without = labrun::transcript_to_json(labrun::testing::sample_day48_transcript());
  CHECK(without["claims"][0]["gpu_alone"].is_null());
  Json older = without;
  older["schema_version"] = "1.11.0";
  older["claims"][0].erase("gpu_alone");
  CHECK_FALSE(labrun::transcript_from_json(older).claims.front().gpu_alone.has_value());
  Json unknown = with;
  unknown["claims"][0]["gpu_alone"]["verdict"] = "probably";
  CHECK_THAT(error_of(unknown), ContainsSubstring("/claims/0/gpu_alone/verdict"));
  Json no_interval = with;
  no_interval["claims"][0]["gpu_alone"]["measured_interval"] = nullptr;
  CHECK_THAT(error_of(no_interval), ContainsSubstring("/claims/0/gpu_alone/measured_interval"));
}

TEST_CASE("a transcript's text puts every array of numbers on one line, and is otherwise dump(2)'s") {
  const labrun::Transcript t = labrun::testing::sample_day48_transcript();
  const std::string text = labrun::transcript_to_text(t);
  CHECK_THAT(text, ContainsSubstring("\"samples_ms\": [0.45, 0.45, 0.46],"));
  CHECK_THAT(text, ContainsSubstring("\"sample_sm_clock_mhz\": [1980.0, 1700.0, null],"));
  CHECK_THAT(text, ContainsSubstring("\"throttled_samples\": [],"));
  // Arrays of anything else (objects, strings, arrays) are laid out as nlohmann's dump(2) lays them out:
  // the text parses to the same document, and re-indented by dump(2) it is dump(2)'s text.
  const Json document = labrun::transcript_to_json(t);
  CHECK(Json::parse(text) == document);
  CHECK(Json::parse(text).dump(2) == document.dump(2));
  CHECK_THAT(text, ContainsSubstring("    \"round_orders\": [\n      ["));
  CHECK(text.back() == '\n');
}

TEST_CASE("a run of fusion-verdicts' size in samples is written far inside the evidence rule of 2 MB") {
  // Synthetic: 92 cases of 370 samples each (34,000 samples, fusion-verdicts' count at 5 rounds), each
  // at an event's float precision with a clock after it: under 1 MB, where 1.7.0 wrote 2.0 MB.
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  const labrun::CaseResult model = t.cases[1];
  t.cases.clear();
  for (int c = 0; c < 92; ++c) {
    std::vector<std::vector<double>> rounds(5);
    for (int s = 0; s < 370; ++s) {
      const float event_ms = 0.0583f + 0.0000321f * static_cast<float>((s * 7919 + c * 104729) % 1000);
      rounds[static_cast<std::size_t>(s % 5)].push_back(labrun::event_precision_ms(event_ms));
    }
    labrun::CaseResult round_case = labrun::testing::make_rounds_case(
        "day48-fusion/part2/copy-floor", "part2", "lesson", model.elements, model.model, rounds);
    round_case.sample_sm_clock_mhz.assign(round_case.samples_ms.size(), 1977.7);
    t.cases.push_back(round_case);
  }
  const std::string text = labrun::transcript_to_text(t);
  CHECK(text.size() < std::size_t{1} << 20);
  // Every sample reads back as the double it was written from.
  const labrun::Transcript back = labrun::transcript_from_text(text);
  CHECK(back.cases[91].samples_ms == t.cases[91].samples_ms);
}

TEST_CASE("a transcript older than 1.8.0 reads as rounds in one context, each round its own unit") {
  // The sample as a 1.7.0 run wrote it: no contexts, no launch check.
  Json document = labrun::transcript_to_json(labrun::testing::sample_day48_transcript());
  document["schema_version"] = "1.7.0";
  for (const char* key : {"rounds_per_context", "contexts", "round_context", "launch_check"}) {
    document["timing"].erase(key);
  }
  for (Json& c : document["cases"]) {
    c.erase("launch_check");
    for (Json& r : c["rounds"]) {
      r.erase("context");
    }
  }
  const labrun::Transcript t = labrun::transcript_from_json(document);
  CHECK(t.timing->rounds_per_context == 3);
  CHECK(t.timing->contexts.empty());
  CHECK_THAT(t.timing->round_context, ContainsSubstring("predates schema 1.8.0"));
  const labrun::CaseResult* staged = t.find_case("day48-fusion/part2/staged-chain");
  CHECK_FALSE(staged->rounds[0].context.has_value());
  CHECK(labrun::interval_units(*staged).size() == 3);  // its rounds, as its run judged them
  CHECK(staged->median_interval_ms.has_value());
}

TEST_CASE(
    "the small cases' rounds and each case's units survive a round trip; a 1.10.0 transcript reads "
    "with every case at its rounds (1.11.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic
  REQUIRE(t.timing.has_value());
  // Before any is set, every case takes the run's rounds.
  const Json plain = labrun::transcript_to_json(t);
  CHECK(plain["timing"]["small_case_rounds"] == t.timing->rounds);
  CHECK(plain["timing"]["small_case_rounds_max_elements"] == 0);
  CHECK(plain["timing"]["small_case_round_rule"] == plain["timing"]["round_rule"]);
  t.timing->small_case_rounds = 6;
  t.timing->small_case_rounds_max_elements = 65536;
  t.timing->small_case_round_min_samples = 6;
  t.timing->small_case_round_max_samples = 167;
  t.timing->small_case_round_target_relative_median_ci = 0.0122;
  t.timing->small_case_round_case_time_limit_s = 0.0417;
  const Json with = labrun::transcript_to_json(t);
  CHECK(with["timing"]["small_case_rounds"] == 6);
  CHECK(with["timing"]["small_case_round_rule"]["max_samples"] == 167);
  REQUIRE(t.cases[0].has_samples());
  CHECK(with["cases"][0]["units"] == labrun::interval_units(t.cases[0]).size());
  const labrun::Transcript back = labrun::transcript_from_json(with);
  CHECK(back.timing->small_case_rounds == 6);
  CHECK(back.timing->small_case_rounds_max_elements == 65536);
  CHECK(back.timing->small_case_round_max_samples == 167);
  CHECK(back.timing->small_case_round_case_time_limit_s == 0.0417);
  REQUIRE(back.cases[0].units.has_value());
  CHECK(static_cast<std::size_t>(*back.cases[0].units) == labrun::interval_units(t.cases[0]).size());
  // Before 1.11.0 no case took more rounds than the run's: it reads so.
  Json older = with;
  older["schema_version"] = "1.10.0";
  older["timing"].erase("small_case_rounds");
  older["timing"].erase("small_case_rounds_max_elements");
  older["timing"].erase("small_case_round_rule");
  for (Json& c : older["cases"]) {
    c.erase("units");
  }
  const labrun::Transcript old = labrun::transcript_from_json(older);
  CHECK(old.timing->small_case_rounds == 0);
  CHECK(labrun::rounds_for_case(1, *old.timing) == old.timing->rounds);
  CHECK_FALSE(old.cases[0].units.has_value());
  Json fewer = with;
  fewer["timing"]["small_case_rounds"] = 2;  // below the 3 rounds every case takes
  CHECK_THAT(error_of(fewer), ContainsSubstring("small_case_rounds: expected an integer of at least"));
  Json none = with;
  none["cases"][0]["units"] = 0;
  CHECK_THAT(error_of(none), ContainsSubstring("/cases/0/units: expected a positive integer"));
}
