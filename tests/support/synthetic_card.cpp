#include "support/synthetic_card.hpp"

#include "core/environment_contract.hpp"
#include "support/sample_transcript.hpp"

namespace labrun::testing {
namespace {

constexpr std::uint64_t kLesson = 16777216;
constexpr std::uint64_t kCardScaled = 134217728;

// Three samples around `ms`, so that every median is `ms` exactly.
std::vector<double> samples_around(double ms) {
  return {ms * 0.99, ms, ms * 1.01};
}

}  // namespace

std::vector<FactGroup> synthetic_environment(const SyntheticCard& card) {
  std::vector<FactGroup> environment{
      FactGroup{"device",
                {Fact::known("name", card.device), Fact::known("uuid", card.uuid),
                 Fact::known("pci_bus_id", std::string("0000:00:00.0")),
                 Fact::known("compute_capability", std::string("9.0")),
                 Fact::known("sm_count", std::int64_t{100}), Fact::known("l2_bytes", std::int64_t{50331648}),
                 Fact::known("memory_bytes", std::int64_t{85899345920}),
                 Fact::known("memory_bus_width_bits", std::int64_t{5120}),
                 Fact::known("memory_clock_khz", std::int64_t{2619000}),
                 Fact::known("sm_clock_peak_khz", std::int64_t{1755000}),
                 Fact::known("memory_peak_gb_per_s", card.peak_gb_per_s),
                 Fact::known("max_threads_per_sm", std::int64_t{2048}), Fact::known("ecc_enabled", true)}},
      FactGroup{"driver",
                {Fact::known("driver_version", std::string("000.00")),
                 Fact::known("cuda_driver_api_version", std::string("13.0")),
                 Fact::known("cuda_runtime_version", std::string("13.0"))}},
      FactGroup{"host",
                {Fact::known("hostname", card.host), Fact::known("operating_system", std::string("Linux"))}},
      FactGroup{"lab", {Fact::known("threads_per_block", std::int64_t{256})}},
      FactGroup{"run",
                {Fact::known("sm_clock_mhz_start", std::int64_t{1755}),
                 Fact::known("sm_clock_mhz_end", std::int64_t{1755})}}};
  FactGroup build{"build", {}};
  for (const std::string& key : required_facts_of(build.name)) {
    build.facts.push_back(Fact::unknown(key, "a synthetic transcript has no build"));
  }
  environment.insert(environment.begin() + 2, build);
  return environment;
}

Transcript synthetic_day48_transcript(const SyntheticCard& card, const std::vector<ClaimSpec>* claims) {
  Transcript t;
  t.provenance = "synthetic";
  t.provenance_note = "built by tests/support/synthetic_card.cpp for " + card.device + "; never measured";
  t.lab_name = "day48-fusion";
  t.lab_title = "Day 48: kernel fusion and what a launch really costs";
  t.configuration = card.configuration;
  t.seed = 48;
  t.repetitions = 3;
  t.warmups = 3;
  t.command_line = {"labrun", "run", "day48-fusion"};
  t.started_utc = card.started_utc;
  t.finished_utc = card.started_utc;
  t.wall_seconds = 1.0;
  t.environment = synthetic_environment(card);
  t.sizes = {SizeRecord{"lesson", kLesson, "declared by the lab", ""},
             SizeRecord{"card-scaled", kCardScaled, "8 x L2", ""},
             SizeRecord{"correctness", 1049187, "odd", ""}};
  t.predictions = {PredictionRecord{"staged over fused", "day48-fusion/part2/staged-chain",
                                    "day48-fusion/part2/fused-chain", PredictedRatios{3.0, 4.0}}};
  const auto add = [&](const std::string& name, const std::string& size_label, std::uint64_t elements,
                       ByteModel model, double ms) {
    const std::string part = name.substr(name.find('/') + 1, 5);
    CaseResult c = make_case_result(name, part, size_label, elements, model, samples_around(ms));
    c.timing_mode = card.timing_mode;
    t.cases.push_back(std::move(c));
  };
  CaseResult launch = make_case_result("day48-fusion/part1/empty-single-thread", "part1", "single", 1,
                                       floats(0, 0, 1), samples_around(card.launch_us));
  launch.launches_per_sample = 1000;
  launch.timing_mode = card.timing_mode;
  t.cases.push_back(launch);
  for (const auto& [label, elements] : {std::pair<std::string, std::uint64_t>{"lesson", kLesson},
                                        std::pair<std::string, std::uint64_t>{"card-scaled", kCardScaled}}) {
    const double scale = static_cast<double>(elements) / static_cast<double>(kLesson);
    const double floor_ms = card.copy_floor_ms * scale;
    const double fused_ms = floor_ms * 1.5;  // 12 B against the floor's 8 B, at the floor's GB/s
    add("day48-fusion/part2/copy-floor", label, elements, floats(1, 1, 1), floor_ms);
    add("day48-fusion/part2/copy-vectorized", label, elements, floats(1, 1, 1),
        floor_ms / card.ceiling_over_floor);
    add("day48-fusion/part2/staged-chain", label, elements, floats(5, 4, 4),
        fused_ms * card.staged_over_fused);
    add("day48-fusion/part2/fused-chain", label, elements, floats(2, 1, 1), fused_ms);
  }
  for (std::uint64_t n = 1024; n <= kLesson; n *= 4) {
    const double fused_ms =
        0.005 + card.copy_floor_ms * 1.5 * static_cast<double>(n) / static_cast<double>(kLesson);
    const double ratio = n >= card.settles_from ? card.staged_over_fused : card.small_ratio;
    add("day48-fusion/part3/staged-chain", "sweep", n, floats(5, 4, 4), fused_ms * ratio);
    add("day48-fusion/part3/fused-chain", "sweep", n, floats(2, 1, 1), fused_ms);
  }
  TimingRecord timing;
  timing.mode = card.timing_mode;
  timing.min_samples = 3;
  timing.max_samples = 3;
  timing.batch = 3;
  timing.clock_source = "none: synthetic";
  timing.throttle_rule = "none: synthetic";
  t.timing = timing;
  if (claims != nullptr) {
    t.claims = evaluate_claims(*claims, t);
  }
  return t;
}

}  // namespace labrun::testing
