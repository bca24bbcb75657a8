#include "runner/runner.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <regex>

#include "base/atomic_file.hpp"
#include "evidence/samples_csv.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "registry/registry.hpp"
#include "support/cli_run.hpp"
#include "support/sample_transcript.hpp"
#include "support/temporary_directory.hpp"

using labrun::CaseSpec;
using labrun::resolve_sizes;

namespace {

CaseSpec spec_with(std::vector<labrun::SizeRequest> sizes) {
  CaseSpec spec;
  spec.name = "lab/part/case";
  spec.sizes = std::move(sizes);
  return spec;
}

}  // namespace

TEST_CASE("card-scaled sizes resolve from the card - or are left out with no card size") {
  const CaseSpec spec = spec_with({{"lesson", 16777216}, {"card-scaled", 0}});
  const auto with_card = resolve_sizes(spec, 134217728ull, false);
  REQUIRE(with_card.size() == 2);
  CHECK(with_card[1].label == "card-scaled");
  CHECK(with_card[1].elements == 134217728);
  const auto without = resolve_sizes(spec, std::nullopt, false);
  REQUIRE(without.size() == 1);
  CHECK(without[0].label == "lesson");
}

TEST_CASE("a card-scaled size equal to a declared one is run once") {
  const CaseSpec spec = spec_with({{"lesson", 16777216}, {"card-scaled", 0}});
  CHECK(resolve_sizes(spec, 16777216ull, false).size() == 1);
}

TEST_CASE("smoke caps every size and drops duplicates") {
  const CaseSpec spec = spec_with({{"sweep", 1024}, {"sweep", 1u << 20}, {"sweep", 1u << 22}});
  const auto sizes = resolve_sizes(spec, std::nullopt, true);
  REQUIRE(sizes.size() == 2);
  CHECK(sizes[0].elements == 1024);
  CHECK(sizes[1].elements == labrun::kSmokeMaxElements);
}

TEST_CASE("timestamps are UTC ISO 8601 and make safe file names") {
  const std::string now = labrun::utc_timestamp_now();
  CHECK(std::regex_match(now, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  CHECK(labrun::timestamp_file_stem("2026-11-30T05:40:12Z") == "2026-11-30T05-40-12Z");
}

TEST_CASE("the sampling rule follows the options, and smoke runs take a fixed three samples") {
  labrun::RunOptions options;
  options.repetitions = 25;
  options.max_samples = 400;
  options.target_relative_median_ci = 0.01;
  options.case_time_limit_s = 0.5;
  const labrun::SamplingRule rule = labrun::sampling_rule_for(options);
  CHECK(rule.min_samples == 25);
  CHECK(rule.max_samples == 400);
  CHECK(rule.adaptive());
  options.smoke = true;
  const labrun::SamplingRule smoke = labrun::sampling_rule_for(options);
  CHECK(smoke.min_samples == 3);
  CHECK(smoke.max_samples == 3);
  CHECK_FALSE(smoke.adaptive());
  options.smoke = false;
  options.max_samples = 10;
  CHECK_THROWS_AS(labrun::sampling_rule_for(options), labrun::UsageError);
  options.max_samples = 400;
  options.case_time_limit_s = 0.0;
  CHECK_THROWS_AS(labrun::sampling_rule_for(options), labrun::UsageError);
}

TEST_CASE("a run request is checked whole before any device is touched") {
  using Catch::Matchers::ContainsSubstring;
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  labrun::RunOptions options;
  options.case_patterns = {"part2/*"};
  const labrun::RunPlan plan = labrun::check_run_request(lab, options);
  CHECK_FALSE(plan.selected.empty());
  CHECK(plan.rule.min_samples == options.repetitions);
  options.case_patterns = {"part2/*", "part2/fused-chian"};
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("'part2/fused-chian'"));
  options.case_patterns.clear();
  options.repetitions = 50;
  options.max_samples = 10;
  CHECK_THROWS_AS(labrun::check_run_request(lab, options), labrun::UsageError);
  options.max_samples = 100;
  options.out_dir = std::string(LABRUN_TEST_DATA_DIR) + "/CMakeLists.txt/evidence";  // under a file
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("cannot"));
}

TEST_CASE("rounds and the precision options are checked before any device is touched") {
  using Catch::Matchers::ContainsSubstring;
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  labrun::RunOptions options;
  CHECK(options.rounds == labrun::kDefaultRounds);
  CHECK(options.small_case_batch == 1);  // every precision option is off by default
  CHECK_FALSE(options.pin_cpu.has_value());
  CHECK(options.device_warmup_s == 0.0);
  CHECK_FALSE(options.lock_clocks);
  const labrun::RunPlan plan = labrun::check_run_request(lab, options);
  CHECK(plan.round.max_samples == (options.max_samples + options.rounds - 1) / options.rounds);
  CHECK(plan.rule.max_samples == options.max_samples);
  options.rounds = 1;
  CHECK(labrun::check_run_request(lab, options).round.max_samples == options.max_samples);
  // A smoke run keeps to at most 3 samples: at most 3 rounds of one sample.
  options.rounds = 5;
  options.smoke = true;
  CHECK(labrun::rounds_for(options) == labrun::kSmokeMaxRounds);
  CHECK(labrun::check_run_request(lab, options).round.min_samples == 1);
  options.smoke = false;
  CHECK(labrun::rounds_for(options) == 5);
  options.rounds = 0;
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("--rounds"));
  options.rounds = 3;
  options.small_case_batch = 65;
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("--small-case-batch"));
  options.small_case_batch = 8;
  options.pin_cpu = 100000;
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("--pin-cpu 100000"));
  options.pin_cpu.reset();
  options.device_warmup_s = -1.0;
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("--device-warmup"));
}

