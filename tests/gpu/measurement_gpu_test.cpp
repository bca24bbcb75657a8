// The harness's own GPU side: the clock probe, the L2 flush, cold and interleaved sampling, and the
// profiling pass under Nsight Compute. Each test skips without a usable device (and the profile
// test without ncu).

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/atomic_file.hpp"
#include "device/device_info.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "process/process.hpp"
#include "profile/profiler.hpp"
#include "runner/runner.hpp"
#include "support/require_gpu.hpp"
#include "timing/probes.hpp"
#include "timing/sampler.hpp"

namespace fs = std::filesystem;

namespace {

using labrun::testing::require_gpu;

fs::path temporary_directory() {
  std::string pattern = (fs::temp_directory_path() / "labrun-measure-test-XXXXXX").string();
  return mkdtemp(pattern.data());
}

//! A smoke run of day 48's cases that match `patterns`, written under `out`; each test sets its mode
//! and anything else it checks.
labrun::RunOptions day48_smoke_options(const labrun::Lab& lab, std::vector<std::string> patterns,
                                       const fs::path& out) {
  labrun::RunOptions options;
  options.lab_name = lab.name;
  options.case_patterns = std::move(patterns);
  options.out_dir = out;
  options.smoke = true;
  return options;
}

}  // namespace

TEST_CASE("the clock probe reads a plausible SM clock") {
  require_gpu();
  labrun::ClockProbe probe;
  const auto mhz = probe.sm_clock_mhz(nullptr);
  REQUIRE(mhz.has_value());
  const labrun::DeviceSizing sizing = labrun::read_device_sizing();
  CHECK(*mhz > 100.0);
  // Boost may exceed the attribute slightly; a reading far above it would be a broken probe.
  CHECK(*mhz < 1.2 * sizing.sm_clock_peak_mhz);
}

TEST_CASE("a cold sampler flushes before each sample and keeps every sample and clock") {
  require_gpu();
  const labrun::DeviceSizing sizing = labrun::read_device_sizing();
  labrun::L2Flusher flusher(sizing.l2_bytes, labrun::kL2FlushMultiple, sizing.sm_count);
  CHECK(flusher.bytes() >= 2 * sizing.l2_bytes);
  labrun::ClockProbe probe;
  int executions = 0;
  labrun::CaseSampler sampler(
      [&] {
        ++executions;
        flusher.flush(nullptr);
      },
      2, labrun::TimingMode::kCold, &flusher, &probe);
  sampler.warm_up(1);
  sampler.take(4);
  CHECK(executions == 1 + 4 * 2);
  CHECK(sampler.samples_ms().size() == 4);
  CHECK(sampler.sm_clock_mhz().size() == 4);
  for (const double ms : sampler.samples_ms()) {
    CHECK(ms > 0.0);  // each sample timed two flush-sized reads
  }
  CHECK(sampler.elapsed_s() > 0.0);
}

TEST_CASE("a cold sample's SM clock comes from its flush, a plausible clock for every sample") {
  require_gpu();
  const labrun::DeviceSizing sizing = labrun::read_device_sizing();
  labrun::L2Flusher flusher(sizing.l2_bytes, labrun::kL2FlushMultiple, sizing.sm_count);
  // A probe of no spin: its own kernel times a span of 0 ns, which reads as no clock. Every clock
  // below therefore comes from a flush, never from the probe's kernel.
  labrun::ClockProbe probe(2.0 * sizing.sm_clock_peak_mhz, 0);
  CHECK_FALSE(probe.sm_clock_mhz(nullptr).has_value());
  // Directly: the flush's reading is a plausible clock (an idle card may be far below its peak, so
  // the floor is the probe test's).
  flusher.flush(nullptr, probe.flush_clock_words());
  const auto from_flush = probe.clock_mhz_from_flush(nullptr);
  REQUIRE(from_flush.has_value());
  CHECK(*from_flush > 100.0);
  CHECK(*from_flush < 1.2 * sizing.sm_clock_peak_mhz);
  // Through a cold sampler: a clock for every sample.
  labrun::CaseSampler sampler([] {}, 1, labrun::TimingMode::kCold, &flusher, &probe);
  sampler.take(6);
  REQUIRE(sampler.sm_clock_mhz().size() == 6);
  for (const auto& mhz : sampler.sm_clock_mhz()) {
    REQUIRE(mhz.has_value());
    CHECK(*mhz > 100.0);
    CHECK(*mhz < 1.2 * sizing.sm_clock_peak_mhz);
  }
}

TEST_CASE("cold, interleaved sampling records its mode, order and flush in the transcript") {
  require_gpu();
  const fs::path out = temporary_directory();
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options = day48_smoke_options(lab, {"part2/*"}, out);
  options.mode = labrun::TimingMode::kCold;
  options.order = labrun::CaseOrder::kInterleave;
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  const labrun::Transcript back = labrun::transcript_from_text(labrun::read_file(report.json_path));
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->mode == "cold");
  CHECK(back.timing->order == "interleave");
  REQUIRE(back.timing->l2_flush_bytes.has_value());
  CHECK(*back.timing->l2_flush_bytes >= 2 * labrun::read_device_sizing().l2_bytes);
  std::set<std::string> names;
  for (const labrun::CaseResult& c : back.cases) {
    names.insert(c.name);
    CHECK(c.timing_mode == "cold");
    CHECK(c.samples_ms.size() == 3);
    CHECK(c.sample_sm_clock_mhz.size() == 3);
  }
  const auto part2 = std::count_if(lab.cases.begin(), lab.cases.end(),
                                   [](const labrun::CaseSpec& spec) { return spec.part == "part2"; });
  CHECK(names.size() == static_cast<std::size_t>(part2));  // every part-2 case
  fs::remove_all(out);
}

