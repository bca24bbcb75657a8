#include "runner/runner.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <regex>

#include "registry/registry.hpp"

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

TEST_CASE("cycles per execution come from each sample's own clock") {
  // 1 ms at 2000 MHz over 10 executions is 200,000 cycles each; unread clocks are left out.
  const auto cycles = labrun::median_cycles({1.0, 2.0, 1.0}, {2000.0, std::nullopt, 1000.0}, 10);
  REQUIRE(cycles.has_value());
  CHECK(*cycles == (200000.0 + 100000.0) / 2.0);
  CHECK_FALSE(labrun::median_cycles({1.0}, {std::nullopt}, 1).has_value());
  CHECK(labrun::throttled_samples({1980.0, 1500.0, std::nullopt, 1880.0}, 1881.0) ==
        std::vector<std::size_t>{1, 3});
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
