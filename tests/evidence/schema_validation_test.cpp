#include "evidence/schema_validation.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "support/json_shape.hpp"
#include "support/sample_transcript.hpp"
#include "support/test_data.hpp"
#include "timeline/timeline.hpp"

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

const fs::path kTests = fs::path(LABRUN_TEST_DATA_DIR);

}  // namespace

TEST_CASE("every committed transcript under evidence/ validates against its own schema version") {
  int transcripts = 0;
  for (const auto& entry : fs::recursive_directory_iterator(labrun::testing::evidence_folder())) {
    // Transcripts only: not the schemas, not `labrun compare` or `labrun grade` output, not the
    // verdict-stability script's summaries.
    const std::string relative = fs::relative(entry.path(), labrun::testing::evidence_folder()).string();
    const bool transcript_folder = relative.rfind("schema/", 0) != 0 &&
                                   relative.find("/comparisons/") == std::string::npos &&
                                   relative.find("/grading/") == std::string::npos &&
                                   relative.find("/verdict-stability/") == std::string::npos;
    if (!labrun::named_as_transcript(entry.path()) || !transcript_folder ||
        labrun::is_trace_file(entry.path().filename().string())) {
      continue;
    }
    INFO(entry.path().string());
    // Read as every command reads it: validated against the schema of its version, parsed, its
    // cross references and every figure against its samples checked (the problem names which).
    const labrun::TranscriptCheck check =
        labrun::check_transcript_file(entry.path(), labrun::testing::registered_lab);
    CHECK(check.problem == "");
    CHECK(check.transcript.has_value());
    ++transcripts;
  }
  CHECK(transcripts >= 4);  // two H200 runs and two transcribed T4 references at least
}

TEST_CASE("the valid corpus validates - each under the schema it names") {
  for (const char* name : {"measured-1.1.0.json", "h200-run-1.0.0.json"}) {
    INFO(name);
    CHECK(labrun::validate_transcript_text(labrun::read_evidence_text(kTests / "evidence" / "valid" / name))
              .empty());
  }
}

TEST_CASE("each invalid transcript is refused with the JSON pointer of its problem") {
  std::ifstream manifest(kTests / "evidence" / "invalid" / "expected.tsv");
  std::string line;
  int checked = 0;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::istringstream fields(line);
    std::string file;
    std::string pointer;
    std::string word;
    std::getline(fields, file, '\t');
    std::getline(fields, pointer, '\t');
    std::getline(fields, word, '\t');
    INFO(file);
    const fs::path path = kTests / "evidence" / "invalid" / file;
    const std::string before = labrun::read_evidence_text(path);
    const auto problems = labrun::validate_transcript_text(before);
    REQUIRE_FALSE(problems.empty());
    if (pointer.empty()) {
      CHECK(problems.front().pointer.empty());
    } else {
      CHECK_THAT(problems.front().pointer, StartsWith(pointer));
    }
    CHECK_THAT(problems.front().message, ContainsSubstring(word));
    CHECK(labrun::read_evidence_text(path) == before);  // validation changes nothing on disk
    ++checked;
  }
  CHECK(checked >= 14);
}

TEST_CASE("what the writer writes validates against the current schema") {
  const labrun::Json document = labrun::transcript_to_json(labrun::testing::sample_day48_transcript());
  CHECK(document["schema_version"] == labrun::kTranscriptSchemaVersion);
  const auto problems = labrun::validate_transcript(document);
  INFO((problems.empty() ? std::string() : problems.front().pointer + ": " + problems.front().message));
  CHECK(problems.empty());
}

TEST_CASE(
    "a claim's reading on GPU time alone validates, and one with no verdict of its interval does not "
    "(1.12.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.claims.front().gpu_alone =
      labrun::GpuAloneReading{2.95, labrun::Interval{2.9, 3.02}, labrun::Verdict::kHeld};
  labrun::Json document = labrun::transcript_to_json(t);
  CHECK(labrun::validate_transcript(document).empty());
  // The reading is judged by its interval: "not measured" is never its verdict.
  document["claims"][0]["gpu_alone"]["verdict"] = "not measured";
  const auto problems = labrun::validate_transcript(document);
  REQUIRE_FALSE(problems.empty());
  CHECK(problems.front().pointer.find("/claims/0/gpu_alone") == 0);
  // A measured run of 1.12.0 names the key on every claim, null where there is no such reading.
  labrun::Json missing = labrun::transcript_to_json(labrun::testing::sample_day48_transcript());
  missing["claims"][0].erase("gpu_alone");
  CHECK_FALSE(labrun::validate_transcript(missing).empty());
}

