#include "aggregate/json.hpp"

#include <catch2/catch_test_macros.hpp>

#include "aggregate/writers_support.hpp"
#include "evidence/transcript_file.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;

TEST_CASE("aggregate JSON carries every card's figures with their runs, and every file's fate") {
  const labrun::testing::TemporaryDirectory temporary("labrun-aggregate-json");
  const fs::path& dir = temporary.path;
  const labrun::Aggregate aggregate = labrun::testing::two_synthetic_cards_and_the_lesson(dir);
  const nlohmann::ordered_json document = labrun::aggregate_to_json(aggregate);
  CHECK(document["format"] == "labrun-aggregate");
  CHECK(document["format_version"] == labrun::kAggregateFormatVersion);
  REQUIRE(document["labs"].size() == 1);
  const auto& lab = document["labs"][0];
  CHECK(lab["name"] == "day48-fusion");
  CHECK(lab["card_figures"]["copy_floor_case"] == "day48-fusion/part2/copy-floor");
  REQUIRE(lab["cards"].size() == 3);
  const auto& t4 = lab["cards"][0];
  CHECK(t4["provenance"] == "transcribed");
  CHECK(t4["ceiling_gb_per_s"]["runs"] == 0);
  CHECK(t4["ceiling_gb_per_s"]["median"].is_null());
  const auto& a = lab["cards"][2];  // rows by device name: "Synthetic Card B" sorts before "Synthetic, ..."
  CHECK(a["provenance"] == "synthetic");
  CHECK(a["runs"] == 2);
  CHECK(a["ratios"][0]["measured"]["runs"] == 2);
  CHECK(a["claims"].size() == lab["claims"].size());
  CHECK(document["inputs"].size() == 4);
  CHECK(document["inputs"][0]["used"] == true);
  // Given to `validate`, it is named for what it is.
  CHECK(labrun::non_transcript_kind(nlohmann::json::parse(document.dump())) ==
        "an aggregate (`labrun aggregate`)");
}
