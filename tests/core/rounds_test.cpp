#include "core/rounds.hpp"

#include <algorithm>
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <set>

#include "evidence/schema_validation.hpp"
#include "support/sample_transcript.hpp"

using labrun::testing::floats;
using labrun::testing::make_rounds_case;

TEST_CASE("one round's rule is the run's budget shared between the rounds") {
  labrun::SamplingRule run;
  run.min_samples = 20;
  run.max_samples = 1000;
  run.case_time_limit_s = 0.25;
  run.target_relative_median_ci = 0.005;
  const labrun::SamplingRule one = labrun::round_rule(run, 1);
  CHECK(one.min_samples == 20);
  CHECK(one.max_samples == 1000);
  CHECK(one.target_relative_median_ci == 0.005);
  const labrun::SamplingRule five = labrun::round_rule(run, 5);
  CHECK(five.min_samples == labrun::kMinSamplesPerAdaptiveRound);  // 20 / 5 = 4, raised to 6
  CHECK(five.max_samples == 200);
  CHECK(five.case_time_limit_s == Catch::Approx(0.05));
  CHECK(five.target_relative_median_ci == Catch::Approx(0.005 * std::sqrt(5.0)));
  CHECK(labrun::round_rule(run, 3).max_samples == 334);  // rounded up
  // A fixed count is shared too, and needs no floor: no interval is checked.
  run.target_relative_median_ci = 0.0;
  const labrun::SamplingRule fixed = labrun::round_rule(run, 5);
  CHECK(fixed.min_samples == 4);
  CHECK(fixed.target_relative_median_ci == 0.0);
  CHECK_THROWS(labrun::round_rule(run, 0));
}

TEST_CASE("each round has a seeded order of its own; one round keeps the plan's") {
  CHECK(labrun::round_order(4, 0, 1, 48) == std::vector<std::size_t>{0, 1, 2, 3});
  const auto first = labrun::round_order(20, 0, 5, 48);
  const auto second = labrun::round_order(20, 1, 5, 48);
  CHECK(first != second);
  CHECK(first == labrun::round_order(20, 0, 5, 48));  // the same seed, the same order
  CHECK(first != labrun::round_order(20, 0, 5, 49));  // another seed, another order
  std::vector<std::size_t> sorted = second;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == labrun::round_order(20, 0, 1, 48));  // a permutation of every case
}

TEST_CASE("rounds append their samples, and the case's median gets an interval from their spread") {
  labrun::CaseResult c =
      make_rounds_case("lab/p2/fused", "p2", "lesson", 1024, floats(2, 1, 1), {{1.0, 1.0, 1.0}});
  CHECK(c.rounds.size() == 1);
  CHECK_FALSE(c.median_interval_ms.has_value());  // one round: none
  labrun::RoundSamples second;
  second.samples_ms = {1.2, 1.2};
  second.sm_clock_mhz = {1980.0, std::nullopt};
  second.gate_timeout_samples = {1};
  second.stop_reason = labrun::StopReason::kTimeLimit;
  second.sampling_seconds = 0.5;
  labrun::append_round(c, second);
  CHECK(c.samples_ms == std::vector<double>{1.0, 1.0, 1.0, 1.2, 1.2});
  CHECK(c.gate_timeout_samples == std::vector<std::size_t>{4});  // shifted past round 1's samples
  CHECK(c.rounds[1].samples == 2);
  CHECK(c.rounds[1].median_ms == Catch::Approx(1.2));
  CHECK(c.summary.count == 5);
  CHECK(c.sampling_seconds == Catch::Approx(0.51));
  CHECK(c.stop_reason == "sample-cap");  // one each: the earliest round's
  REQUIRE(c.median_interval_ms.has_value());
  // point 1.0 (median of all samples); logs 0 and ln 1.2, s = ln 1.2 / sqrt 2, t(1) = 12.706.
  const double half = 12.706205 * (std::log(1.2) / std::sqrt(2.0)) / std::sqrt(2.0);
  CHECK(c.median_interval_ms->low == Catch::Approx(std::exp(-half)));
  CHECK(c.median_interval_ms->high == Catch::Approx(std::exp(half)));
  CHECK(labrun::round_medians(c) == std::vector<double>{1.0, 1.2});
}

