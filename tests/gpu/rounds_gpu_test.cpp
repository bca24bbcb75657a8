// Rounds on a GPU (schema 1.6.0): every case measured in several rounds, each on the lab's buffers
// allocated again and in an order of its own, every round's samples kept, and the figures' intervals
// and three-valued verdicts recorded; (1.8.0) rounds in CUDA contexts of their own, and hot timing's
// launch check. Each test skips without a usable device.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <functional>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "cases/declared_lab.hpp"
#include "core/sampling.hpp"
#include "evidence/consistency.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "runner/runner.hpp"
#include "support/require_gpu.hpp"
#include "support/temporary_directory.hpp"

using labrun::testing::require_gpu;

namespace {

// Runs day 48's cases matching `patterns` as `configure` sets the options, into a temporary folder,
// and reads back the transcript it wrote.
labrun::Transcript run_rounds_test(const std::vector<std::string>& patterns,
                                   const std::function<void(labrun::RunOptions&)>& configure) {
  const labrun::testing::TemporaryDirectory temporary("labrun-rounds-test");
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options;
  options.lab_name = lab.name;
  options.case_patterns = patterns;
  options.out_dir = temporary.path;
  configure(options);
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  return labrun::transcript_from_text(labrun::read_file(report.json_path));
}

}  // namespace

TEST_CASE("a run of three rounds keeps every round's samples - its orders and intervals", "[rounds]") {
  require_gpu();
  const labrun::Transcript back = run_rounds_test(
      {"part2/staged-chain", "part2/fused-chain", "part2/copy-floor"}, [](labrun::RunOptions& options) {
        options.rounds = 3;
        options.repetitions = 6;
        options.max_samples = 30;
      });
  REQUIRE(back.timing.has_value());
  CHECK(back.rounds_recorded);
  CHECK(back.timing->rounds == 3);
  REQUIRE(back.timing->round_orders.size() == 3);
  for (const std::vector<std::size_t>& order : back.timing->round_orders) {
    CHECK(order.size() == back.cases.size());
  }
  for (const labrun::CaseResult& c : back.cases) {
    REQUIRE(c.rounds.size() == 3);
    std::size_t samples = 0;
    for (const labrun::RoundRecord& r : c.rounds) {
      CHECK(r.samples >= 2);  // at least its share of --reps (6 over 3 rounds)
      CHECK(r.median_ms > 0.0);
      samples += static_cast<std::size_t>(r.samples);
    }
    CHECK(samples == c.samples_ms.size());
    REQUIRE(c.median_interval_ms.has_value());
    CHECK(c.median_interval_ms->low <= c.summary.median);
    CHECK(c.median_interval_ms->high >= c.summary.median);
    CHECK(c.event_pair_batch == 1);
  }
  bool judged = false;
  for (const labrun::ClaimResult& claim : back.claims) {
    if (claim.verdict == labrun::Verdict::kNotMeasured) {
      continue;
    }
    judged = true;
    CHECK((claim.verdict_basis == "interval" || claim.verdict_basis == "rounds"));
  }
  CHECK(judged);
  CHECK_FALSE(back.predictions.front().measured.empty());
}

