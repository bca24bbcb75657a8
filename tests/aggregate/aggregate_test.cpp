#include "aggregate/aggregate.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <chrono>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "base/gzip.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "registry/registry.hpp"
#include "support/synthetic_card.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"
#include "timeline/timeline.hpp"

namespace fs = std::filesystem;
using Catch::Approx;
using Catch::Matchers::ContainsSubstring;
using labrun::testing::TemporaryDirectory;

namespace {

const labrun::Lab* registered(const std::string& name) {
  return labrun::registered_labs().find(name);
}

fs::path write_transcript(const fs::path& dir, const std::string& name, const labrun::Transcript& t) {
  fs::path file = dir / name;
  labrun::write_file_atomically(file, labrun::transcript_to_text(t), true);
  return file;
}

const labrun::CardRow* card_labelled(const labrun::LabAggregate& lab, const std::string& label) {
  for (const labrun::CardRow& card : lab.cards) {
    if (card.label == label) {
      return &card;
    }
  }
  return nullptr;
}

const labrun::LabAggregate* lab_named(const labrun::Aggregate& aggregate, const std::string& name) {
  for (const labrun::LabAggregate& lab : aggregate.labs) {
    if (lab.name == name) {
      return &lab;
    }
  }
  return nullptr;
}

// JSON files under a folder, plain or gzip-compressed (NAME.json.gz), less the Chrome traces `run
// --timeline` writes (never transcripts).
std::size_t count_json_files(const fs::path& folder) {
  std::size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    count +=
        labrun::named_as_transcript(entry.path()) && !labrun::is_trace_file(entry.path().filename().string())
            ? 1
            : 0;
  }
  return count;
}

}  // namespace

TEST_CASE("a figure over runs is its median with the smallest and largest") {
  CHECK_FALSE(labrun::spread_of({}).measured());
  const labrun::RunSpread one = labrun::spread_of({2.0});
  CHECK(one.runs == 1);
  CHECK(one.median == 2.0);
  CHECK(one.relative_spread() == 0.0);
  const labrun::RunSpread odd = labrun::spread_of({3.0, 1.0, 2.0});
  CHECK(odd.median == 2.0);
  CHECK(odd.min == 1.0);
  CHECK(odd.max == 3.0);
  CHECK(odd.relative_spread() == Approx(1.0));
  CHECK(labrun::spread_of({1.0, 2.0, 4.0, 3.0}).median == 2.5);
}

TEST_CASE("a claim's tally says how many of a card's runs held it") {
  labrun::ClaimTally tally;
  CHECK(tally.verdict() == "not measured");
  tally.held = 3;
  CHECK(tally.summary() == "held 3/3");
  tally.failed = 1;
  CHECK(tally.verdict() == "mixed");
  CHECK(tally.summary() == "mixed: held 3 of 4");
  tally.held = 0;
  CHECK(tally.summary() == "failed 1/1");
}

TEST_CASE("a claim's tally counts inconclusive runs (schema 1.6.0) beside held and failed ones") {
  labrun::ClaimTally tally;
  tally.inconclusive = 2;
  CHECK(tally.measured() == 2);
  CHECK(tally.verdict() == "inconclusive");
  CHECK(tally.summary() == "inconclusive 2/2");
  tally.held = 3;
  CHECK(tally.verdict() == "mixed");
  CHECK(tally.summary() == "mixed: held 3, inconclusive 2 of 5");
  tally.failed = 1;
  CHECK(tally.summary() == "mixed: held 3, failed 1, inconclusive 2 of 6");
}