TEST_CASE("a transcript seen one round at a time") {
  labrun::Transcript t;
  t.cases.push_back(
      make_rounds_case("lab/p2/a", "p2", "lesson", 8, floats(1, 1, 1), {{1.0, 3.0}, {2.0}, {5.0, 6.0, 7.0}}));
  t.cases.back().throttled_samples = {1, 4};
  t.cases.push_back(make_rounds_case("lab/p2/b", "p2", "lesson", 8, floats(1, 1, 1), {{4.0}, {4.0}}));
  CHECK(labrun::round_count(t) == 2);  // the fewest of any case
  const labrun::Transcript third = labrun::round_view(t, 2);
  REQUIRE(third.cases.size() == 1);  // b has no third round
  CHECK(third.cases[0].samples_ms == std::vector<double>{5.0, 6.0, 7.0});
  CHECK(third.cases[0].summary.median == 6.0);
  CHECK(third.cases[0].throttled_samples == std::vector<std::size_t>{1});
  CHECK(third.cases[0].rounds.size() == 1);
  const labrun::Transcript first = labrun::round_view(t, 0);
  CHECK(first.cases[0].samples_ms == std::vector<double>{1.0, 3.0});
  CHECK(first.cases[0].throttled_samples == std::vector<std::size_t>{1});
  CHECK(first.cases[1].central_ms() == 4.0);
  labrun::Transcript old;
  old.cases.push_back(
      labrun::testing::make_case_result("lab/p2/a", "p2", "lesson", 8, floats(1, 1, 1), {1.0}));
  CHECK(labrun::round_count(old) == 1);  // a transcript without rounds is one round
  CHECK(labrun::round_view(old, 0).cases.size() == 1);
}

TEST_CASE("a measured ratio's interval pairs the two cases round by round") {
  // Both cases drift together from round to round: their ratio does not move, so it is tight.
  const labrun::CaseResult slow =
      make_rounds_case("lab/p2/s", "p2", "lesson", 8, floats(3, 1, 1), {{3.0}, {3.3}, {3.6}});
  const labrun::CaseResult fast =
      make_rounds_case("lab/p2/f", "p2", "lesson", 8, floats(1, 1, 1), {{1.0}, {1.1}, {1.2}});
  const labrun::PredictionMeasurement m = labrun::measured_ratio(slow, fast);
  CHECK(m.ratio == Catch::Approx(3.0));
  REQUIRE(m.interval.has_value());
  CHECK(m.interval->low == Catch::Approx(3.0));
  CHECK(m.interval->high == Catch::Approx(3.0));
  const labrun::CaseResult one = make_rounds_case("lab/p2/f", "p2", "lesson", 8, floats(1, 1, 1), {{1.0}});
  CHECK_FALSE(labrun::measured_ratio(slow, one).interval.has_value());  // one shared round: none
}

TEST_CASE("rounds are grouped into CUDA contexts, rounds_per_context to each (1.8.0)") {
  CHECK(labrun::context_of_round(0, 1) == 0);
  CHECK(labrun::context_of_round(4, 1) == 4);
  CHECK(labrun::context_of_round(5, 4) == 1);
  CHECK_FALSE(labrun::round_starts_context(0, 1));  // the first context is the run's own
  CHECK(labrun::round_starts_context(1, 1));
  CHECK_FALSE(labrun::round_starts_context(3, 4));
  CHECK(labrun::round_starts_context(4, 4));
  CHECK(labrun::contexts_for(5, 1) == 5);
  CHECK(labrun::contexts_for(12, 4) == 3);
  CHECK(labrun::contexts_for(5, 4) == 2);  // the last holds one round
  CHECK(labrun::contexts_for(5, 5) == 1);
  CHECK(labrun::round_context_text(5, 5) == "every round in the run's one CUDA context");
  CHECK(labrun::round_context_text(5, 1).rfind("1 round per CUDA context, 5 contexts", 0) == 0);
}

namespace {

// A case of rounds whose samples are given, each round in the context `contexts` names.
labrun::CaseResult case_in_contexts(const std::vector<std::vector<double>>& rounds,
                                    const std::vector<int>& contexts) {
  labrun::CaseResult c = make_rounds_case("lab/p3/chain", "p3", "sweep", 1024, floats(2, 1, 1), {});
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    labrun::RoundSamples round;
    round.samples_ms = rounds[r];
    round.sm_clock_mhz.assign(rounds[r].size(), std::nullopt);
    round.context = contexts[r];
    labrun::append_round(c, round);
  }
  return c;
}

}  // namespace