TEST_CASE("the writer's output shape is pinned to its schema version") {
  // Changing what the writer emits needs a new schema version: bump kTranscriptSchemaVersion, add
  // evidence/schema/transcript-<new>.schema.json and tests/evidence/golden/transcript-shape-<new>.txt.
  const std::string shape = labrun::testing::json_shape(
      nlohmann::json::parse(labrun::transcript_to_text(labrun::testing::sample_day48_transcript())));
  const fs::path pinned = kTests / "evidence" / "golden" /
                          ("transcript-shape-" + std::string(labrun::kTranscriptSchemaVersion) + ".txt");
  // The explicit, reviewed step that pins a new version's shape: LABRUN_UPDATE_GOLDEN=1 writes it
  // once, when no file for this version exists yet; it never replaces a pinned shape.
  if (std::getenv("LABRUN_UPDATE_GOLDEN") != nullptr && !fs::exists(pinned)) {
    std::ofstream(pinned) << shape;
    WARN("wrote " << pinned.string() << ": review it and commit it with the version bump");
  }
  REQUIRE(fs::exists(pinned));
  CHECK(shape == labrun::read_evidence_text(pinned));
}

TEST_CASE("schemas of every readable version are among labrun's data files") {
  const auto versions = labrun::known_schema_versions();
  CHECK(versions == std::vector<std::string>{"1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0",
                                             "1.7.0", "1.8.0", "1.9.0", "1.10.0", "1.11.0", "1.12.0"});
  for (const std::string& v : labrun::readable_schema_versions()) {
    CHECK(labrun::schema_text(v).has_value());
  }
  CHECK_FALSE(labrun::schema_text("0.9.0").has_value());
  CHECK_FALSE(labrun::schema_text("../schema/transcript-1.4.0").has_value());  // a version, never a path
}

TEST_CASE("schema versions compare by number, not as text") {
  CHECK(labrun::schema_version_at_least("1.10.0", "1.9.0"));  // as text, "1.10.0" < "1.9.0"
  CHECK_FALSE(labrun::schema_version_at_least("1.9.0", "1.10.0"));
  CHECK(labrun::schema_version_at_least("1.8.0", "1.8.0"));
  CHECK_FALSE(labrun::schema_version_at_least("1.7.0", "1.8.0"));
  CHECK(labrun::schema_version_at_least("2.0.0", "1.12.0"));
  // Every readable version, against each of the others, in the order readable_schema_versions lists them.
  const auto& readable = labrun::readable_schema_versions();
  for (std::size_t i = 0; i < readable.size(); ++i) {
    for (std::size_t j = 0; j < readable.size(); ++j) {
      CHECK(labrun::schema_version_at_least(readable[i], readable[j]) == (i >= j));
    }
  }
}

TEST_CASE("valijson contexts become JSON pointers") {
  CHECK(labrun::json_pointer_from_context({"<root>"}).empty());
  CHECK(labrun::json_pointer_from_context({"<root>", "[cases]", "[2]", "[samples_ms]"}) ==
        "/cases/2/samples_ms");
  CHECK(labrun::json_pointer_from_context({"<root>", "[a/b]", "[c~d]"}) == "/a~1b/c~0d");
}

TEST_CASE("a 1.0.0 transcript is read through the migration - measured and with no claims recorded") {
  const labrun::Transcript t = labrun::transcript_from_text(
      labrun::read_evidence_text(kTests / "evidence" / "valid" / "h200-run-1.0.0.json"));
  CHECK(t.schema_version == "1.0.0");
  CHECK(t.provenance == "measured");
  CHECK_FALSE(t.claims_recorded);
  CHECK(t.claims.empty());
  // Written again, it is a current transcript that validates.
  CHECK(labrun::validate_transcript(labrun::transcript_to_json(t)).empty());
}