TEST_CASE("small cases take 15 contexts in cold and hot-gated timing, the run's rounds in hot") {
  using Catch::Matchers::ContainsSubstring;
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  labrun::RunOptions options;
  CHECK(options.mode == labrun::TimingMode::kHot);
  CHECK(labrun::small_case_rounds_for(options, 5) == 5);  // hot timing keeps its behaviour
  CHECK(labrun::small_case_rounds_for(options, 10) == 10);
  options.mode = labrun::TimingMode::kCold;
  CHECK(labrun::small_case_rounds_for(options, 5) == 15);
  CHECK(labrun::small_case_rounds_for(options, 2) == 15);
  CHECK(labrun::small_case_rounds_for(options, 15) == 15);  // a run of 15 rounds times them in all 15
  CHECK(labrun::small_case_rounds_for(options, 16) == 16);
  options.mode = labrun::TimingMode::kHotGated;
  CHECK(labrun::small_case_rounds_for(options, 10) == 15);
  CHECK(labrun::small_case_rounds_for(options, 20) == 20);
  // Two rounds to a context: the contexts are what is counted.
  options.rounds_per_context = 2;
  CHECK(labrun::small_case_rounds_for(options, 6) == 30);
  options.rounds_per_context = 1;
  const labrun::RunPlan plan = labrun::check_run_request(lab, options);
  CHECK(plan.small_case_rounds == labrun::kSmallCaseContextsHotGated);
  // Their budget is shared between their own rounds.
  CHECK(plan.small_case_round.max_samples ==
        (options.max_samples + plan.small_case_rounds - 1) / plan.small_case_rounds);
  CHECK(plan.round.max_samples == (options.max_samples + plan.rounds - 1) / plan.rounds);
  // Every round in one context: no interval from contexts, no extra rounds.
  options.rounds_per_context = 5;
  CHECK(labrun::small_case_rounds_for(options, 5) == 5);
  options.rounds_per_context = 1;
  CHECK(labrun::small_case_rounds_for(options, 1) == 1);  // --rounds 1: the sampling before rounds
  options.small_case_rounds = 7;
  CHECK(labrun::small_case_rounds_for(options, 5) == 7);
  options.small_case_rounds = 4;
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), ContainsSubstring("--small-case-rounds (4)"));
}

TEST_CASE("the small cases' size limit is 2^16 unless the precision experiment moves it") {
  using Catch::Matchers::ContainsSubstring;
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  labrun::RunOptions options;
  options.mode = labrun::TimingMode::kCold;
  CHECK(labrun::check_run_request(lab, options).small_case_rounds_max_elements == std::uint64_t{65536});
  options.small_case_rounds_max_elements = std::uint64_t{1} << 24;  // the lesson's size
  const labrun::RunPlan lesson = labrun::check_run_request(lab, options);
  CHECK(lesson.small_case_rounds_max_elements == std::uint64_t{1} << 24);
  CHECK(lesson.small_case_rounds == labrun::kSmallCaseContextsCold);  // the count is the same
  options.small_case_rounds_max_elements = 0;
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options),
                    ContainsSubstring("--small-case-rounds-max-elements must be from 1"));
  options.small_case_rounds_max_elements = labrun::kTranscriptIntegerMax + 1;
  CHECK_THROWS_AS(labrun::check_run_request(lab, options), labrun::UsageError);
}

TEST_CASE("the small-case batch applies to small cases of one execution per sample only") {
  labrun::RunOptions options;
  CaseSpec one = spec_with({});
  CaseSpec many = spec_with({});
  many.launches_per_sample = 1000;
  CHECK(labrun::event_pair_batch_for(one, 1024, options) == 1);  // off by default
  options.small_case_batch = 8;
  CHECK(labrun::event_pair_batch_for(one, 1024, options) == 8);
  CHECK(labrun::event_pair_batch_for(one, labrun::kSmallCaseMaxElements, options) == 8);
  CHECK(labrun::event_pair_batch_for(one, labrun::kSmallCaseMaxElements + 1, options) == 1);
  CHECK(labrun::event_pair_batch_for(many, 1, options) == 1);
}