TEST_CASE("an interval is made of the contexts: each context's rounds pooled, C - 1 degrees of freedom") {
  // Two contexts of two rounds each: the rounds inside a context agree, the contexts do not.
  const labrun::CaseResult c =
      case_in_contexts({{1.0, 1.0}, {1.02, 1.02}, {2.0, 2.0}, {2.04, 2.04}}, {0, 0, 1, 1});
  CHECK(c.rounds[2].context == 1);
  CHECK(labrun::interval_units(c) == std::vector<std::vector<std::size_t>>{{0, 1}, {2, 3}});
  // Each context's median over its 4 samples: 1.01 and 2.02.
  const std::vector<double> medians = labrun::unit_medians(c);
  REQUIRE(medians.size() == 2);
  CHECK(medians[0] == Catch::Approx(1.01));
  CHECK(medians[1] == Catch::Approx(2.02));
  REQUIRE(c.median_interval_ms.has_value());
  // s = sd of (ln 1.01, ln 2.02) = ln 2 / sqrt 2; t(1) = 12.706, over sqrt 2 contexts.
  const double half = 12.706205 * (std::log(2.0) / std::sqrt(2.0)) / std::sqrt(2.0);
  CHECK(c.median_interval_ms->high == Catch::Approx(c.summary.median * std::exp(half)));
  // The same rounds with no context recorded (before 1.8.0) are four units, as their runs judged them.
  labrun::CaseResult old = c;
  for (labrun::RoundRecord& r : old.rounds) {
    r.context.reset();
  }
  CHECK(labrun::interval_units(old).size() == 4);
  CHECK(labrun::unit_medians(old) == labrun::round_medians(old));
  // Every round in one context: one unit, no interval.
  const labrun::CaseResult one = case_in_contexts({{1.0}, {1.5}, {2.0}}, {0, 0, 0});
  CHECK(labrun::interval_units(one).size() == 1);
  CHECK_FALSE(one.median_interval_ms.has_value());
}

TEST_CASE("a transcript seen one context at a time, and a ratio paired by context") {
  labrun::Transcript t;
  t.cases.push_back(case_in_contexts({{3.0}, {3.1}, {3.6}, {3.7}}, {0, 0, 1, 1}));
  t.cases.back().name = "lab/p3/slow";
  t.cases.push_back(case_in_contexts({{1.0}, {1.0}, {1.2}, {1.2}}, {0, 0, 1, 1}));
  t.cases.back().name = "lab/p3/fast";
  CHECK(labrun::unit_count(t) == 2);
  CHECK(labrun::round_count(t) == 4);
  const labrun::Transcript second = labrun::unit_view(t, 1);
  REQUIRE(second.cases.size() == 2);
  CHECK(second.cases[0].samples_ms == std::vector<double>{3.6, 3.7});
  CHECK(second.cases[0].rounds.size() == 2);
  CHECK_FALSE(second.cases[0].median_interval_ms.has_value());
  CHECK(labrun::unit_view(t, 2).cases.empty());
  // Each context's ratio: 3.05 / 1.0 and 3.65 / 1.2 (3.04): paired, the contexts' shared offset cancels.
  const labrun::PredictionMeasurement m = labrun::measured_ratio(t.cases[0], t.cases[1]);
  REQUIRE(m.interval.has_value());
  CHECK(m.interval->low > 2.9);
  CHECK(m.interval->high < 3.2);
}

