#include "evidence/transcript_file.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>

#include "base/atomic_file.hpp"
#include "base/gzip.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::EndsWith;

TEST_CASE("a transcript file is read, validated and parsed") {
  const fs::path file =
      labrun::testing::repository_root() / "evidence/day48-fusion/tesla-t4-lesson/cuda-12.6-original.json";
  const labrun::TranscriptCheck check = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  REQUIRE(check.transcript.has_value());
  CHECK(check.problem.empty());
  CHECK(check.transcript->is_transcribed());
  CHECK(labrun::read_transcript_file(file, labrun::testing::registered_lab).lab_name == "day48-fusion");
}

TEST_CASE("a folder given as a transcript is named as a folder") {
  const labrun::TranscriptCheck check = labrun::check_transcript_file(
      labrun::testing::repository_root() / "evidence", labrun::testing::registered_lab);
  CHECK_FALSE(check.transcript.has_value());
  CHECK_THAT(check.problem, ContainsSubstring("evidence is a folder, not a transcript"));
  CHECK_THAT(check.problem, ContainsSubstring("labrun aggregate"));
  CHECK(check.problem.find("malformed") == std::string::npos);
}

TEST_CASE("other labrun output given as a transcript is named for what it is") {
  const labrun::TranscriptCheck comparison =
      labrun::check_transcript_file(labrun::testing::repository_root() /
                                        "evidence/day48-fusion/comparisons/nvidia-h200-hot-vs-hot-gated.json",
                                    labrun::testing::registered_lab);
  CHECK(comparison.not_a_transcript);
  CHECK_THAT(comparison.problem, EndsWith(": not a transcript (it looks like a comparison (`labrun compare "
                                          "--format json`))"));
  const labrun::TranscriptCheck grade = labrun::check_transcript_file(
      labrun::testing::repository_root() /
          "evidence/day48-fusion/grading/2026-11-30T06-03Z/nvidia-h200-correct-gradescope-results.json",
      labrun::testing::registered_lab);
  CHECK_THAT(grade.problem, ContainsSubstring("it looks like a grade report"));
  const labrun::TranscriptCheck schema = labrun::check_transcript_file(
      labrun::testing::repository_root() / "evidence/schema/transcript-1.3.0.schema.json",
      labrun::testing::registered_lab);
  CHECK_THAT(schema.problem, ContainsSubstring("it looks like a JSON Schema"));
  CHECK(labrun::non_transcript_kind(nlohmann::json::parse(R"({"schema_version": "1.4.0"})")).empty());
  CHECK(labrun::non_transcript_kind(nlohmann::json::parse(R"({"something": 1})")).empty());
}

TEST_CASE("an invalid transcript's problem names the file and the JSON pointer, and how many more") {
  const fs::path file = labrun::testing::repository_root() / "tests/evidence/invalid/missing-run-seed.json";
  const labrun::TranscriptCheck check = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  CHECK_FALSE(check.not_a_transcript);
  CHECK(check.problem == file.string() + ": /run/seed: missing");
  CHECK(check.more_problems == 1);
  CHECK_THROWS_AS(labrun::read_transcript_file(file, labrun::testing::registered_lab),
                  labrun::InvalidTranscript);
  const labrun::TranscriptCheck missing = labrun::check_transcript_file(
      labrun::testing::repository_root() / "no-such.json", labrun::testing::registered_lab);
  CHECK_THAT(missing.problem, ContainsSubstring("no-such.json"));
}

TEST_CASE("a transcript stored gzip-compressed reads as the plain file does") {
  if (!labrun::gzip_supported()) {
    SKIP("this build has no zlib");
  }
  const fs::path plain =
      labrun::testing::repository_root() / "evidence/day48-fusion/tesla-t4-lesson/cuda-12.6-original.json";
  const labrun::testing::TemporaryDirectory dir;
  const fs::path packed = dir.path / "cuda-12.6-original.json.gz";
  std::ofstream(packed, std::ios::binary) << labrun::gzip_compress(labrun::read_file(plain));
  const labrun::TranscriptCheck check =
      labrun::check_transcript_file(packed, labrun::testing::registered_lab);
  REQUIRE(check.transcript.has_value());
  CHECK(check.problem.empty());
  CHECK(check.transcript->lab_name == "day48-fusion");
  CHECK(check.transcript->started_utc ==
        labrun::read_transcript_file(plain, labrun::testing::registered_lab).started_utc);
  // The text kept with it is the JSON, decompressed: what `labrun report --format json` shows.
  CHECK(check.text == labrun::read_file(plain));
  CHECK(labrun::read_transcript_file_with_text(packed, labrun::testing::registered_lab).text ==
        labrun::read_file(plain));

  // Damaged: one line naming the file, as any unreadable transcript's problem is.
  std::string bytes = labrun::read_file(packed);
  const fs::path cut = dir.path / "cut.json.gz";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const labrun::TranscriptCheck damaged = labrun::check_transcript_file(cut, labrun::testing::registered_lab);
  CHECK_FALSE(damaged.transcript.has_value());
  CHECK_THAT(damaged.problem, ContainsSubstring("cut.json.gz: damaged gzip data"));
}

TEST_CASE("a transcript's file name: NAME.json or NAME.json.gz, and the NAME its plots and Markdown take") {
  CHECK(labrun::named_as_transcript("runs/2026-12-05T03-16-35Z.json.gz"));
  CHECK(labrun::named_as_transcript("runs/2026-12-05T03-16-35Z.json.gz"));
  CHECK_FALSE(labrun::named_as_transcript("runs/2026-12-05T03-16-35Z.md"));
  CHECK_FALSE(labrun::named_as_transcript("runs/2026-12-05T03-16-35Z.gz"));
  CHECK_FALSE(labrun::named_as_transcript("runs/.json"));
  CHECK_FALSE(labrun::named_as_transcript("runs/.json.gz"));
  CHECK(labrun::transcript_file_stem("runs/2026-12-05T03-16-35Z.json.gz") == "2026-12-05T03-16-35Z");
  CHECK(labrun::transcript_file_stem("runs/2026-12-05T03-16-35Z.json.gz") == "2026-12-05T03-16-35Z");
  CHECK(labrun::transcript_file_stem("a.b.json.gz") == "a.b");
  CHECK(labrun::transcript_file_stem("other.txt") == "other");
}