TEST_CASE("the plan stage runs every selected case at each of its sizes and shuffles only when asked") {
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  labrun::RunOptions options;
  options.case_patterns = {"part3/*"};
  const labrun::RunPlan checked = labrun::check_run_request(lab, options);
  const auto declared = labrun::plan_cases(checked.selected, std::nullopt, options);
  std::size_t expected = 0;
  for (const CaseSpec* spec : checked.selected) {
    expected += resolve_sizes(*spec, std::nullopt, false).size();
  }
  REQUIRE(declared.size() == expected);
  CHECK(declared.front().spec == checked.selected.front());
  CHECK(declared.back().spec == checked.selected.back());

  options.order = labrun::CaseOrder::kShuffle;
  const auto shuffled = labrun::plan_cases(checked.selected, std::nullopt, options);
  REQUIRE(shuffled.size() == declared.size());
  const auto key = [](const labrun::PlannedCase& item) {
    return std::make_pair(item.spec->name, item.size.elements);
  };
  std::vector<std::pair<std::string, std::uint64_t>> a;
  std::vector<std::pair<std::string, std::uint64_t>> b;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    a.push_back(key(declared[i]));
    b.push_back(key(shuffled[i]));
  }
  CHECK(a != b);  // the sweep is long enough that seed 48 moves something
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  CHECK(a == b);
  // The same seed plans the same order.
  const auto again = labrun::plan_cases(checked.selected, std::nullopt, options);
  for (std::size_t i = 0; i < shuffled.size(); ++i) {
    CHECK(key(again[i]) == key(shuffled[i]));
  }

  options.order = labrun::CaseOrder::kDeclared;
  options.smoke = true;
  for (const labrun::PlannedCase& item : labrun::plan_cases(checked.selected, std::nullopt, options)) {
    CHECK(item.size.elements <= labrun::kSmokeMaxElements);
  }
}

TEST_CASE(
    "the write stage writes the transcript, its Markdown and the formats asked for - never over a file") {
  using Catch::Matchers::ContainsSubstring;
  namespace fs = std::filesystem;
  const labrun::testing::TemporaryDirectory temporary("labrun-write-stage");
  const fs::path& dir = temporary.path;
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  const labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic, never measured
  labrun::RunOptions options;
  options.formats = {"csv"};
  const labrun::ProgressSink quiet = [](const std::string&) {};
  const labrun::RunReport report = labrun::write_run_files(lab, t, std::nullopt, dir, "stem", options, quiet);
  CHECK(report.json_path == dir / "stem.json");
  CHECK(report.markdown_path == dir / "stem.md");
  REQUIRE(report.format_files == std::vector<fs::path>{dir / "stem.samples.csv"});
  const std::string json_text = labrun::read_file(report.json_path);
  CHECK(labrun::read_file(report.markdown_path) == report.markdown);
  CHECK(labrun::read_file(dir / "stem.samples.csv") ==
        labrun::samples_to_csv(labrun::transcript_from_text(json_text)));
  // `labrun report` reproduces both from the JSON.
  CHECK(labrun::testing::run_labrun({"report", report.json_path.string()}).out == report.markdown);
  CHECK(labrun::testing::run_labrun({"report", report.json_path.string(), "--format", "csv"}).out ==
        labrun::read_file(dir / "stem.samples.csv"));

  // Any existing target refuses the whole write, before anything is written.
  fs::remove(report.json_path);
  fs::remove(report.markdown_path);
  CHECK_THROWS_WITH(labrun::write_run_files(lab, t, std::nullopt, dir, "stem", options, quiet),
                    ContainsSubstring("stem.samples.csv exists; refusing to overwrite it (pass --force"));
  CHECK_FALSE(fs::exists(report.json_path));
  CHECK_FALSE(fs::exists(report.markdown_path));
  // Without --write csv the CSV is not a target, and it is left as it was.
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename() != "stem.samples.csv") {
      fs::remove(entry.path());
    }
  }
  fs::resize_file(dir / "stem.samples.csv", 0);
  options.formats.clear();
  const labrun::RunReport without =
      labrun::write_run_files(lab, t, std::nullopt, dir, "stem", options, quiet);
  CHECK(without.format_files.empty());
  CHECK(fs::file_size(dir / "stem.samples.csv") == 0);
  // --force replaces every file.
  options.formats = {"csv"};
  options.overwrite = true;
  static_cast<void>(labrun::write_run_files(lab, t, std::nullopt, dir, "stem", options, quiet));
  CHECK(labrun::read_file(dir / "stem.samples.csv") ==
        labrun::samples_to_csv(labrun::transcript_from_text(json_text)));
}

TEST_CASE("a --write format is checked before any device is touched") {
  using Catch::Matchers::ContainsSubstring;
  const labrun::Lab& lab = *labrun::registered_labs().find("day48-fusion");
  labrun::RunOptions options;
  options.formats = {"csv", "md", "json"};  // md and json are always written: asking is no error
  CHECK_NOTHROW(labrun::check_run_request(lab, options));
  options.formats = {"csv", "xlsx"};
  CHECK_THROWS_WITH(labrun::check_run_request(lab, options), "unknown format 'xlsx' (known: json, md, csv)");
}