TEST_CASE("a case's and a prediction's intervals carry the run's process allowance") {
  // One round in each of three contexts, appended with no allowance and with k = 1.
  const auto in_contexts = [](const std::vector<std::vector<double>>& rounds, double allowance) {
    labrun::CaseResult c = make_rounds_case("lab/p3/chain", "p3", "sweep", 1024, floats(2, 1, 1), {});
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      labrun::RoundSamples round;
      round.samples_ms = rounds[r];
      round.sm_clock_mhz.assign(rounds[r].size(), std::nullopt);
      round.context = static_cast<int>(r);
      labrun::append_round(c, round, allowance);
    }
    return c;
  };
  const std::vector<std::vector<double>> slow_rounds{{1.0, 1.0}, {1.1, 1.1}, {0.95, 0.95}};
  const labrun::CaseResult c = in_contexts(slow_rounds, 0.0);
  const labrun::CaseResult wide = in_contexts(slow_rounds, 1.0);
  REQUIRE(c.median_interval_ms.has_value());
  REQUIRE(wide.median_interval_ms.has_value());
  // sqrt(1 / 3 + 1) / sqrt(1 / 3) = 2: the half width doubles on the log scale.
  const double half = std::log(c.median_interval_ms->high / c.summary.median);
  CHECK(std::log(wide.median_interval_ms->high / wide.summary.median) == Catch::Approx(half * 2.0));
  CHECK(labrun::case_median_interval(wide, 1.0)->low == wide.median_interval_ms->low);
  // A prediction reads the allowance from the transcript's timing; none without one.
  labrun::Transcript t;
  t.cases = {wide, in_contexts({{0.5, 0.5}, {0.6, 0.6}, {0.5, 0.5}}, 1.0)};
  t.cases[0].name = "lab/p3/slow";
  t.cases[1].name = "lab/p3/fast";
  labrun::PredictionRecord p;
  p.slower_case = "lab/p3/slow";
  p.faster_case = "lab/p3/fast";
  CHECK(labrun::process_allowance_of(t) == 0.0);
  const auto plain = labrun::measure_prediction(t, p);
  t.timing = labrun::TimingRecord{};
  t.timing->process_allowance = 1.0;
  const auto widened = labrun::measure_prediction(t, p);
  REQUIRE(plain.size() == 1);
  REQUIRE(widened.size() == 1);
  REQUIRE(plain[0].interval.has_value());
  REQUIRE(widened[0].interval.has_value());
  CHECK(std::log(widened[0].interval->high / widened[0].ratio) ==
        Catch::Approx(std::log(plain[0].interval->high / plain[0].ratio) * 2.0));
}

TEST_CASE("a claim's process term by the cases it reads: launch rate, host-bound, GPU-bound") {
  labrun::CaseResult gpu;
  gpu.elements = 16384;
  labrun::CaseResult rate;  // 1000 empty launches back to back of one thread: the host's launch rate
  rate.elements = 1;
  rate.launches_per_sample = 1000;
  labrun::CaseResult grid = rate;  // 1000 launches of a large grid: the GPU's time
  grid.elements = std::uint64_t{1} << 24;
  labrun::CaseResult latency;  // a hot case its launch check found launch-bound
  latency.elements = 1024;
  latency.launch_check = labrun::LaunchLatencyCheck{};
  latency.launch_check->launch_bound = true;
  CHECK(labrun::times_host_launch_rate(rate));
  CHECK_FALSE(labrun::times_host_launch_rate(grid));
  CHECK_FALSE(labrun::times_host_launch_rate(latency));
  CHECK(labrun::host_bound_case(latency));
  CHECK_FALSE(labrun::host_bound_case(gpu));
  CHECK_FALSE(labrun::host_bound_case(grid));

  const auto term = [](std::vector<const labrun::CaseResult*> cases, double recorded) {
    return labrun::claim_process_term(cases, recorded);
  };
  CHECK(term({&gpu, &grid}, 1.0).allowance == labrun::kGpuBoundProcessAllowance);
  CHECK(term({&gpu, &grid}, 1.0).floor == 0.0);
  CHECK(term({&gpu, &grid}, 0.4).allowance == 0.4);  // never more than the run recorded
  CHECK(term({&gpu, &latency}, 1.0).allowance == 1.0);
  CHECK(term({&gpu, &latency}, 1.0).floor == 0.0);
  CHECK(term({&gpu, &rate}, 1.0).allowance == 1.0);
  CHECK(term({&gpu, &rate}, 1.0).floor == labrun::kLaunchRateProcessFloor);
  // A run that allows for no process level (one context, or a transcript before 1.9.0): none at all.
  CHECK(term({&gpu, &rate}, 0.0).allowance == 0.0);
  CHECK(term({&gpu, &rate}, 0.0).floor == 0.0);
  CHECK(term({}, 1.0).allowance == labrun::kGpuBoundProcessAllowance);
}

