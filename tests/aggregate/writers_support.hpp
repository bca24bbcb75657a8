#pragma once
// An aggregate of two synthetic cards and the lesson's transcribed T4, for the writers' tests.

#include <filesystem>

#include "aggregate/aggregate.hpp"
#include "base/atomic_file.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "registry/registry.hpp"
#include "support/synthetic_card.hpp"

namespace labrun::testing {

//! Writes the synthetic transcripts into `dir` and aggregates them with the lesson's T4 tables.
inline Aggregate two_synthetic_cards_and_the_lesson(const std::filesystem::path& dir) {
  const std::vector<ClaimSpec> claims = day48::make_lab().claims;
  std::vector<AggregateFile> files{
      {std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence/day48-fusion/tesla-t4-lesson/"
                                                                   "cuda-12.6-original.json",
       false}};
  SyntheticCard card;
  card.device = "Synthetic, \"Card\" A";
  for (int i = 0; i < 2; ++i) {
    card.started_utc = "2026-12-01T10:0" + std::to_string(i) + ":00Z";
    card.staged_over_fused = 3.0 + 0.2 * i;
    const std::filesystem::path file = dir / ("a" + std::to_string(i) + ".json");
    write_file_atomically(file, transcript_to_text(synthetic_day48_transcript(card, &claims)), true);
    files.push_back({file, false});
  }
  card.device = "Synthetic Card B";
  const std::filesystem::path file = dir / "b.json";
  write_file_atomically(file, transcript_to_text(synthetic_day48_transcript(card, &claims)), true);
  files.push_back({file, false});
  return aggregate_transcripts(files, {},
                               [](const std::string& name) { return registered_labs().find(name); });
}

}  // namespace labrun::testing
