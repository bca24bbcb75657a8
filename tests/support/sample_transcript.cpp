#include "support/sample_transcript.hpp"

#include <algorithm>
#include <limits>

#include "claims/claims.hpp"
#include "core/environment_contract.hpp"
#include "core/rounds.hpp"
#include "core/sampling.hpp"

namespace labrun::testing {

ByteModel floats(double reads, double writes, int launches) {
  return ByteModel{4 * reads, 4 * writes, launches};
}

CaseResult make_case_result(const std::string& name, const std::string& part, const std::string& size_label,
                            std::uint64_t elements, ByteModel model, std::vector<double> samples_ms) {
  CaseResult result;
  result.name = name;
  result.part = part;
  result.label = name.substr(name.rfind('/') + 1);
  result.size_label = size_label;
  result.elements = elements;
  result.model = model;
  result.warmups = 3;
  result.samples_ms = std::move(samples_ms);
  result.summary = summarize(result.samples_ms);
  result.timing_mode = "hot";
  result.stop_reason = "fixed-count";
  result.sample_sm_clock_mhz.assign(result.samples_ms.size(), std::nullopt);
  return result;
}

CaseResult make_rounds_case(const std::string& name, const std::string& part, const std::string& size_label,
                            std::uint64_t elements, ByteModel model,
                            const std::vector<std::vector<double>>& rounds) {
  CaseResult result = make_case_result(name, part, size_label, elements, model, {});
  for (const std::vector<double>& samples : rounds) {
    RoundSamples round;
    round.samples_ms = samples;
    round.sm_clock_mhz.assign(samples.size(), std::nullopt);
    round.stop_reason = StopReason::kSampleCap;
    round.sampling_seconds = 0.01;
    append_round(result, round);
  }
  return result;
}

Transcript sample_day48_transcript() {
  Transcript t;
  t.provenance = "synthetic";
  t.provenance_note = "built by tests/support/sample_transcript.cpp; never measured";
  t.lab_name = "day48-fusion";
  t.lab_title = "Day 48: kernel fusion and what a launch really costs";
  t.configuration = "full";
  t.seed = 48;
  t.repetitions = 3;
  t.warmups = 3;
  t.command_line = {"labrun", "run", "day48-fusion"};
  t.started_utc = "2026-11-30T05:00:00Z";
  t.finished_utc = "2026-11-30T05:00:09Z";
  t.wall_seconds = 9.25;
  t.environment = {
      FactGroup{"device",
                {Fact::known("name", std::string("Test GPU")), Fact::known("sm_count", std::int64_t{132}),
                 Fact::known("ecc_enabled", true), Fact::unknown("uuid", "not readable in this test")}},
      FactGroup{"run",
                {Fact::known("sm_clock_mhz_start", std::int64_t{1980}),
                 Fact::unknown("sm_clock_mhz_end", "NVML absent")}}};
  // Every other group and fact a measured transcript records, unknown here.
  for (const RequiredFactGroup& required : measured_environment_contract()) {
    const auto group = std::find_if(t.environment.begin(), t.environment.end(),
                                    [&](const FactGroup& g) { return g.name == required.name; });
    FactGroup& facts =
        group != t.environment.end() ? *group : t.environment.emplace_back(FactGroup{required.name, {}});
    for (const std::string& key : required.facts) {
      if (facts.find(key) == nullptr) {
        facts.facts.push_back(Fact::unknown(key, "not set in this sample"));
      }
    }
  }
  t.sizes = {SizeRecord{"lesson", 16777216, "declared by the lab", ""},
             SizeRecord{"card-scaled", std::nullopt, "8 x L2", "smoke configuration"},
             SizeRecord{"correctness", 1049187, "odd", ""}};
  t.predictions = {PredictionRecord{"staged over fused", "day48-fusion/part2/staged-chain",
                                    "day48-fusion/part2/fused-chain", PredictedRatios{3.0, 4.0}}};
  CorrectnessCheck good;
  good.version = "fused-chain";
  good.elements = 1049187;
  good.max_abs_error = 2.4e-7;
  good.max_rel_error = 1.1e-7;
  good.relative_l2_error = 3.5e-8;
  good.tolerance = "|got - expected| <= 1e-5 + 1e-5 * |expected|";
  good.passed = true;
  CorrectnessCheck bad = good;
  bad.version = "broken";
  bad.passed = false;
  bad.mismatches = 2;
  bad.first_bad_index = 1049186;
  bad.first_bad_got = std::numeric_limits<double>::quiet_NaN();
  bad.first_bad_expected = 0.5;
  t.correctness = {good, bad};
  t.bitwise = {BitwiseComparison{"fused-chain", "staged-chain", 1049187, 1000, 2.38e-7}};

  const std::uint64_t n = 16777216;
  const auto floats = [](double r, double w, int launches) { return ByteModel{4 * r, 4 * w, launches}; };
  CaseResult single = make_case_result("day48-fusion/part1/empty-single-thread", "part1", "single", 1,
                                       floats(0, 0, 1), {2.0, 2.5, 3.0});
  single.launches_per_sample = 1000;
  single.attributes["blocks"] = 1;
  t.cases.push_back(single);
  t.cases.push_back(make_case_result("day48-fusion/part2/copy-floor", "part2", "lesson", n, floats(1, 1, 1),
                                     {0.1, 0.1, 0.1}));
  for (const char* stage : {"stage-scale-bias", "stage-gelu", "stage-clamp-range"}) {
    t.cases.push_back(make_case_result(std::string("day48-fusion/part2/") + stage, "part2", "lesson", n,
                                       floats(1, 1, 1), {0.1, 0.1, 0.1}));
  }
  t.cases.push_back(make_case_result("day48-fusion/part2/stage-add-residual", "part2", "lesson", n,
                                     floats(2, 1, 1), {0.15, 0.15, 0.15}));
  t.cases.push_back(make_case_result("day48-fusion/part2/staged-chain", "part2", "lesson", n, floats(5, 4, 4),
                                     {0.45, 0.45, 0.46}));
  t.cases.push_back(make_case_result("day48-fusion/part2/fused-chain", "part2", "lesson", n, floats(2, 1, 1),
                                     {0.15, 0.15, 0.16}));
  // Figures a lab declares (schema 1.8.0): one counted, one a formula that found no value.
  t.cases.back().declared_figures = {
      DeclaredFigure{"global loads", "per element", 2.0, "counted from the source: x and the residual", ""},
      DeclaredFigure{"elements", "10^9/s", std::nullopt, "n / median time, in 10^9 a second",
                     "the case has no time"}};
  t.cases.push_back(make_case_result("day48-fusion/part3/staged-chain", "part3", "sweep", 1024,
                                     floats(5, 4, 4), {0.010, 0.011, 0.012}));
  t.cases.push_back(make_case_result("day48-fusion/part3/fused-chain", "part3", "sweep", 1024,
                                     floats(2, 1, 1), {0.004, 0.005, 0.006}));
  CaseResult wide = make_case_result("day48-fusion/part4/fused-wide-k2", "part4", "lesson", n,
                                     floats(2, 1, 1), {0.15, 0.15, 0.15});
  wide.attributes = {{"blocks", 32768},
                     {"registers", 18},
                     {"local_bytes_per_thread", 0},
                     {"blocks_per_sm", 8},
                     {"theoretical_occupancy", 1.0}};
  t.cases.push_back(wide);
  StabilityCheck stability;
  stability.case_name = "day48-fusion/part2/staged-chain";
  stability.size_label = "lesson";
  stability.elements = n;
  stability.first_median_ms = 0.45;
  stability.second_median_ms = 0.451;
  stability.relative_difference = relative_difference(0.45, 0.451);
  stability.second_samples_ms = {0.451, 0.451, 0.452};
  t.stability = stability;
  ClaimResult claim;
  claim.id = "staged-over-fused-is-the-byte-ratio";
  claim.statement = "staged over fused follows the byte ratio";
  claim.figures = "median time of staged over fused";
  claim.verdict = Verdict::kHeld;
  claim.measured = 3.0;
  claim.expected = 3.0;
  claim.tolerance = "within 10% of 3.00";
  claim.detail = "0.4500 ms / 0.1500 ms = 3.00";
  t.claims = {claim};
  TimingRecord timing;
  timing.min_samples = 3;
  timing.max_samples = 1000;
  timing.target_relative_median_ci = 0.005;
  timing.case_time_limit_s = 0.25;
  timing.batch = 5;
  timing.clock_source = "clock64 over %globaltimer after every sample";
  timing.throttle_threshold_mhz = 1881.0;
  timing.throttle_rule = "below 95% of the peak SM clock (1980 MHz)";
  timing.mode = "hot-gated";
  timing.launch_gate = "each sample queued behind a gate kernel";
  t.timing = timing;
  // One case with clocks read, one sample of them throttled.
  CaseResult& clocked = t.cases[1];
  clocked.stop_reason = "median-converged";
  clocked.timing_mode = "hot-gated";
  clocked.sampling_seconds = 0.012;
  clocked.sample_sm_clock_mhz = {1980.0, 1700.0, std::nullopt};
  clocked.throttled_samples = {1};
  clocked.gate_timeout_samples = {2};
  clocked.median_cycles =
      median_cycles(clocked.samples_ms, clocked.sample_sm_clock_mhz, clocked.launches_per_sample);  // 184,000
  // Every case's three samples were three rounds of one sample each (schema 1.6.0), each round in an
  // order of its own and (1.8.0) a CUDA context of its own; the prediction's ratio and the claim judged
  // over those contexts.
  for (CaseResult& c : t.cases) {
    c.rounds.clear();
    int context = 0;
    for (const double ms : c.samples_ms) {
      c.rounds.push_back(RoundRecord{1, ms, c.stop_reason, c.sampling_seconds / 3.0, context++});
    }
    c.median_interval_ms = case_median_interval(c);
  }
  // 1.8.0: the small fused chain's launch check (as a hot run takes it), its gated samples beside its
  // hot median of 0.005 ms: 60% of it is launch latency.
  CaseResult& small_fused = *std::find_if(t.cases.begin(), t.cases.end(), [](const CaseResult& c) {
    return c.name == "day48-fusion/part3/fused-chain";
  });
  small_fused.launch_check = launch_latency_check({0.002, 0.002, 0.0021}, small_fused.summary.median);
  t.timing->rounds = 3;
  t.timing->rounds_per_context = 1;
  t.timing->contexts = {ContextRecord{0.27, 0.04}, ContextRecord{0.25, 0.03}, ContextRecord{0.26, 0.03}};
  t.timing->round_context = round_context_text(3, 1);
  t.timing->launch_check = "after each round of a small case, 5 gated samples";
  for (int round = 0; round < 3; ++round) {
    t.timing->round_orders.push_back(round_order(t.cases.size(), round, 3, t.seed));
  }
  t.predictions.front().measured = measure_prediction(t, t.predictions.front());
  const ClaimResult judged =
      evaluate_claims({time_ratio_claim(claim.id, claim.statement, "day48-fusion/part2/staged-chain",
                                        "day48-fusion/part2/fused-chain", "lesson", within(3.0, 0.10))},
                      t)
          .front();
  t.claims.front().verdict = judged.verdict;
  t.claims.front().measured_interval = judged.measured_interval;
  t.claims.front().bound_low = judged.bound_low;
  t.claims.front().bound_high = judged.bound_high;
  t.claims.front().verdict_basis = judged.verdict_basis;
  ProfileRecord profile;
  profile.status = "measured";
  profile.detail = "each case's region ran once";
  profile.tool_version = "Version 2025.3.0.0";
  profile.command = {"ncu", "--clock-control", "none"};
  profile.report_file = "profiles/day48-fusion/test-gpu/2026-11-30T05-00-00Z.ncu-rep";
  ProfiledCase profiled;
  profiled.name = "day48-fusion/part2/fused-chain";
  profiled.size_label = "lesson";
  profiled.elements = n;
  profiled.kernels = 1;
  profiled.dram_read_bytes = 8.0 * static_cast<double>(n);
  profiled.dram_write_bytes = 4.0 * static_cast<double>(n);
  profiled.model_bytes_per_element = 12.0;
  profile.cases = {profiled};
  t.profile = profile;
  return t;
}

}  // namespace labrun::testing