TEST_CASE("hot timing's launch check: gated samples beside the hot median, launch-bound from half") {
  const labrun::LaunchLatencyCheck bound = labrun::launch_latency_check({0.002, 0.003, 0.002}, 0.005);
  CHECK(bound.gated_median_ms == 0.002);
  CHECK(bound.host_share == Catch::Approx(0.6));
  CHECK(bound.launch_bound);
  const labrun::LaunchLatencyCheck gpu = labrun::launch_latency_check({0.0045}, 0.005);
  CHECK(gpu.host_share == Catch::Approx(0.1));
  CHECK_FALSE(gpu.launch_bound);
  // A gated median above the hot one (noise at large n) is no launch latency at all.
  CHECK(labrun::launch_latency_check({0.0051}, 0.005).host_share == 0.0);
  CHECK(labrun::launch_latency_check({0.001}, 0.0).host_share == 0.0);
  // append_round gathers each round's gated samples and judges them against the case's median.
  labrun::CaseResult c = make_rounds_case("lab/p3/chain", "p3", "sweep", 1024, floats(2, 1, 1), {});
  for (const double gated : {0.002, 0.0022}) {
    labrun::RoundSamples round;
    round.samples_ms = {0.005, 0.005};
    round.sm_clock_mhz = {std::nullopt, std::nullopt};
    round.launch_check_ms = {gated};
    labrun::append_round(c, round);
  }
  REQUIRE(c.launch_check.has_value());
  CHECK(c.launch_check->gated_samples_ms == std::vector<double>{0.002, 0.0022});
  CHECK(c.launch_check->gated_median_ms == Catch::Approx(0.0021));
  CHECK(c.launch_check->launch_bound);
  // A case checked in no round has no launch check.
  CHECK_FALSE(
      make_rounds_case("lab/p2/x", "p2", "lesson", 8, floats(1, 1, 1), {{1.0}}).launch_check.has_value());
}

TEST_CASE("a run's case figure is the geometric mean of its contexts' medians, each context counted once") {
  // Synthetic: context 0 took 7 samples at 1.0 ms, contexts 1 and 2 took 2 samples each at 1.21 and
  // 1.1 ms. The median of all 11 samples is 1.0 (context 0 outweighs the others); the geometric mean
  // of the three contexts' medians is (1.0 x 1.21 x 1.1)^(1/3) = (1.1^3)^(1/3) = 1.1.
  const auto in_contexts = [](labrun::CasePoint point) {
    labrun::CaseResult c = make_rounds_case("lab/p3/chain", "p3", "sweep", 1024, floats(2, 1, 1), {});
    const std::vector<std::vector<double>> rounds{
        {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {1.21, 1.21}, {1.1, 1.1}};
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      labrun::RoundSamples round;
      round.samples_ms = rounds[r];
      round.sm_clock_mhz.assign(rounds[r].size(), std::nullopt);
      round.context = static_cast<int>(r);
      labrun::append_round(c, round, 1.0, point);
    }
    return c;
  };
  const labrun::CaseResult pooled = in_contexts(labrun::CasePoint::kPooledMedian);
  const labrun::CaseResult geometric = in_contexts(labrun::CasePoint::kUnitGeometricMean);
  // Pooled (every transcript before 1.10.0): no figure recorded, the median of all samples.
  CHECK_FALSE(pooled.figure_ms.has_value());
  CHECK(pooled.central_ms() == Catch::Approx(1.0));
  // The run's: recorded, and what every figure and the interval read.
  REQUIRE(geometric.figure_ms.has_value());
  CHECK(*geometric.figure_ms == Catch::Approx(1.1));
  CHECK(geometric.central_ms() == Catch::Approx(1.1));
  CHECK(geometric.summary.median == Catch::Approx(1.0));  // the samples' summary is unchanged
  CHECK(labrun::unit_geometric_mean(pooled) == Catch::Approx(1.1));
  // The log-scale t-interval is centred on the geometric mean: symmetric around it in logs.
  REQUIRE(geometric.median_interval_ms.has_value());
  CHECK(std::log(geometric.median_interval_ms->high / 1.1) ==
        Catch::Approx(std::log(1.1 / geometric.median_interval_ms->low)));
  REQUIRE(pooled.median_interval_ms.has_value());
  CHECK(pooled.median_interval_ms->high / pooled.median_interval_ms->low ==
        Catch::Approx(geometric.median_interval_ms->high / geometric.median_interval_ms->low));
  CHECK(pooled.median_interval_ms->low < geometric.median_interval_ms->low);
  // A prediction's point is the ratio of the two figures.
  labrun::CaseResult faster = geometric;
  for (double& s : faster.samples_ms) {
    s /= 2.0;
  }
  faster.figure_ms = *geometric.figure_ms / 2.0;
  CHECK(labrun::measured_ratio(geometric, faster).ratio == Catch::Approx(2.0));
  // One context's view: that context's samples, and its median as its figure.
  labrun::Transcript t;
  t.cases = {geometric};
  const labrun::Transcript second = labrun::unit_view(t, 1);
  REQUIRE(second.cases.size() == 1);
  CHECK_FALSE(second.cases[0].figure_ms.has_value());
  CHECK(second.cases[0].central_ms() == Catch::Approx(1.21));
}