TEST_CASE("a session renews its buffers - the same inputs - and regions are prepared again", "[rounds]") {
  require_gpu();
  const labrun::Lab lab = day48::make_lab();
  std::unique_ptr<labrun::LabSession> session = lab.open_session(labrun::SessionConfig{1u << 16, 48});
  const labrun::CaseSpec* fused = lab.find_case("day48-fusion/part2/fused-chain");
  REQUIRE(fused != nullptr);
  std::vector<labrun::CorrectnessCheck> before;
  std::vector<labrun::BitwiseComparison> bitwise;
  session->check_correctness({"fused-chain", "staged-chain-graph"}, 4097, 48, before, bitwise);
  session->renew_buffers(std::size_t{2} << 20);
  std::vector<labrun::CorrectnessCheck> after;
  // The graph was captured on the old buffers: it is captured again on the new ones.
  session->check_correctness({"fused-chain", "staged-chain-graph"}, 4097, 48, after, bitwise);
  REQUIRE(before.size() == 2);
  REQUIRE(after.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(after[i].passed);
    CHECK(after[i].max_abs_error == before[i].max_abs_error);  // the same seeded inputs, refilled
  }
  labrun::CaseRegion region = session->prepare_case(*fused, 4096);
  region.run();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

TEST_CASE("a small-case batch times small cases several samples per pair of events", "[rounds]") {
  require_gpu();
  const labrun::Transcript back = run_rounds_test({"part3/fused-chain"}, [](labrun::RunOptions& options) {
    options.smoke = true;
    options.small_case_batch = 4;
  });
  REQUIRE_FALSE(back.cases.empty());
  for (const labrun::CaseResult& c : back.cases) {
    CHECK(c.event_pair_batch == (c.elements <= labrun::kSmallCaseMaxElements ? 4 : 1));
  }
  CHECK(back.timing->small_case_batch == 4);
}

TEST_CASE("rounds run in CUDA contexts of their own - each context's cost recorded (1.8.0)", "[rounds]") {
  require_gpu();
  // Four rounds, two to a context: the graph case is captured again in each new context.
  const labrun::Transcript back =
      run_rounds_test({"part2/fused-chain", "part5/staged-chain-graph", "part1/empty-single-launch"},
                      [](labrun::RunOptions& options) {
                        options.rounds = 4;
                        options.rounds_per_context = 2;
                        options.small_case_rounds = 4;  // every case in the same rounds
                        options.repetitions = 8;
                        options.max_samples = 40;
                        options.mode = labrun::TimingMode::kCold;
                      });
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->rounds_per_context == 2);
  REQUIRE(back.timing->contexts.size() == 2);
  for (const labrun::ContextRecord& context : back.timing->contexts) {
    CHECK(context.create_seconds > 0.0);
    CHECK(context.setup_seconds > 0.0);
  }
  for (const labrun::CaseResult& c : back.cases) {
    REQUIRE(c.rounds.size() == 4);
    CHECK(c.rounds[1].context == 0);
    CHECK(c.rounds[2].context == 1);
    CHECK(labrun::interval_units(c).size() == 2);
    CHECK(c.median_interval_ms.has_value());
    CHECK_FALSE(c.launch_check.has_value());  // cold: no launch check
    for (const double ms : c.samples_ms) {
      CHECK(labrun::event_precision_ms(ms) == ms);  // already at event precision: rounding again keeps it
    }
  }
}

TEST_CASE("hot timing checks small cases for the host's launch latency (1.8.0)", "[rounds]") {
  require_gpu();
  const labrun::Transcript back =
      run_rounds_test({"part1/empty-single-launch", "part3/fused-chain"}, [](labrun::RunOptions& options) {
        options.smoke = true;  // 3 rounds, 3 contexts, sizes up to 2^16
      });
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->contexts.size() == 3);
  CHECK_FALSE(back.timing->launch_check.empty());
  for (const labrun::CaseResult& c : back.cases) {
    REQUIRE(c.launch_check.has_value());  // every smoke size is at most 2^16 elements
    CHECK(c.launch_check->gated_samples_ms.size() ==
          static_cast<std::size_t>(3 * labrun::kLaunchCheckSamplesPerRound));
    CHECK(c.launch_check->gated_median_ms > 0.0);
    CHECK(c.launch_check->host_share >= 0.0);
    CHECK(c.launch_check->host_share < 1.0);
    CHECK(c.launch_check->launch_bound == (c.launch_check->host_share >= labrun::kLaunchBoundShare));
  }
}

TEST_CASE("hot timing checks the cases a claim sets against a bound up to 2^24, and judges it on them too",
          "[rounds]") {
  require_gpu();
  // Part 2's staged and fused chains at the lesson's size (2^24, read by the byte-ratio claims) and the
  // card-scaled size (2^27: not checked, whatever reads them).
  const labrun::Transcript back =
      run_rounds_test({"part2/staged-chain", "part2/fused-chain"}, [](labrun::RunOptions& options) {
        options.rounds = 3;
        options.repetitions = 6;
        options.max_samples = 30;
      });
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->launch_check.find(labrun::kClaimLaunchCheckWords) != std::string::npos);
  int checked = 0;
  for (const labrun::CaseResult& c : back.cases) {
    INFO(c.name << " at " << c.elements);
    CHECK(c.launch_check.has_value() == (c.elements <= labrun::kClaimLaunchCheckMaxElements));
    if (c.launch_check) {
      ++checked;
      CHECK(c.launch_check->gated_samples_ms.size() ==
            static_cast<std::size_t>(3 * labrun::kLaunchCheckSamplesPerRound));
      CHECK(c.launch_check->gated_median_ms > 0.0);
    }
  }
  CHECK(checked == 2);
  const auto lesson_ratio = std::find_if(
      back.claims.begin(), back.claims.end(),
      [](const labrun::ClaimResult& c) { return c.id == "staged-over-fused-is-the-byte-ratio"; });
  REQUIRE(lesson_ratio != back.claims.end());
  CHECK(lesson_ratio->detail.find("on GPU time alone") != std::string::npos);
  // 1.12.0: the transcript written records that reading as a field, which the claim's interval spans.
  REQUIRE(lesson_ratio->gpu_alone.has_value());
  REQUIRE(lesson_ratio->measured_interval.has_value());
  CHECK(lesson_ratio->measured_interval->low <= lesson_ratio->gpu_alone->measured_interval.low);
  CHECK(lesson_ratio->measured_interval->high >= lesson_ratio->gpu_alone->measured_interval.high);
  CHECK(lesson_ratio->detail.find("on GPU time alone (its cases' gated samples): " +
                                  labrun::fixed(lesson_ratio->gpu_alone->measured, 3)) != std::string::npos);
}