TEST_CASE("the committed evidence aggregates into one row per card, the lesson's T4 row transcribed") {
  const labrun::Aggregate aggregate = labrun::aggregate_transcripts(
      labrun::aggregate_files({labrun::testing::evidence_folder()}), {}, registered);
  // Every JSON under evidence/ was considered; the comparisons, grade reports and schemas were
  // skipped quietly as not transcripts, and nothing else was left out.
  CHECK(aggregate.inputs.size() == count_json_files(labrun::testing::evidence_folder()));
  for (const labrun::AggregateInput& input : aggregate.inputs) {
    INFO(input.file.string() << ": " << input.refused);
    CHECK((input.used() || input.not_a_transcript));
  }
  const labrun::LabAggregate* day48 = lab_named(aggregate, "day48-fusion");
  REQUIRE(day48 != nullptr);
  CHECK(day48->known);
  // The lesson's T4 first, then the measured cards by name: the H100's and the H200's.
  REQUIRE(day48->cards.size() == 3);
  const labrun::CardRow& t4 = day48->cards[0];
  CHECK(t4.label == "Tesla T4 (transcribed)");
  CHECK(t4.provenance == "transcribed");
  CHECK(t4.runs() == 2);
  CHECK(t4.gpus == 0);  // the lesson gives no UUID
  CHECK(t4.timing_modes.at("published") == 2);
  // The lesson's copy floor: 8 B x 16,777,216 over 0.548 ms.
  CHECK(t4.bandwidth_size_labels == std::vector<std::string>{"lesson"});
  CHECK(t4.copy_floor_gb_per_s.median == Approx(8.0 * 16777216 / 0.548e-3 / 1e9));
  CHECK_FALSE(t4.ceiling_gb_per_s.measured());  // the lesson has no vectorised copy or cudaMemcpy row
  CHECK(t4.launch_us.median == Approx(2.668));
  // 3.09 at 4,194,304 and 16,777,216; 5.86 at 262,144.
  CHECK(t4.swept_runs == 1);
  CHECK(t4.settles_from_elements.median == 4194304.0);

  const labrun::CardRow& h100 = day48->cards[1];
  CHECK(h100.label == "NVIDIA H100 80GB HBM3");
  CHECK(h100.provenance == "measured");
  // One run in each timing mode from each of the evidence stage's four H100 leases
  // (scripts/lease/intervals-benchmark.sh; 2026-12-06 07:45Z, 10:03Z, 11:34Z and 17:24Z).
  CHECK(h100.runs() ==
        count_json_files(labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h100-80gb-hbm3"));
  CHECK(h100.timing_modes.at("hot") == 4);
  CHECK(h100.timing_modes.at("cold") == 4);
  CHECK(h100.timing_modes.at("hot-gated") == 4);
  const labrun::CardRow& h200 = day48->cards[2];
  CHECK(h200.label == "NVIDIA H200");
  CHECK(h200.provenance == "measured");
  // Every day-48 run committed from the H200 (its folder holds nothing else but a trace).
  CHECK(h200.runs() == count_json_files(labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200"));
  CHECK(h200.runs() >= 14);
  CHECK(h200.gpus >= 1);
  // Eight hot-gated runs: 2026-11-30T07-30-51Z, 2026-12-03T11-22-03Z, 2026-12-03T18-11-20Z,
  // 2026-12-04T02-02-36Z, 2026-12-04T17-09-20Z, 2026-12-04T20-41-58Z, 2026-12-05T03-16-44Z and
  // 2026-12-05T22-21-36Z.
  CHECK(h200.timing_modes.at("hot-gated") == 8);
  CHECK(h200.bandwidth_size_labels.front() == "card-scaled");
  CHECK(h200.ceiling_gb_per_s.median >= h200.copy_floor_gb_per_s.median);
  CHECK(h200.share_of_peak.median > 0.5);
  CHECK(h200.share_of_peak.median < 1.0);
  REQUIRE_FALSE(h200.ratios.empty());
  CHECK(h200.ratios.front().description == "staged over fused");
  CHECK(h200.ratios.front().byte_ratio == Approx(3.0));
  CHECK(h200.ratios.front().launch_ratio == Approx(4.0));
  CHECK(h200.ratios.front().measured.runs >= 5);
  // Every run counts once for each of the lab's claims: held, failed, inconclusive (schema 1.6.0 on),
  // not measured, or recorded and unchecked. No committed run is unchecked: each is checked against
  // today's declaration (a bound restated in new words is not a rule changed); the bitwise claim
  // fails on every card.
  REQUIRE(h200.claims.size() == day48::make_lab().claims.size());
  for (const labrun::ClaimTally& claim : h200.claims) {
    INFO(claim.id << ": " << claim.summary());
    CHECK(claim.held + claim.failed + claim.inconclusive + claim.not_measured + claim.unchecked ==
          h200.runs());
    CHECK(claim.unchecked == 0);
    if (claim.id == "fused-and-staged-agree-bitwise") {
      CHECK(claim.verdict() == "failed");
    }
  }
  const labrun::LabAggregate* verdicts = lab_named(aggregate, "fusion-verdicts");
  REQUIRE(verdicts != nullptr);
  REQUIRE(verdicts->cards.size() == 2);
  CHECK(verdicts->cards[0].label == "NVIDIA H100 80GB HBM3");
  CHECK(verdicts->cards[1].label == "NVIDIA H200");
  // Every fusion-verdicts run committed from either card sweeps the pair over n.
  CHECK(verdicts->cards[0].swept_runs ==
        count_json_files(labrun::testing::evidence_folder() / "fusion-verdicts" / "nvidia-h100-80gb-hbm3"));
  CHECK(verdicts->cards[1].swept_runs ==
        count_json_files(labrun::testing::evidence_folder() / "fusion-verdicts" / "nvidia-h200"));
  CHECK(verdicts->cards[1].swept_runs >= 2);
  CHECK(verdicts->cards[1].settles_from_elements.measured());
}

TEST_CASE("synthetic cards make their own rows, marked synthetic, with medians and spreads over runs") {
  TemporaryDirectory dir;
  const std::vector<labrun::ClaimSpec> claims = day48::make_lab().claims;
  labrun::testing::SyntheticCard card;
  card.device = "Synthetic Card A";
  std::vector<fs::path> files;
  const double ratios[] = {2.9, 3.1, 3.6};
  for (int i = 0; i < 3; ++i) {
    card.started_utc = "2026-12-01T10:0" + std::to_string(i) + ":00Z";
    card.staged_over_fused = ratios[i];
    files.push_back(write_transcript(dir.path, "a" + std::to_string(i) + ".json",
                                     labrun::testing::synthetic_day48_transcript(card, &claims)));
  }
  labrun::testing::SyntheticCard other;
  other.device = "Synthetic Card B";
  other.uuid = "GPU-00000000-0000-4000-8000-000000000002";
  other.copy_floor_ms = 0.2;
  other.launch_us = 4.0;
  other.settles_from = 4194304;
  files.push_back(
      write_transcript(dir.path, "b.json", labrun::testing::synthetic_day48_transcript(other, &claims)));

  std::vector<labrun::AggregateFile> inputs;
  inputs.reserve(files.size());
  for (const fs::path& file : files) {
    inputs.push_back({file, false});
  }
  const labrun::Aggregate aggregate = labrun::aggregate_transcripts(inputs, {}, registered);
  REQUIRE(aggregate.used() == 4);
  REQUIRE(aggregate.labs.size() == 1);
  const labrun::LabAggregate& lab = aggregate.labs[0];
  REQUIRE(lab.cards.size() == 2);
  const labrun::CardRow* a = card_labelled(lab, "Synthetic Card A (synthetic)");
  REQUIRE(a != nullptr);
  CHECK(a->provenance == "synthetic");
  CHECK(a->runs() == 3);
  CHECK(a->gpus == 1);
  CHECK(a->hosts == 1);
  CHECK(a->timing_modes.at("hot") == 3);
  REQUIRE_FALSE(a->ratios.empty());
  const labrun::RatioRow& staged = a->ratios.front();
  CHECK(staged.size_label == "card-scaled");
  CHECK(staged.measured.runs == 3);
  CHECK(staged.measured.median == Approx(3.1));
  CHECK(staged.measured.min == Approx(2.9));
  CHECK(staged.measured.max == Approx(3.6));
  // Copy floor 8 B x 134,217,728 in 0.8 ms; the vectorised copy 1.1 times faster is the ceiling.
  CHECK(a->copy_floor_gb_per_s.median == Approx(8.0 * 134217728 / 0.8e-3 / 1e9));
  CHECK(a->ceiling_gb_per_s.median == Approx(1.1 * a->copy_floor_gb_per_s.median));
  CHECK(a->share_of_peak.median == Approx(a->ceiling_gb_per_s.median / 2000.0));
  CHECK(a->launch_us.median == Approx(2.5));
  CHECK(a->settles_from_elements.median == 262144.0);
  // The byte-ratio claim: held at 2.9 and 3.1, failed at 3.6.
  const auto claim = std::find_if(a->claims.begin(), a->claims.end(), [](const labrun::ClaimTally& c) {
    return c.id == "staged-over-fused-is-the-byte-ratio";
  });
  REQUIRE(claim != a->claims.end());
  CHECK(claim->held == 2);
  CHECK(claim->failed == 1);
  CHECK(claim->verdict() == "mixed");

  const labrun::CardRow* b = card_labelled(lab, "Synthetic Card B (synthetic)");
  REQUIRE(b != nullptr);
  CHECK(b->launch_us.median == Approx(4.0));
  CHECK(b->settles_from_elements.median == 4194304.0);
  CHECK(b->copy_floor_gb_per_s.median == Approx(a->copy_floor_gb_per_s.median / 2.0));
}

TEST_CASE("invalid, smoke and duplicate runs are left out one line each, and the rest is aggregated") {
  TemporaryDirectory dir;
  labrun::testing::SyntheticCard card;
  const fs::path good =
      write_transcript(dir.path, "good.json", labrun::testing::synthetic_day48_transcript(card));
  const fs::path copy = dir.path / "copy-of-good.json";
  fs::copy_file(good, copy);
  card.configuration = "smoke";
  card.started_utc = "2026-12-01T11:00:00Z";
  const fs::path smoke =
      write_transcript(dir.path, "smoke.json", labrun::testing::synthetic_day48_transcript(card));
  const fs::path truncated = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "invalid" / "truncated.json";
  const fs::path comparison = labrun::testing::evidence_folder() / "day48-fusion" / "comparisons" /
                              "tesla-t4-lesson-vs-nvidia-h200.json";
  const fs::path missing = dir.path / "no-such-file.json";

  const labrun::Aggregate aggregate = labrun::aggregate_transcripts({{good, false},
                                                                     {copy, false},
                                                                     {smoke, false},
                                                                     {truncated, false},
                                                                     {comparison, false},
                                                                     {missing, false}},
                                                                    {}, registered);
  CHECK(aggregate.used() == 1);
  REQUIRE(aggregate.inputs.size() == 6);
  CHECK(aggregate.inputs[0].used());
  CHECK_THAT(aggregate.inputs[1].refused, ContainsSubstring("duplicate of " + good.string()));
  CHECK_THAT(aggregate.inputs[2].refused, ContainsSubstring("smoke run"));
  CHECK_THAT(aggregate.inputs[3].refused, ContainsSubstring(truncated.string() + ": /: malformed JSON"));
  // Named, a comparison is refused (found in a folder it would be skipped quietly).
  CHECK_THAT(aggregate.inputs[4].refused, ContainsSubstring("not a transcript (it looks like a comparison"));
  CHECK_FALSE(aggregate.inputs[4].not_a_transcript);
  CHECK_THAT(aggregate.inputs[5].refused, ContainsSubstring(missing.string()));
  for (const labrun::AggregateInput& input : aggregate.inputs) {
    CHECK(input.refused.find('\n') == std::string::npos);
  }
}

TEST_CASE(
    "a folder's transcripts are found stored plain or gzip-compressed, Chrome traces and other files aside") {
  if (!labrun::gzip_supported()) {
    SKIP("this build has no zlib");
  }
  TemporaryDirectory dir;
  labrun::testing::SyntheticCard card;
  const fs::path plain =
      write_transcript(dir.path, "b-plain.json", labrun::testing::synthetic_day48_transcript(card));
  card.started_utc = "2026-12-01T11:00:00Z";
  const fs::path packed = dir.path / "a-packed.json.gz";
  labrun::write_file_atomically(
      packed,
      labrun::gzip_compress(labrun::transcript_to_text(labrun::testing::synthetic_day48_transcript(card))),
      true);
  labrun::write_file_atomically(dir.path / "run.trace.json", "{\"traceEvents\": []}\n", true);
  labrun::write_file_atomically(dir.path / "run.md", "# not a transcript\n", true);
  labrun::write_file_atomically(dir.path / "notes.gz", labrun::gzip_compress("not a transcript"), true);

  const std::vector<labrun::AggregateFile> files = labrun::aggregate_files({dir.path});
  REQUIRE(files.size() == 2);
  CHECK(files[0].path == packed);  // sorted by name
  CHECK(files[1].path == plain);
  const labrun::Aggregate aggregate = labrun::aggregate_transcripts(files, {}, registered);
  CHECK(aggregate.used() == 2);
}

TEST_CASE("the --timing option keeps the runs of one timing mode and every transcribed reference") {
  TemporaryDirectory dir;
  labrun::testing::SyntheticCard card;
  const fs::path hot =
      write_transcript(dir.path, "hot.json", labrun::testing::synthetic_day48_transcript(card));
  card.timing_mode = "cold";
  card.started_utc = "2026-12-01T12:00:00Z";
  const fs::path cold =
      write_transcript(dir.path, "cold.json", labrun::testing::synthetic_day48_transcript(card));
  const fs::path lesson =
      labrun::testing::evidence_folder() / "day48-fusion" / "tesla-t4-lesson" / "cuda-12.6-original.json";
  labrun::AggregateOptions options;
  options.timing_mode = "cold";
  const labrun::Aggregate aggregate =
      labrun::aggregate_transcripts({{hot, false}, {cold, false}, {lesson, false}}, options, registered);
  CHECK_THAT(aggregate.inputs[0].refused, ContainsSubstring("sampled hot, not cold (--timing)"));
  CHECK(aggregate.inputs[1].used());
  CHECK(aggregate.inputs[2].used());
}

TEST_CASE("a lab this build does not know is aggregated from what its transcripts record") {
  TemporaryDirectory dir;
  labrun::Transcript t = labrun::testing::synthetic_day48_transcript({});
  // Renamed throughout, as a lab of that name would write it: its cases and what names them.
  const auto renamed = [](const std::string& name) { return "day99-unknown" + name.substr(name.find('/')); };
  t.lab_name = "day99-unknown";
  for (labrun::CaseResult& c : t.cases) {
    c.name = renamed(c.name);
  }
  for (labrun::PredictionRecord& p : t.predictions) {
    p.slower_case = renamed(p.slower_case);
    p.faster_case = renamed(p.faster_case);
  }
  if (t.stability) {
    t.stability->case_name = renamed(t.stability->case_name);
  }
  t.claims = {labrun::ClaimResult{"some-claim", "a claim", "figures", labrun::Verdict::kHeld, 1.0, 1.0, "",
                                  false, ""}};
  const fs::path file = write_transcript(dir.path, "unknown.json", t);
  const labrun::Aggregate aggregate = labrun::aggregate_transcripts({{file, false}}, {}, registered);
  REQUIRE(aggregate.labs.size() == 1);
  const labrun::LabAggregate& lab = aggregate.labs[0];
  CHECK_FALSE(lab.known);
  REQUIRE(lab.cards.size() == 1);
  CHECK_FALSE(lab.cards[0].copy_floor_gb_per_s.measured());  // no card figures declared
  REQUIRE(lab.cards[0].ratios.size() == 2);                  // its recorded prediction, at both sizes
  REQUIRE(lab.cards[0].claims.size() == 1);
  // No declaration to check it against: shown as recorded, never counted as held (issue 32).
  CHECK(lab.cards[0].claims[0].unchecked == 1);
  CHECK(lab.cards[0].claims[0].held == 0);
  CHECK(lab.cards[0].claims[0].summary() == "recorded, unchecked 1/1");
}

TEST_CASE("a run's identity tells copies of one run from different runs") {
  const labrun::Transcript a = labrun::testing::synthetic_day48_transcript({});
  labrun::Transcript b = a;
  CHECK(labrun::run_identity(a) == labrun::run_identity(b));
  b.started_utc = "2026-12-02T10:00:00Z";
  CHECK(labrun::run_identity(a) != labrun::run_identity(b));
}

TEST_CASE("hundreds of transcripts aggregate quickly", "[.benchmark]") {
  // A benchmark, not a test: run it by hand with `labrun_host_tests "[.benchmark]"`.
  TemporaryDirectory dir;
  const std::vector<labrun::ClaimSpec> claims = day48::make_lab().claims;
  std::vector<labrun::AggregateFile> inputs;
  inputs.reserve(300);
  for (int i = 0; i < 300; ++i) {
    labrun::testing::SyntheticCard card;
    card.device = "Synthetic Card " + std::to_string(i % 12);
    card.started_utc =
        "2026-12-01T10:" + std::to_string(10 + i / 60) + ":" + std::to_string(10 + i % 60 % 50) + "Z";
    card.host = "host-" + std::to_string(i);
    inputs.push_back({write_transcript(dir.path, std::to_string(i) + ".json",
                                       labrun::testing::synthetic_day48_transcript(card, &claims)),
                      false});
  }
  const auto start = std::chrono::steady_clock::now();
  const labrun::Aggregate aggregate = labrun::aggregate_transcripts(inputs, {}, registered);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("aggregated " << aggregate.used() << " of " << inputs.size() << " transcripts in " << seconds << " s");
  CHECK(aggregate.used() == inputs.size());
}