TEST_CASE(
    "a case of one context, or with a median that is not positive, keeps the pooled median as its figure") {
  labrun::CaseResult one = make_rounds_case("lab/p3/chain", "p3", "sweep", 1024, floats(2, 1, 1), {});
  labrun::RoundSamples round;
  round.samples_ms = {2.0, 3.0, 4.0};
  round.sm_clock_mhz.assign(3, std::nullopt);
  round.context = 0;
  labrun::append_round(one, round, 1.0, labrun::CasePoint::kUnitGeometricMean);
  REQUIRE(one.figure_ms.has_value());
  CHECK(*one.figure_ms == Catch::Approx(3.0));
  CHECK_FALSE(one.median_interval_ms.has_value());
  round.samples_ms = {0.0, 0.0, 0.0};
  round.context = 1;
  labrun::append_round(one, round, 1.0, labrun::CasePoint::kUnitGeometricMean);
  CHECK(*one.figure_ms == Catch::Approx(one.summary.median));
}

TEST_CASE(
    "small cases take more rounds from 1.11.0, and a ratio over unequal contexts pairs those both ran in") {
  labrun::TimingRecord timing;
  timing.rounds = 5;
  CHECK_FALSE(labrun::takes_small_case_rounds(1024, timing));  // before 1.11.0: none records them
  CHECK(labrun::rounds_for_case(1024, timing) == 5);
  timing.small_case_rounds = 10;
  timing.small_case_rounds_max_elements = labrun::kSmallCaseRoundsMaxElements;
  CHECK(labrun::rounds_for_case(65536, timing) == 10);
  CHECK(labrun::rounds_for_case(65537, timing) == 5);
  CHECK(labrun::small_case_rounds_text(5, 5, 1, 65536).empty());
  CHECK(labrun::small_case_rounds_text(5, 10, 1, 65536)
            .rfind("cases of at most 65536 elements take 10 rounds (10 contexts), the others 5", 0) == 0);

  // A small case in four contexts and a large one in the first two of them: the ratio's point is each
  // case's own figure (geometric means over 4 and 2 contexts), its interval from the 2 shared contexts.
  labrun::Transcript t;
  t.cases.push_back(case_in_contexts({{2.0}, {2.2}, {2.4}, {2.6}}, {0, 1, 2, 3}));
  t.cases.back().name = "lab/p3/small";
  t.cases.push_back(case_in_contexts({{1.0}, {1.05}}, {0, 1}));
  t.cases.back().name = "lab/p3/large";
  t.cases.back().elements = 1u << 24;
  for (labrun::CaseResult& c : t.cases) {
    c.figure_ms = labrun::unit_geometric_mean(c);  // as a run records it
  }
  CHECK(labrun::unit_count(t) == 2);
  CHECK(labrun::most_units(t) == 4);
  CHECK(labrun::shared_units({&t.cases[0], &t.cases[1]}) == 2);
  CHECK(labrun::shared_units({&t.cases[0]}) == 4);
  CHECK_FALSE(labrun::shared_units({}).has_value());
  CHECK(labrun::unit_view(t, 3).cases.size() == 1);  // only the small case ran in the fourth context
  const labrun::PredictionMeasurement m = labrun::measured_ratio(t.cases[0], t.cases[1]);
  const double small = std::exp((std::log(2.0) + std::log(2.2) + std::log(2.4) + std::log(2.6)) / 4.0);
  const double large = std::sqrt(1.0 * 1.05);
  CHECK(m.ratio == Catch::Approx(small / large));
  REQUIRE(m.interval.has_value());
  // Paired ratios 2.0 and 2.2 / 1.05: s of their logs, t(1) = 12.706, over sqrt 2.
  const double s = std::fabs(std::log(2.0) - std::log(2.2 / 1.05)) / std::sqrt(2.0);
  const double half = 12.706205 * s / std::sqrt(2.0);
  CHECK(m.interval->low == Catch::Approx(m.ratio * std::exp(-half)));
  CHECK(m.interval->high == Catch::Approx(m.ratio * std::exp(half)));
  // Either order: the same shared contexts.
  REQUIRE(labrun::measured_ratio(t.cases[1], t.cases[0]).interval.has_value());
}