TEST_CASE("1.4.0: a measured transcript records every metadata group and fact, unknown or not") {
  labrun::Transcript measured = labrun::testing::sample_day48_transcript();
  measured.provenance = "measured";
  measured.provenance_note.clear();
  const labrun::Json complete = labrun::transcript_to_json(measured);
  CHECK(labrun::validate_transcript(complete).empty());

  labrun::Json no_device = complete;
  no_device["environment"].erase("device");
  auto problems = labrun::validate_transcript(no_device);
  REQUIRE_FALSE(problems.empty());
  CHECK(problems.front().pointer == "/environment/device");
  CHECK_THAT(problems.front().message,
             StartsWith("missing (a measured transcript records every metadata group"));

  labrun::Json no_uuid = complete;
  no_uuid["environment"]["device"].erase("uuid");
  problems = labrun::validate_transcript(no_uuid);
  REQUIRE_FALSE(problems.empty());
  CHECK(problems.front().pointer == "/environment/device/uuid");

  labrun::Json no_hostname = complete;
  no_hostname["environment"]["host"].erase("hostname");
  CHECK(labrun::validate_transcript(no_hostname).front().pointer == "/environment/host/hostname");

  // Unknown, with the reason, is allowed; so is a fact the contract does not name.
  labrun::Json unknown = complete;
  unknown["environment"]["device"]["uuid"] = labrun::Json{{"unknown", "NVML could not be loaded"}};
  unknown["environment"]["device"]["extra_fact"] = labrun::Json{{"value", 1}};
  CHECK(labrun::validate_transcript(unknown).empty());

  // A synthetic transcript is held to the same contract; a transcribed one is not.
  labrun::Json synthetic = no_device;
  synthetic["provenance"] = labrun::Json{{"kind", "synthetic"}, {"note", "a test"}};
  CHECK_FALSE(labrun::validate_transcript(synthetic).empty());
  labrun::Json synthetic_without_note = complete;
  synthetic_without_note["provenance"] = labrun::Json{{"kind", "synthetic"}};
  CHECK_FALSE(labrun::validate_transcript(synthetic_without_note).empty());
}

TEST_CASE("reading an older transcript records what 1.4.0 requires and it lacks as not recorded") {
  // 1.1.0 runs predate the memory_peak_gb_per_s fact.
  const labrun::Transcript old = labrun::transcript_from_text(
      labrun::read_evidence_text(kTests / "evidence" / "golden" / "day48-fusion-nvidia-h200-1.1.0.json"));
  CHECK(old.not_recorded == std::vector<std::string>{"device/memory_peak_gb_per_s"});
  const labrun::Fact* peak = old.group("device")->find("memory_peak_gb_per_s");
  REQUIRE(peak != nullptr);
  CHECK_FALSE(peak->recorded);
  CHECK_FALSE(old.numeric_fact("device", "memory_peak_gb_per_s").has_value());
  // Written again, it is a current transcript that validates.
  CHECK(labrun::validate_transcript(labrun::transcript_to_json(old)).empty());

  // A 1.3.0 transcript with its whole device group deleted is valid under 1.3.0, and is read with
  // the group not recorded: renderings say so instead of guessing.
  nlohmann::ordered_json edited = nlohmann::ordered_json::parse(labrun::read_evidence_text(
      labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-11-30T07-30-51Z.json.gz"));
  REQUIRE(edited["schema_version"] == "1.3.0");
  edited["environment"].erase("device");
  const labrun::Transcript without_device = labrun::transcript_from_json(edited);
  CHECK(without_device.not_recorded.front() == "device");
  CHECK(labrun::validate_transcript(labrun::transcript_to_json(without_device)).empty());
  // Measured 1.3.0 transcripts under evidence/ lack nothing.
  CHECK(labrun::transcript_from_text(
            labrun::read_evidence_text(labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" /
                                       "2026-11-30T07-30-51Z.json.gz"))
            .not_recorded.empty());
}