TEST_CASE("labrun profile records each case's DRAM bytes from Nsight Compute") {
  require_gpu();
  if (labrun::find_on_path("ncu").empty()) {
    SKIP("Nsight Compute's ncu is not on PATH");
  }
  const fs::path out = temporary_directory();
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options = day48_smoke_options(lab, {"part2/fused-chain", "part2/copy-memcpy"}, out);
  labrun::ProfileRecord record;
  options.profiler = [&](const std::vector<labrun::ProfileItem>& items, const std::string& stem) {
    labrun::ProfileRequest request;
    request.lab_name = lab.name;
    request.items = items;
    request.seed = options.seed;
    request.report_file = out / (stem + ".ncu-rep");
    // The child is labrun itself, which sits beside the grading child this test knows.
    request.labrun = fs::path(LABRUN_GRADE_CHILD_PATH).parent_path() / "labrun";
    record = labrun::profile_lab(request, [](const std::string&) {});
    return record;
  };
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  INFO(record.detail);
  REQUIRE(record.status == "measured");
  CHECK(fs::exists(out / fs::path(record.report_file).filename()));
  REQUIRE(record.cases.size() == 1);  // cudaMemcpy is not a kernel
  CHECK(record.cases[0].name == "day48-fusion/part2/fused-chain");
  CHECK(record.cases[0].kernels == 1);
  CHECK(record.cases[0].dram_read_bytes > 0.0);
  REQUIRE(report.transcript.profile.has_value());
  CHECK(report.transcript.profile->status == "measured");
  fs::remove_all(out);
}

TEST_CASE("a gated sample holds its launches behind the gate and releases them without a time-out") {
  require_gpu();
  labrun::LaunchGate gate;
  int executions = 0;
  labrun::DeviceBuffer<unsigned long long> clock_result(2);
  // The region: one small kernel per execution (the clock probe, with a 1 us spin).
  labrun::CaseSampler sampler(
      [&] {
        ++executions;
        labrun::launch_clock_probe(clock_result.data(), 1000, nullptr);
      },
      4, labrun::TimingMode::kHotGated, nullptr, nullptr, &gate);
  sampler.warm_up(1);
  sampler.take(10);
  CHECK(executions == 1 + 10 * 4);
  CHECK(sampler.samples_ms().size() == 10);
  CHECK(sampler.gate_timeout_samples().empty());
  for (const double ms : sampler.samples_ms()) {
    CHECK(ms > 0.0);
    CHECK(ms < 50.0);  // far below the gate's 100 ms time-out
  }
}

TEST_CASE("a hot-gated run gates the cases with few launches per sample and samples the others hot") {
  require_gpu();
  const fs::path out = temporary_directory();
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options = day48_smoke_options(lab, {"part1/*", "part2/fused-chain"}, out);
  options.mode = labrun::TimingMode::kHotGated;
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  const labrun::Transcript back = labrun::transcript_from_text(labrun::read_file(report.json_path));
  REQUIRE(back.timing.has_value());
  CHECK(back.timing->mode == "hot-gated");
  CHECK_FALSE(back.timing->launch_gate.empty());
  for (const labrun::CaseResult& c : back.cases) {
    INFO(c.name);
    CHECK(c.timing_mode ==
          (c.launches_per_sample > labrun::kMaxGatedLaunchesPerSample ? "hot" : "hot-gated"));
    CHECK(c.gate_timeout_samples.empty());
  }
  fs::remove_all(out);
}

TEST_CASE("a run pinned with --pin-cpu samples on that CPU and gives the thread its CPUs back") {
  require_gpu();
  cpu_set_t before;
  CPU_ZERO(&before);
  REQUIRE(sched_getaffinity(0, sizeof before, &before) == 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(static_cast<std::size_t>(cpu), &before)) {
    ++cpu;
  }
  REQUIRE(cpu < CPU_SETSIZE);
  const fs::path out = temporary_directory();
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options = day48_smoke_options(lab, {"part2/fused-chain"}, out);
  options.pin_cpu = cpu;
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  cpu_set_t after;
  CPU_ZERO(&after);
  REQUIRE(sched_getaffinity(0, sizeof after, &after) == 0);
  CHECK(CPU_EQUAL(&before, &after));
  const labrun::Transcript back = labrun::transcript_from_text(labrun::read_file(report.json_path));
  REQUIRE(back.timing.has_value());
  REQUIRE(back.timing->host_cpu.has_value());
  CHECK(*back.timing->host_cpu == cpu);
  const labrun::FactGroup* run = back.group("run");
  REQUIRE(run != nullptr);
  for (const char* key : {"host_cpu_start", "host_cpu_end"}) {
    const labrun::Fact* fact = run->find(key);
    REQUIRE(fact != nullptr);
    REQUIRE(fact->value.has_value());
    CHECK(std::get<std::int64_t>(*fact->value) == cpu);  // sampled on the pinned CPU
  }
  fs::remove_all(out);
}