TEST_CASE("GPU time alone: a case's gated samples read round by round as its samples, in its contexts") {
  // Synthetic: a hot case of 3 rounds, each in a context of its own, with 2 gated samples a round.
  labrun::CaseResult hot = make_rounds_case("lab/p/a", "p", "lesson", 1 << 24, floats(1, 1, 1),
                                            {{0.070, 0.071}, {0.072, 0.073}, {0.071, 0.070}});
  for (std::size_t r = 0; r < hot.rounds.size(); ++r) {
    hot.rounds[r].context = static_cast<int>(r);
  }
  hot.figure_ms = labrun::unit_geometric_mean(hot);
  hot.timing_mode = "hot";
  hot.launch_check =
      labrun::launch_latency_check({0.065, 0.066, 0.067, 0.066, 0.064, 0.065}, hot.summary.median);
  labrun::CaseResult unchecked =
      make_rounds_case("lab/p/b", "p", "lesson", 1 << 24, floats(1, 1, 1), {{0.2}, {0.2}, {0.2}});
  labrun::CaseResult uneven = hot;  // 5 gated samples over 3 rounds: not as the runner takes them
  uneven.name = "lab/p/c";
  uneven.launch_check->gated_samples_ms.pop_back();
  labrun::Transcript t;
  t.cases = {hot, unchecked, uneven};
  CHECK(labrun::has_gated_reading(hot));
  CHECK_FALSE(labrun::has_gated_reading(unchecked));
  CHECK_FALSE(labrun::has_gated_reading(uneven));

  const labrun::Transcript gated = labrun::gated_reading(t);
  const labrun::CaseResult& a = gated.cases[0];
  CHECK(a.samples_ms == std::vector<double>{0.065, 0.066, 0.067, 0.066, 0.064, 0.065});
  REQUIRE(a.rounds.size() == 3);
  CHECK(a.rounds[1].samples == 2);
  CHECK(a.rounds[1].median_ms == Catch::Approx(0.0665));
  CHECK(a.rounds[2].context == 2);
  CHECK(a.timing_mode == "hot-gated");
  CHECK_FALSE(a.launch_check.has_value());
  REQUIRE(a.figure_ms.has_value());  // the figure as the run computed its own: the contexts' geometric mean
  CHECK(*a.figure_ms == Catch::Approx(std::cbrt(0.0655 * 0.0665 * 0.0645)));
  REQUIRE(a.median_interval_ms.has_value());
  CHECK(a.median_interval_ms->contains(*a.figure_ms));
  // The others are read as they are.
  CHECK(gated.cases[1].samples_ms == unchecked.samples_ms);
  CHECK(gated.cases[2].samples_ms == uneven.samples_ms);
  CHECK(gated.cases[2].launch_check.has_value());
}

TEST_CASE("only a hot run that says so judges its claims on GPU time alone too") {
  labrun::Transcript t;
  t.timing = labrun::TimingRecord{};
  t.timing->mode = "hot";
  t.timing->interval_method = labrun::interval_method_text(1.0);
  CHECK(labrun::claims_read_gpu_alone(t));
  t.timing->mode = "cold";
  CHECK_FALSE(labrun::claims_read_gpu_alone(t));
  t.timing->mode = "hot";
  t.timing->interval_method = "95% intervals from between-context variation (an older run)";
  CHECK_FALSE(labrun::claims_read_gpu_alone(t));
  t.timing.reset();
  CHECK_FALSE(labrun::claims_read_gpu_alone(t));
}

TEST_CASE("the method texts every run records leave room under a transcript's string limit") {
  // Every reader refuses a transcript with a string longer than kTranscriptStringMaxBytes, the run's
  // own among them, so a rule whose words push one of these texts past it would leave every run
  // unreadable. interval_method grew to 2,098 bytes with the hot GPU-alone rule (2026-12-05): a new
  // rule must keep each within three quarters of the limit, or say less.
  constexpr std::size_t kRoom = labrun::kTranscriptStringMaxBytes * 3 / 4;
  CHECK(labrun::interval_method_text(1.0).size() <= kRoom);
  CHECK(labrun::interval_method_text(0.0).size() <= kRoom);
  const std::string contexts = labrun::round_context_text(5, 1) + "; " +
                               labrun::small_case_rounds_text(5, 15, 1, std::uint64_t{1} << 24);
  CHECK(contexts.size() <= kRoom);
}