TEST_CASE("small cases take more rounds in contexts of their own, large ones keep theirs (1.11.0)",
          "[rounds]") {
  require_gpu();
  // Hot-gated, 2 rounds: the small case (n = 1) takes 4, the last 2 alone in new contexts. (Without
  // --small-case-rounds it would take 15: runner_test checks that default, with no GPU.)
  const labrun::Transcript back =
      run_rounds_test({"part2/fused-chain", "part1/empty-single-launch"}, [](labrun::RunOptions& options) {
        options.rounds = 2;
        options.small_case_rounds = 4;
        options.repetitions = 8;
        options.max_samples = 40;
        options.mode = labrun::TimingMode::kHotGated;
      });
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->small_case_rounds == 4);
  CHECK(back.timing->small_case_rounds_max_elements == labrun::kSmallCaseRoundsMaxElements);
  CHECK(back.timing->small_case_round_max_samples == 10);  // 40 over 4 rounds
  REQUIRE(back.timing->contexts.size() == 4);
  REQUIRE(back.timing->round_orders.size() == 4);
  CHECK(back.timing->round_orders[2].size() == 1);  // the small case alone
  for (const labrun::CaseResult& c : back.cases) {
    INFO(c.name << " n=" << c.elements);
    const bool small = c.elements <= labrun::kSmallCaseRoundsMaxElements;
    REQUIRE(c.rounds.size() == (small ? 4u : 2u));
    REQUIRE(c.units.has_value());
    CHECK(*c.units == (small ? 4 : 2));
    CHECK(c.rounds.back().context == (small ? 3 : 1));
    CHECK(c.median_interval_ms.has_value());
  }
}

TEST_CASE("the small cases' size limit moved to the lesson's size gives those cases the extra rounds too",
          "[rounds]") {
  require_gpu();
  // Hot-gated, 2 rounds, the small cases' 4 (as above), with --small-case-rounds-max-elements 2^24:
  // part 2's fused chain at the lesson's size (2^24) takes 4 rounds, at the card-scaled size (2^27 on
  // an H200) it keeps 2, and the transcript records the limit its readers judge it by.
  constexpr std::uint64_t kLesson = std::uint64_t{1} << 24;
  const labrun::Transcript back =
      run_rounds_test({"part2/fused-chain", "part1/empty-single-launch"}, [](labrun::RunOptions& options) {
        options.rounds = 2;
        options.small_case_rounds = 4;
        options.small_case_rounds_max_elements = kLesson;
        options.repetitions = 8;
        options.max_samples = 40;
        options.mode = labrun::TimingMode::kHotGated;
      });
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->small_case_rounds_max_elements == kLesson);
  REQUIRE(back.timing->contexts.size() == 4);
  int lesson_cases = 0;
  for (const labrun::CaseResult& c : back.cases) {
    INFO(c.name << " n=" << c.elements);
    const bool extra = c.elements <= kLesson;
    lesson_cases += c.elements == kLesson ? 1 : 0;
    REQUIRE(c.rounds.size() == (extra ? 4u : 2u));
    REQUIRE(c.units.has_value());
    CHECK(*c.units == (extra ? 4 : 2));
    CHECK(c.median_interval_ms.has_value());
  }
  CHECK(lesson_cases == 1);
  // The readers' own check (labrun validate's) finds each case's rounds as the recorded limit gives.
  const labrun::FigureCheck check = labrun::check_figures(back, nullptr);
  CHECK_FALSE(check.forged.has_value());
}
