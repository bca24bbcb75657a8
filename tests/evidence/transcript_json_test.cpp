#include "evidence/transcript_json.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

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
