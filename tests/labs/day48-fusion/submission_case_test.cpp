// `labrun run day48-fusion --submission DIR` without a GPU: what is refused before any device is
// touched (exit 2 and 7), and the student's row, predictions and worked-answer table rendered from
// a transcript alone. tests/gpu/submission_run_gpu_test.cpp runs submissions on a GPU.

#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>
#include "registry/registry.hpp"

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "case_names.hpp"
#include "device/device_info.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "submission_case.hpp"
#include "support/cli_run.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using labrun::testing::run_labrun;

namespace {

labrun::testing::CliOutcome run_with(const fs::path& folder, const std::string& lab = "day48-fusion") {
  return run_labrun({"run", lab, "--submission", folder.string(), "--quiet", "--smoke", "--out",
                     (fs::temp_directory_path() / "labrun-submission-never-written").string()});
}

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE(
    "run --submission: another lab's exercise is refused by this lab's checks, a missing folder is a usage "
    "error") {
  // fusion-verdicts grades its own exercise: day 48's pair, which includes day 48's header, is
  // refused by that exercise's source check before any GPU.
  const fs::path correct = labrun::testing::grading_corpus() / "correct";
  const labrun::testing::CliOutcome verdicts = run_with(correct, "fusion-verdicts");
  CHECK(verdicts.status == 7);
  CHECK(mentions(verdicts.err, "#include \"grading/submission.cuh\" is not allowed"));
  const labrun::testing::CliOutcome missing = run_with("/nonexistent/labrun-submission");
  CHECK(missing.status == 2);
  CHECK(mentions(missing.err, "not a folder"));
}

TEST_CASE("run --submission: what the host can check is refused with exit 7 before any GPU") {
  const labrun::testing::TemporaryDirectory folder("labrun-submission");
  const fs::path correct = labrun::testing::grading_corpus() / "correct";
  const std::string source = labrun::read_evidence_text(correct / "halfway.cu");

  const labrun::testing::CliOutcome empty = run_with(folder.path);
  CHECK(empty.status == 7);
  CHECK(mentions(empty.err, "holds no .cu file"));

  labrun::write_file_atomically(folder.path / "a.cu", source, true);
  labrun::write_file_atomically(folder.path / "b.cu", source, true);
  const labrun::testing::CliOutcome two = run_with(folder.path);
  CHECK(two.status == 7);
  CHECK(mentions(two.err, "2 .cu files (a.cu, b.cu)"));

  fs::remove(folder.path / "b.cu");
  const labrun::testing::CliOutcome no_manifest = run_with(folder.path);
  CHECK(no_manifest.status == 7);
  CHECK(mentions(no_manifest.err, "no manifest beside"));

  // A manifest without the bytes the row's byte model needs.
  labrun::write_file_atomically(folder.path / "a.json", R"({"student_id": "s1", "launches": 2})", true);
  const labrun::testing::CliOutcome no_bytes = run_with(folder.path);
  CHECK(no_bytes.status == 7);
  CHECK(mentions(no_bytes.err, "bytes_per_element"));

  const labrun::testing::CliOutcome out_of_range =
      run_with(labrun::testing::grading_corpus() / "manifest-launches-out-of-range");
  CHECK(out_of_range.status == 7);
  CHECK(mentions(out_of_range.err, "/launches"));

  const labrun::testing::CliOutcome outside =
      run_with(labrun::testing::grading_corpus() / "include-outside-file");
  CHECK(outside.status == 7);
  CHECK(mentions(outside.err, "source check refuses"));
  CHECK(mentions(outside.err, "line 5"));

  // A submission the host accepts needs a GPU to be compiled for; without one, exit 3.
  if (!labrun::probe_devices().usable) {
    const labrun::testing::CliOutcome no_gpu = run_with(correct);
    CHECK(no_gpu.status == 3);
  }
}

TEST_CASE("a submission's row and predictions and worked answer render from the transcript (synthetic)") {
  // A committed H200 run, with the lab's own half-way pair copied as a submission's row declaring 24
  // bytes per element: synthetic, built here, never measured as such.
  labrun::Transcript t = labrun::transcript_from_text(labrun::read_evidence_text(
      labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-12-01T09-56-48Z.json.gz"));
  t.provenance = "synthetic";
  t.provenance_note =
      "tests/labs/day48-fusion/submission_case_test.cpp: the half-way pair's row copied as a submission";
  std::vector<labrun::CaseResult> copies;
  for (const labrun::CaseResult& c : t.cases) {
    if (c.name == day48::cases::kHalfwayPair) {
      labrun::CaseResult copy = c;
      copy.name = day48::cases::kSubmission;
      copy.label = "yours: the submission's half-way pair";
      copy.model = labrun::ByteModel{24.0, 0.0, 2};
      copies.push_back(copy);
    }
  }
  REQUIRE(copies.size() == 2);  // lesson and card-scaled
  t.cases.insert(t.cases.end(), copies.begin(), copies.end());
  for (labrun::FactGroup& group : t.environment) {
    if (group.name == "lab") {
      namespace facts = day48::submission_facts;
      group.facts.push_back(labrun::Fact::known(facts::kSource, "folder/halfway.cu"));
      group.facts.push_back(labrun::Fact::known(facts::kStudentId, "s1"));
      group.facts.push_back(labrun::Fact::known(facts::kBytesPerElement, 24.0));
      group.facts.push_back(labrun::Fact::known(facts::kLaunches, std::int64_t{2}));
      group.facts.push_back(labrun::Fact::known(facts::kPredictedVsStaged, 1.5));
      group.facts.push_back(
          labrun::Fact::unknown(facts::kPredictedVsFused, "the manifest gives no usable prediction"));
      group.facts.push_back(
          labrun::Fact::known(facts::kFirstLaunch, "256 threads per block, 1 element per thread"));
      group.facts.push_back(labrun::Fact::known(facts::kSecondLaunch, "256 threads per block, grid-stride"));
    }
  }
  const std::vector<labrun::Table> tables = day48::render_tables(t);
  const labrun::Table* part2 = nullptr;
  const labrun::Table* yours = nullptr;
  for (const labrun::Table& table : tables) {
    if (table.title.rfind("Part 2: every version once, n = 16777216", 0) == 0) {
      part2 = &table;
    }
    if (table.title == "Your submission: the worked answer against the run") {
      yours = &table;
    }
  }
  REQUIRE(part2 != nullptr);
  REQUIRE(yours != nullptr);
  CHECK(part2->rows.back().front() == "yours: the submission's half-way pair");
  CHECK(part2->rows.back()[2] == "24");  // the declared bytes per element
  CHECK(mentions(yours->notes.front(), "folder/halfway.cu (student s1)"));
  REQUIRE(yours->rows.size() >= 6);
  CHECK(yours->rows[0] == std::vector<std::string>{"bytes per element", "24", "20", "-"});
  CHECK(yours->rows[1] == std::vector<std::string>{"launches", "2", "2", "-"});
  // staged / yours at the lesson size: the student's 1.50, the lab's 36/20, and the measured ratio,
  // which is the half-way pair's (its samples were copied).
  const labrun::CaseResult* staged = t.find_case(day48::cases::kStagedChain, "lesson");
  const labrun::CaseResult* pair = t.find_case(day48::cases::kHalfwayPair, "lesson");
  REQUIRE(staged != nullptr);
  REQUIRE(pair != nullptr);
  CHECK(yours->rows[2] ==
        std::vector<std::string>{"staged / yours, lesson", "1.50", "1.80",
                                 labrun::fixed(staged->central_ms() / pair->central_ms(), 2)});
  CHECK(yours->rows[4][0] == "yours / fused, lesson");
  CHECK(yours->rows[4][1] == "-");  // no usable prediction in the manifest
  CHECK(yours->rows[4][2] == "1.67");

  // A run without a submission has neither the row nor the table.
  t.cases.resize(t.cases.size() - copies.size());
  for (const labrun::Table& table : day48::render_tables(t)) {
    CHECK(table.title != "Your submission: the worked answer against the run");
  }
}

TEST_CASE("the day-48 lab takes a submission and declares no submission case without one") {
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  REQUIRE(lab.exercises.size() == 1);
  CHECK(static_cast<bool>(lab.exercises.front().with_submission));
  CHECK(lab.find_case(day48::cases::kSubmission) == nullptr);
}
