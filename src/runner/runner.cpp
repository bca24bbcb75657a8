#include "runner/runner.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "core/sizes.hpp"
#include "core/statistics.hpp"
#include "core/wall_clock.hpp"
#include "device/device_info.hpp"
#include "evidence/roofline.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "evidence/writer.hpp"
#include "plots/draw_plots.hpp"
#include "registry/registry.hpp"
#include "timeline/trace_cases.hpp"
#include "timing/device_context.hpp"
#include "timing/nvtx_range.hpp"
#include "timing/sampler.hpp"

namespace labrun {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> versions_to_check(const std::vector<const CaseSpec*>& cases) {
  std::vector<std::string> versions;
  for (const CaseSpec* spec : cases) {
    if (!spec->verified_by.empty() &&
        std::find(versions.begin(), versions.end(), spec->verified_by) == versions.end()) {
      versions.push_back(spec->verified_by);
    }
  }
  return versions;
}

// The card-scaled size, or the reason it is not used on this run.
SizeRecord card_scaled_record(const Lab& lab, const DeviceSizing& sizing, bool smoke) {
  SizeRecord record;
  record.label = "card-scaled";
  record.rule = "smallest power of two n with n * " + std::to_string(lab.element_bytes) +
                " B >= " + std::to_string(lab.card_scaled_l2_multiple) + " x L2 (" +
                std::to_string(sizing.l2_bytes) + " B)";
  if (smoke) {
    record.unknown_reason = "smoke configuration";
    return record;
  }
  if (sizing.l2_bytes == 0) {
    record.unknown_reason = "the device reports no L2 size";
    return record;
  }
  const std::uint64_t elements =
      card_scaled_elements(sizing.l2_bytes, lab.element_bytes, lab.card_scaled_l2_multiple);
  const std::uint64_t needed =
      elements * lab.element_bytes * static_cast<std::uint64_t>(lab.buffers_at_max_size);
  if (!fits_in_device_memory(needed, sizing.free_memory_bytes)) {
    record.unknown_reason = "needs " + binary_size(needed) + " of device memory for " +
                            std::to_string(lab.buffers_at_max_size) + " buffers; " +
                            binary_size(sizing.free_memory_bytes) + " free";
    return record;
  }
  record.elements = elements;
  return record;
}

// Checked before the run, so a long run does not end unable to write; nothing is created until
// the files are written, so a failed run leaves the disk as it was.
void require_creatable_directory(const std::filesystem::path& dir) {
  std::filesystem::path existing = std::filesystem::absolute(dir);
  while (!std::filesystem::exists(existing) && existing.has_parent_path() &&
         existing != existing.parent_path()) {
    existing = existing.parent_path();
  }
  if (!std::filesystem::is_directory(existing)) {
    throw std::runtime_error("cannot create output directory " + dir.string() + ": " + existing.string() +
                             " is not a directory");
  }
  if (::access(existing.c_str(), W_OK) != 0) {
    throw std::runtime_error("cannot write to output directory " + dir.string() + ": " + existing.string() +
                             " is not writable");
  }
}

void create_output_directory(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    throw std::runtime_error("cannot create output directory " + dir.string() + ": " + error.message());
  }
}

TimingRecord timing_record(const SamplingRule& rule, const RunPlan& plan, const RunOptions& options,
                           const DeviceSizing& sizing) {
  const int rounds = plan.rounds;
  const int rounds_per_context = plan.rounds_per_context;
  TimingRecord timing;
  timing.mode = timing_mode_name(options.mode);
  timing.order = case_order_name(options.order);
  timing.min_samples = rule.min_samples;
  timing.max_samples = rule.max_samples;
  timing.target_relative_median_ci = rule.target_relative_median_ci;
  timing.case_time_limit_s = rule.case_time_limit_s;
  timing.batch = rule.batch;
  timing.clock_source =
      options.mode == TimingMode::kCold
          ? "before every sample, one thread of the L2 flush times clock64 against %globaltimer over at "
            "least 20 us of it: the SM clock just before the sample (no kernel of its own between cold "
            "samples)"
          : "after every sample, a one-thread kernel times clock64 against %globaltimer over 20 us: the SM "
            "clock just after the sample";
  if (options.mode == TimingMode::kHotGated) {
    timing.launch_gate =
        "each sample queued behind a one-thread kernel spinning on a host-mapped flag, released "
        "once the sample's launches are queued (timeout " +
        fixed(static_cast<double>(kGateTimeoutNs) / 1e6, 0) + " ms); cases of more than " +
        std::to_string(kMaxGatedLaunchesPerSample) + " launches per sample sampled hot";
  }
  const SamplingRule round = round_rule(rule, rounds);
  timing.rounds = rounds;
  timing.round_min_samples = round.min_samples;
  timing.round_max_samples = round.max_samples;
  timing.round_target_relative_median_ci = round.target_relative_median_ci;
  timing.round_case_time_limit_s = round.case_time_limit_s;
  timing.round_placement =
      rounds > 1
          ? "round 1 on the buffers the correctness check ran on; every later round on the lab's buffers "
            "allocated again: in a new CUDA context when the round starts one, else freed and allocated "
            "again (cudaMalloc) after an offset allocation of (round - 1) mod 16 x 2 MiB, held through the "
            "round, so that they need not land where the last round's did"
          : "one round, on the buffers the correctness check ran on";
  // Contexts are the interval's units; a process-level offset they cannot see is allowed for.
  timing.process_allowance = contexts_for(rounds, rounds_per_context) >= 2 ? kProcessAllowance : 0.0;
  timing.interval_method = interval_method_text(timing.process_allowance);
  timing.rounds_per_context = rounds_per_context;
  timing.round_context = round_context_text(rounds, rounds_per_context);
  // 1.11.0: the small cases' rounds, their rule and their size limit.
  timing.small_case_rounds = plan.small_case_rounds;
  timing.small_case_rounds_max_elements = plan.small_case_rounds_max_elements;
  const SamplingRule small_round = round_rule(rule, plan.small_case_rounds);
  timing.small_case_round_min_samples = small_round.min_samples;
  timing.small_case_round_max_samples = small_round.max_samples;
  timing.small_case_round_target_relative_median_ci = small_round.target_relative_median_ci;
  timing.small_case_round_case_time_limit_s = small_round.case_time_limit_s;
  const std::string small_rounds = small_case_rounds_text(rounds, plan.small_case_rounds, rounds_per_context,
                                                          plan.small_case_rounds_max_elements);
  if (!small_rounds.empty()) {
    timing.round_context += "; " + small_rounds;
  }
  if (options.mode == TimingMode::kHot) {
    timing.launch_check =
        "after each round of a case of at most " + std::to_string(kLaunchCheckMaxElements) +
        " elements and " + std::to_string(kMaxGatedLaunchesPerSample) + " launches per sample, " +
        std::to_string(kLaunchCheckSamplesPerRound) +
        " samples of its region queued behind a launch gate (GPU time alone, outside its hot samples); a "
        "case whose gated median is below " +
        fixed((1.0 - kLaunchBoundShare) * 100.0, 0) +
        "% of its hot median is launch-bound: its hot figure times the host's launches; " +
        kClaimLaunchCheckWords + " " + std::to_string(kClaimLaunchCheckMaxElements) +
        " elements, so that those claims are judged on GPU time alone too";
  }
  timing.small_case_batch = options.small_case_batch;
  timing.small_case_max_elements = kSmallCaseMaxElements;
  timing.host_cpu = options.pin_cpu;
  timing.device_warmup_s = options.device_warmup_s;
  timing.clock_lock = "off";
  if (sizing.sm_clock_peak_mhz > 0.0) {
    timing.throttle_threshold_mhz = kThrottleFraction * sizing.sm_clock_peak_mhz;
    timing.throttle_rule = "below " + fixed(kThrottleFraction * 100.0, 0) + "% of the peak SM clock (" +
                           fixed(sizing.sm_clock_peak_mhz, 0) + " MHz, cudaDevAttrClockRate)";
  } else {
    timing.throttle_rule = "none: the device reports no peak SM clock";
  }
  return timing;
}

}  // namespace

SamplingRule sampling_rule_for(const RunOptions& options) {
  if (options.repetitions < 1) {
    throw UsageError("--reps must be at least 1");
  }
  if (options.warmups < 0) {
    throw UsageError("--warmups must not be negative");
  }
  if (options.max_samples < options.repetitions) {
    throw UsageError("--max-samples (" + std::to_string(options.max_samples) + ") must be at least --reps (" +
                     std::to_string(options.repetitions) + ")");
  }
  if (options.target_relative_median_ci < 0.0) {
    throw UsageError("--target-ci must not be negative");
  }
  if (options.case_time_limit_s <= 0.0) {
    throw UsageError("--case-time-limit must be positive");
  }
  if (options.rounds < 1) {
    throw UsageError("--rounds must be at least 1");
  }
  if (options.small_case_batch < 1 || options.small_case_batch > kMaxGatedLaunchesPerSample) {
    throw UsageError("--small-case-batch must be from 1 to " + std::to_string(kMaxGatedLaunchesPerSample));
  }
  if (options.device_warmup_s < 0.0) {
    throw UsageError("--device-warmup must not be negative");
  }
  SamplingRule rule;
  rule.warmups = options.warmups;
  rule.min_samples = options.repetitions;
  rule.max_samples = options.max_samples;
  rule.target_relative_median_ci = options.target_relative_median_ci;
  rule.case_time_limit_s = options.case_time_limit_s;
  if (options.smoke) {
    rule.warmups = 1;
    rule.min_samples = std::min(options.repetitions, 3);
    rule.max_samples = rule.min_samples;
    rule.target_relative_median_ci = 0.0;
  }
  return rule;
}

int rounds_for(const RunOptions& options) {
  return options.smoke ? std::min(options.rounds, kSmokeMaxRounds) : options.rounds;
}

int small_case_rounds_for(const RunOptions& options, int rounds) {
  if (options.smoke) {
    return rounds;  // a smoke run checks the lab runs, in at most 3 samples a case
  }
  if (options.small_case_rounds != 0) {
    if (options.small_case_rounds < rounds) {
      throw UsageError("--small-case-rounds (" + std::to_string(options.small_case_rounds) +
                       ") must be at least the rounds every case takes (" + std::to_string(rounds) + ")");
    }
    return options.small_case_rounds;
  }
  const int rounds_per_context = std::max(1, std::min(options.rounds_per_context, rounds));
  if (contexts_for(rounds, rounds_per_context) < 2) {
    return rounds;  // no interval from contexts: nothing for more of them to narrow
  }
  const int contexts = options.mode == TimingMode::kCold       ? kSmallCaseContextsCold
                       : options.mode == TimingMode::kHotGated ? kSmallCaseContextsHotGated
                                                               : 0;
  return std::max(rounds, contexts * rounds_per_context);
}

int event_pair_batch_for(const CaseSpec& spec, std::uint64_t elements, const RunOptions& options) {
  return spec.launches_per_sample == 1 && elements <= kSmallCaseMaxElements ? options.small_case_batch : 1;
}

std::vector<ResolvedSize> resolve_sizes(const CaseSpec& spec, const std::optional<std::uint64_t>& card_scaled,
                                        bool smoke) {
  std::vector<ResolvedSize> resolved;
  for (const SizeRequest& request : spec.sizes) {
    ResolvedSize size{request.label, request.elements};
    if (request.elements == 0) {
      if (!card_scaled) {
        continue;
      }
      size.elements = *card_scaled;
    }
    if (smoke) {
      size.elements = std::min(size.elements, kSmokeMaxElements);
    }
    const bool duplicate = std::any_of(resolved.begin(), resolved.end(),
                                       [&](const ResolvedSize& s) { return s.elements == size.elements; });
    if (!duplicate) {
      size.shape = shape_at(spec, size.elements);
      resolved.push_back(size);
    }
  }
  return resolved;
}

std::string utc_timestamp_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string timestamp_file_stem(const std::string& utc_timestamp) {
  std::string stem = utc_timestamp;
  std::replace(stem.begin(), stem.end(), ':', '-');
  return stem;
}

RunPlan check_run_request(const Lab& lab, const RunOptions& options) {
  RunPlan plan;
  for (const std::string& pattern : patterns_matching_nothing(lab, options.case_patterns)) {
    throw UsageError("--case '" + pattern + "' matches no case of " + lab.name + " (`labrun list " +
                     lab.name + "` shows the case names)");
  }
  plan.selected = select_cases(lab, options.case_patterns);
  if (plan.selected.empty()) {
    throw UsageError("lab " + lab.name + " declares no case");
  }
  plan.rule = sampling_rule_for(options);
  plan.rounds = rounds_for(options);
  plan.round = round_rule(plan.rule, plan.rounds);
  if (options.rounds_per_context < 1) {
    throw UsageError("--rounds-per-context must be at least 1");
  }
  plan.rounds_per_context = std::min(options.rounds_per_context, plan.rounds);
  plan.small_case_rounds = small_case_rounds_for(options, plan.rounds);
  plan.small_case_round = round_rule(plan.rule, plan.small_case_rounds);
  if (options.small_case_rounds_max_elements < 1 ||
      options.small_case_rounds_max_elements > kTranscriptIntegerMax) {
    throw UsageError("--small-case-rounds-max-elements must be from 1 to " +
                     std::to_string(kTranscriptIntegerMax) + " (2^63 - 1), the largest a transcript records");
  }
  plan.small_case_rounds_max_elements = options.small_case_rounds_max_elements;
  if (options.pin_cpu) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    const bool known = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
    if (*options.pin_cpu < 0 || *options.pin_cpu >= CPU_SETSIZE ||
        (known && !CPU_ISSET(static_cast<std::size_t>(*options.pin_cpu), &allowed))) {
      throw UsageError("--pin-cpu " + std::to_string(*options.pin_cpu) +
                       ": not a CPU this process may run on (see `taskset -p $$` or nproc)");
    }
  }
  if (options.seed > kTranscriptIntegerMax) {
    // The transcript records the seed, and holds no integer beyond 2^63 - 1.
    throw UsageError("--seed " + std::to_string(options.seed) + " is above " +
                     std::to_string(kTranscriptIntegerMax) + " (2^63 - 1), the largest a transcript records");
  }
  for (const std::string& format : options.formats) {
    if (find_transcript_writer(format) == nullptr) {
      std::vector<std::string> known;
      for (const TranscriptWriter& writer : transcript_writers()) {
        known.push_back(writer.name);
      }
      throw UsageError(unknown_format_message(format, known));
    }
  }
  if (!options.out_dir.empty()) {
    require_creatable_directory(options.out_dir);
  }
  // The run validates its transcript before writing it: without the schema, it would fail at the end.
  if (!schema_text(kTranscriptSchemaVersion)) {
    throw std::runtime_error("the schema of transcript version " + std::string(kTranscriptSchemaVersion) +
                             " is not among labrun's data files; reinstall labrun");
  }
  return plan;
}

namespace {

// The stages of run_lab, in the order they run: plan, check, sample, record, write.

// The transcript's opening: what was asked for, before anything is measured.
Transcript transcript_of_request(const Lab& lab, const RunOptions& options, const SamplingRule& rule) {
  Transcript t;
  t.lab_name = lab.name;
  t.lab_title = lab.title;
  t.configuration = options.smoke ? "smoke" : "full";
  t.seed = options.seed;
  t.repetitions = rule.min_samples;
  t.warmups = rule.warmups;
  t.case_patterns = options.case_patterns;
  t.command_line = options.command_line;
  t.started_utc = utc_timestamp_now();
  return t;
}

// Plan. Records in `t` the sizes (declared, card-scaled or why not, correctness), the timing
// settings and the predicted ratios, and returns every selected case at each of its sizes, in the
// order they are timed (declared, or shuffled by options.seed).
std::vector<PlannedCase> plan_run(const Lab& lab, const RunOptions& options, const RunPlan& checked,
                                  const DeviceSizing& sizing, Transcript& t) {
  const SizeRecord card = card_scaled_record(lab, sizing, options.smoke);
  std::set<std::pair<std::string, std::uint64_t>> declared;
  std::map<std::pair<std::string, std::uint64_t>, Shape> shapes;
  bool images = false;
  for (const CaseSpec* spec : checked.selected) {
    for (const SizeRequest& request : spec->sizes) {
      images = images || request.is_image();
      if (request.elements != 0 && request.label != "sweep") {
        declared.insert({request.label, request.elements});
        if (request.is_image()) {
          shapes.emplace(std::make_pair(request.label, request.elements), *request.shape);
        }
      }
    }
  }
  for (const auto& [label, elements] : declared) {
    const auto shape = shapes.find({label, elements});
    t.sizes.push_back(SizeRecord{label, elements, "declared by the lab", "",
                                 shape != shapes.end() ? std::optional<Shape>(shape->second) : std::nullopt});
  }
  t.sizes.push_back(card);
  if (images && card.elements) {
    t.sizes.back().shape = power_of_two_image(*card.elements);
    t.sizes.back().rule += ", as an image of " + shape_text(*t.sizes.back().shape);
  }
  t.sizes.push_back(SizeRecord{"correctness", lab.correctness_elements, "odd, so every bounds check fires",
                               "", lab.correctness_shape});
  if (!lab.roofline.empty()) {
    t.roofline = RooflineRecord{lab.roofline.memory_ceiling_cases, lab.roofline.compute_ceiling_case};
  }
  std::vector<PlannedCase> plan = plan_cases(checked.selected, card.elements, options);
  t.timing = timing_record(checked.rule, checked, options, sizing);
  for (const Prediction& p : lab.predictions) {
    const CaseSpec* slower = lab.find_case(p.slower_case);
    const CaseSpec* faster = lab.find_case(p.faster_case);
    if (slower != nullptr && faster != nullptr) {
      t.predictions.push_back(
          {p.description, p.slower_case, p.faster_case, predicted_ratios(slower->model, faster->model)});
    }
  }
  return plan;
}

// Check. Runs every version the selected cases are verified by against the float64 reference at
// the lab's correctness size, recording the checks and bitwise comparisons in `t`. Returns the
// versions that failed: their cases are not timed.
std::set<std::string> check_correctness(const Lab& lab, LabSession& session,
                                        const std::vector<const CaseSpec*>& selected, std::uint64_t seed,
                                        Transcript& t, const ProgressSink& progress) {
  const std::vector<std::string> versions = versions_to_check(selected);
  if (!versions.empty()) {
    progress("checking " + std::to_string(versions.size()) +
             " versions against the float64 reference at n = " + std::to_string(lab.correctness_elements) +
             (lab.correctness_shape ? " (" + shape_text(*lab.correctness_shape) + ")" : ""));
    session.check_correctness(versions, lab.correctness_elements, seed, t.correctness, t.bitwise);
  }
  std::set<std::string> failed_versions;
  for (const CorrectnessCheck& check : t.correctness) {
    if (!check.passed) {
      failed_versions.insert(check.version);
      progress("INCORRECT: " + check.version + " has " + std::to_string(check.mismatches) +
               " mismatches; its cases are not timed");
    }
  }
  return failed_versions;
}

// One planned case being sampled in one round: its prepared region and its samples so far.
struct SampledCase {
  const PlannedCase* item;
  CaseRegion region;
  std::unique_ptr<CaseSampler> sampler;
  int event_pair_batch = 1;           //!< samples the sampler times together per pair of events
  std::optional<StopReason> stopped;  //!< set once the sampling rule says stop
};

// `--pin-cpu`: the calling thread on `cpu` alone. Throws std::runtime_error when the kernel refuses
// (check_run_request has already refused a CPU this process may not run on).
void pin_this_thread(int cpu) {
  cpu_set_t only;
  CPU_ZERO(&only);
  CPU_SET(static_cast<std::size_t>(cpu), &only);
  if (sched_setaffinity(0, sizeof only, &only) != 0) {
    throw std::runtime_error("--pin-cpu " + std::to_string(cpu) + ": sched_setaffinity refused it");
  }
}

// The CPU the host thread runs on now (sched_getcpu), as a `run` fact: where samples were launched
// from, pinned or not.
Fact host_cpu_fact(const std::string& key) {
  const int cpu = sched_getcpu();
  return cpu >= 0 ? Fact::known(key, std::int64_t{cpu}) : Fact::unknown(key, "sched_getcpu failed");
}

// Sample. The device-side tools every case of the run is sampled with: the L2 flusher (cold mode),
// the SM clock probe and the launch gate (hot-gated mode, and hot mode's launch check). They live in
// the current CUDA context: open() creates them in it, release() frees them, so that a run can
// destroy the context and create them again in the next (sample_cases).
class CaseSampling {
 public:
  //! `round_rule` for one round of a case, `small_case_round_rule` for one of a case of at most
  //! `small_case_rounds_max_elements` elements (1.11.0: their budget is split between more rounds).
  //! `claims`, the lab's: the cases they set against a bound get the launch check at larger sizes.
  CaseSampling(const SamplingRule& round_rule, const SamplingRule& small_case_round_rule,
               std::uint64_t small_case_rounds_max_elements, TimingMode mode, const DeviceSizing& sizing,
               const RunOptions& options, const std::vector<ClaimSpec>& claims)
      : round_rule_(round_rule),
        small_case_round_rule_(small_case_round_rule),
        small_case_rounds_max_elements_(small_case_rounds_max_elements),
        mode_(mode),
        sizing_(sizing),
        options_(options),
        claims_(claims) {
    open();
  }

  //! The stop rule of one round of `item`.
  [[nodiscard]] const SamplingRule& rule_for(const PlannedCase& item) const {
    return item.size.elements <= small_case_rounds_max_elements_ ? small_case_round_rule_ : round_rule_;
  }

  //! Creates the tools in the current context (after release(), or in a new context).
  void open() {
    if (mode_ == TimingMode::kCold) {
      flusher_.emplace(sizing_.l2_bytes, kL2FlushMultiple, sizing_.sm_count);
    }
    // A clock above twice the peak is a failed probe (timing/sampler.hpp), not a reading.
    probe_.emplace(2.0 * sizing_.sm_clock_peak_mhz);
    if (mode_ == TimingMode::kHotGated || mode_ == TimingMode::kHot) {
      gate_.emplace();
    }
  }

  //! Bytes read before each sample to evict the L2 (cold mode); nullopt in the other modes.
  [[nodiscard]] std::optional<std::uint64_t> l2_flush_bytes() const {
    return flusher_ ? std::optional<std::uint64_t>(flusher_->bytes()) : std::nullopt;
  }

  //! The mode a case is sampled in: hot-gated applies to cases with few executions per pair of
  //! events; the others are sampled hot.
  [[nodiscard]] TimingMode mode_for(const CaseSpec& spec, int event_pair_batch) const {
    return mode_ == TimingMode::kHotGated &&
                   spec.launches_per_sample * event_pair_batch > kMaxGatedLaunchesPerSample
               ? TimingMode::kHot
               : mode_;
  }

  //! Prepares the case on the session and runs the rule's warm-ups (untimed). With
  //! --small-case-batch, the sampler times event_pair_batch_for samples' executions per pair of
  //! events; its samples are divided back to one sample's time when recorded (round_samples).
  [[nodiscard]] SampledCase start(LabSession& session, const PlannedCase& item) {
    const int batch = event_pair_batch_for(*item.spec, item.size.elements, options_);
    SampledCase active{&item, session.prepare_case(*item.spec, item.size.elements), nullptr, batch,
                       std::nullopt};
    // Only hot-gated mode gates its samples; hot mode's gate serves its launch check alone.
    active.sampler = std::make_unique<CaseSampler>(
        active.region.run, item.spec->launches_per_sample * batch, mode_for(*item.spec, batch),
        flusher_ ? &*flusher_ : nullptr, &*probe_, mode_ == TimingMode::kHotGated ? &*gate_ : nullptr);
    active.sampler->warm_up(round_rule_.warmups);
    return active;
  }

  //! Takes samples until `rule` says stop (one round's rule for the case, rule_for, unless given
  //! another). Interleaved (`one_batch`), it takes one batch, after one untimed execution so that a hot
  //! batch does not start on the L2 the previous case left behind.
  void sample(SampledCase& active, bool one_batch) const {
    sample(active, one_batch, rule_for(*active.item));
  }
  void sample(SampledCase& active, bool one_batch, const SamplingRule& rule) const {
    while (!active.stopped) {
      const int have = static_cast<int>(active.sampler->samples_ms().size());
      const int next = have < rule.min_samples && !one_batch ? rule.min_samples - have : rule.batch;
      if (one_batch && mode_ != TimingMode::kCold) {
        active.sampler->warm_up(1);
      }
      active.sampler->take(std::min(next, rule.max_samples - have));
      active.stopped = stop_reason(rule, active.sampler->samples_ms(), active.sampler->elapsed_s());
      if (one_batch) {
        return;
      }
    }
  }

  //! Hot mode's launch check: whether `item`'s hot samples get gated ones beside them
  //! (launch_check_applies: a case of at most kMaxGatedLaunchesPerSample launches per sample and
  //! kLaunchCheckMaxElements elements, or kClaimLaunchCheckMaxElements where a claim of the lab sets it
  //! against a bound).
  [[nodiscard]] bool launch_checked(const PlannedCase& item) const {
    const int batch = event_pair_batch_for(*item.spec, item.size.elements, options_);
    return launch_check_applies(mode_, item.size.elements, item.spec->launches_per_sample * batch,
                                reads_against_a_bound(claims_, item.spec->name, item.size.label));
  }

  //! Once a round of `active` is sampled: kLaunchCheckSamplesPerRound samples of its region queued
  //! behind the gate (GPU time alone, ms per sample as its hot samples are kept), when
  //! launch_checked; none otherwise. Its hot samples are already taken and are not touched.
  [[nodiscard]] std::vector<double> check_launch_latency(SampledCase& active) {
    if (!launch_checked(*active.item)) {
      return {};
    }
    CaseSampler gated(active.region.run, active.item->spec->launches_per_sample * active.event_pair_batch,
                      TimingMode::kHotGated, nullptr, nullptr, &*gate_);
    gated.take(kLaunchCheckSamplesPerRound);
    std::vector<double> samples = gated.samples_ms();
    for (double& ms : samples) {
      ms = event_precision_ms(ms / static_cast<double>(active.event_pair_batch));
    }
    return samples;
  }

  //! `--device-warmup`: keeps the GPU busy for `seconds` with the clock probe's one-thread spin (1 ms
  //! per launch), outside every timed interval; returns the SM clock it ended at (MHz).
  std::optional<double> warm_up_device(double seconds) {
    ClockProbe busy(0.0, 1'000'000);
    std::optional<double> last;
    const Clock::time_point begin = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - begin).count() < seconds) {
      last = busy.sm_clock_mhz(nullptr);
    }
    return last;
  }

  //! Frees the flusher, the probe and the gate, in that order (after the session is closed).
  void release() {
    flusher_.reset();
    probe_.reset();
    gate_.reset();
  }

 private:
  SamplingRule round_rule_;
  SamplingRule small_case_round_rule_;
  std::uint64_t small_case_rounds_max_elements_;
  TimingMode mode_;
  DeviceSizing sizing_;
  const RunOptions& options_;
  const std::vector<ClaimSpec>& claims_;
  std::optional<L2Flusher> flusher_;
  std::optional<ClockProbe> probe_;
  std::optional<LaunchGate> gate_;
};

// Record. One round of a sampled case as the transcript keeps it: its raw samples (ms, CUDA events, at
// the float precision an event gives; a batch's time over its count with --small-case-batch), the SM
// clock of each sample (MHz, read as timing.clock_source says), its gate time-outs, and how long and why
// it stopped.
RoundSamples round_samples(const SampledCase& active) {
  RoundSamples round;
  round.samples_ms = active.sampler->samples_ms();
  for (double& ms : round.samples_ms) {
    ms = event_precision_ms(ms / static_cast<double>(active.event_pair_batch));
  }
  round.sm_clock_mhz = active.sampler->sm_clock_mhz();
  round.gate_timeout_samples = active.sampler->gate_timeout_samples();
  round.stop_reason = *active.stopped;
  round.sampling_seconds = active.sampler->elapsed_s();
  return round;
}

// Record. A planned case as the transcript keeps it before its first round: what it is, how it is
// sampled, and its attributes from the first round's region.
CaseResult case_record(const SampledCase& first, const CaseSampling& sampling, int warmups) {
  const PlannedCase& item = *first.item;
  CaseResult result;
  result.name = item.spec->name;
  result.part = item.spec->part;
  result.label = item.spec->label;
  result.size_label = item.size.label;
  result.elements = item.size.elements;
  result.shape = item.size.shape;
  result.model = item.spec->model;
  result.launches_per_sample = item.spec->launches_per_sample;
  result.warmups = warmups;
  result.attributes = first.region.attributes;
  result.timing_mode = timing_mode_name(sampling.mode_for(*item.spec, first.event_pair_batch));
  result.event_pair_batch = first.event_pair_batch;
  return result;
}

// Record. Once every round is in: the samples below `throttle_threshold_mhz` (when the card
// reports a peak clock) and the SM cycles per execution, over all of a case's samples.
void finish_case(CaseResult& result, const std::optional<double>& throttle_threshold_mhz) {
  if (throttle_threshold_mhz) {
    result.throttled_samples = throttled_samples(result.sample_sm_clock_mhz, *throttle_threshold_mhz);
  }
  result.median_cycles =
      median_cycles(result.samples_ms, result.sample_sm_clock_mhz, result.launches_per_sample);
}

// Sample, one round. Times the cases `order` names (indices into `runnable` and t.cases), each to its
// stop or interleaved (a batch from every unfinished case in turn), takes hot mode's launch check of
// each once its samples are in, and appends each one's round, in CUDA context `context`, to its record
// in t.cases (created in the first round). `start` is the run's start, for the progress lines.
void sample_round(LabSession& session, CaseSampling& sampling,
                  const std::vector<const PlannedCase*>& runnable, const std::vector<std::size_t>& order,
                  int round, int rounds, int context, const RunOptions& options, const SamplingRule& rule,
                  Clock::time_point start, Transcript& t, const ProgressSink& progress) {
  const std::string of_rounds =
      rounds > 1 ? ", round " + std::to_string(round + 1) + "/" + std::to_string(rounds) : "";
  const auto announce = [&](std::size_t position, const PlannedCase& item) {
    progress("[" + std::to_string(position) + "/" + std::to_string(order.size()) + of_rounds + "] " +
             item.spec->name + " n=" + std::to_string(item.size.elements) + " (" + item.size.label + "), " +
             fixed(seconds_since(start), 1) + " s elapsed");
  };
  const auto record = [&](std::size_t index, SampledCase& active) {
    if (round == 0) {
      t.cases[index] = case_record(active, sampling, rule.warmups);
    }
    RoundSamples samples = round_samples(active);
    samples.context = context;
    samples.launch_check_ms = sampling.check_launch_latency(active);
    append_round(t.cases[index], samples, process_allowance_of(t), kRunCasePoint);
  };
  if (options.order == CaseOrder::kInterleave) {
    std::vector<SampledCase> active;
    for (std::size_t position = 0; position < order.size(); ++position) {
      announce(position + 1, *runnable[order[position]]);
      active.push_back(sampling.start(session, *runnable[order[position]]));
    }
    for (int turn = 1;; ++turn) {
      std::size_t open = 0;
      for (SampledCase& a : active) {
        if (!a.stopped) {
          const NvtxRange range(a.item->spec->name);
          sampling.sample(a, true);
          ++open;
        }
      }
      if (open == 0) {
        break;
      }
      progress("interleaved turn " + std::to_string(turn) + of_rounds + ": " + std::to_string(open) +
               " cases sampled, " + fixed(seconds_since(start), 1) + " s elapsed");
    }
    for (std::size_t position = 0; position < order.size(); ++position) {
      record(order[position], active[position]);
    }
    return;
  }
  for (std::size_t position = 0; position < order.size(); ++position) {
    const PlannedCase& item = *runnable[order[position]];
    announce(position + 1, item);
    // The case's name as an NVTX range around its warm-ups and samples (outside every timed
    // interval), for Nsight Systems and `ncu --nvtx`.
    const NvtxRange range(item.spec->name);
    SampledCase a = sampling.start(session, item);
    sampling.sample(a, false);
    record(order[position], a);
  }
}

// An allocation held while a round's buffers are allocated, so that they need not land where the
// last round's did: for the round of index `round` (from 0; round 1 of the transcript's counting is
// index 0 and renews nothing), round mod 16 x 2 MiB (the size of a large page of device memory).
std::size_t placement_offset_bytes(int round) {
  constexpr std::size_t kLargePage = std::size_t{2} << 20;
  return static_cast<std::size_t>(round % 16) * kLargePage;
}

// `--pin-cpu`: the thread that launches every sample on one CPU, pinned once each CUDA context is
// open, so that the threads CUDA starts with a context keep the CPUs the process had (a context
// created from a pinned thread would start its threads on that one CPU too).
class HostThreadPin {
 public:
  explicit HostThreadPin(std::optional<int> cpu) : cpu_(cpu) {
    if (cpu_) {
      CPU_ZERO(&allowed_);
      if (sched_getaffinity(0, sizeof allowed_, &allowed_) != 0) {
        throw std::runtime_error("--pin-cpu: sched_getaffinity failed");
      }
    }
  }
  //! Pins the thread (nothing without --pin-cpu).
  void pin() const {
    if (cpu_) {
      pin_this_thread(*cpu_);
    }
  }
  //! Gives the thread back every CPU it had: before a new context is created, and once the run's
  //! launches are done, so that the processes it starts after them (Nsight, the plots) are not
  //! confined to the one CPU.
  void unpin() const {
    if (!give_cpus_back()) {
      throw std::runtime_error("--pin-cpu: could not give the thread its CPUs back");
    }
  }
  //! A run that ends early (an exception) gives the thread its CPUs back too; a refusal here is
  //! ignored, as nothing is timed after it.
  ~HostThreadPin() { static_cast<void>(give_cpus_back()); }
  HostThreadPin(const HostThreadPin&) = delete;
  HostThreadPin& operator=(const HostThreadPin&) = delete;

 private:
  // Whether the thread has every CPU it had when made (true without --pin-cpu).
  [[nodiscard]] bool give_cpus_back() const noexcept {
    return !cpu_ || sched_setaffinity(0, sizeof allowed_, &allowed_) == 0;
  }

  std::optional<int> cpu_;
  cpu_set_t allowed_{};
};

// The run's CUDA context and what lives in it: the lab's session and the sampling's tools.
struct DeviceState {
  const Lab& lab;
  SessionConfig config;
  std::unique_ptr<LabSession> session;
  CaseSampling& sampling;
  const HostThreadPin& pin;
};

// Sample, a new context (1.8.0). Closes the session and frees the sampling's tools, destroys the run's
// CUDA context and creates a new one, opens the lab's session (buffers allocated, inputs filled from
// the seed, primed) and the tools in it again; returns what each step cost.
ContextRecord renew_context(DeviceState& device) {
  device.session.reset();
  device.sampling.release();
  device.pin.unpin();
  ContextRecord record;
  record.create_seconds = renew_device_context();
  const Clock::time_point setup = Clock::now();
  device.session = device.lab.open_session(device.config);
  device.sampling.open();
  record.setup_seconds = seconds_since(setup);
  device.pin.pin();
  return record;
}

// The order of round `round` (from 0): every runnable case's in the first `rounds` (round_order over
// all of them); after those (1.11.0), only the small cases' (at most `small_max_elements` elements),
// a seeded permutation of their indices.
std::vector<std::size_t> order_of_round(const std::vector<const PlannedCase*>& runnable, int round,
                                        int rounds, int small_case_rounds, std::uint64_t small_max_elements,
                                        std::uint64_t seed) {
  if (round < rounds) {
    return round_order(runnable.size(), round, rounds, seed);
  }
  std::vector<std::size_t> small;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    if (runnable[i]->size.elements <= small_max_elements) {
      small.push_back(i);
    }
  }
  std::vector<std::size_t> order;
  for (const std::size_t position : round_order(small.size(), round, small_case_rounds, seed)) {
    order.push_back(small[position]);
  }
  return order;
}

// Sample. Times every planned case whose version passed its check in `checked.rounds` rounds, and
// (1.11.0) each of at most `checked.small_case_rounds_max_elements` elements in
// `checked.small_case_rounds`, the extra ones after the others, with those cases alone;
// `rounds_per_context` rounds to a CUDA context: round 1 on the buffers the session opened with; a round that
// starts a context (core/rounds.hpp) in a new one (renew_context, recorded in t.timing->contexts after the
// first's); every other on the session's buffers allocated again. Each round runs in its own order (recorded
// in t.timing->round_orders), and each case is recorded in t.cases in plan order, its rounds' samples one
// after the other.
void sample_cases(DeviceState& device, const std::vector<PlannedCase>& plan,
                  const std::set<std::string>& failed_versions, const RunPlan& checked,
                  const RunOptions& options, Clock::time_point start, Transcript& t,
                  const ProgressSink& progress) {
  const int rounds_per_context = checked.rounds_per_context;
  std::vector<const PlannedCase*> runnable;
  for (const PlannedCase& item : plan) {
    if (failed_versions.count(item.spec->verified_by) == 0) {
      runnable.push_back(&item);
    }
  }
  t.cases.assign(runnable.size(), CaseResult{});
  const bool any_small = std::any_of(runnable.begin(), runnable.end(), [&](const PlannedCase* item) {
    return item->size.elements <= checked.small_case_rounds_max_elements;
  });
  const int rounds = any_small ? std::max(checked.rounds, checked.small_case_rounds) : checked.rounds;
  for (int round = 0; round < rounds; ++round) {
    const std::string of_rounds = "round " + std::to_string(round + 1) + "/" + std::to_string(rounds) +
                                  (round >= checked.rounds ? " (the small cases alone)" : "");
    if (round_starts_context(round, rounds_per_context)) {
      const ContextRecord record = renew_context(device);
      t.timing->contexts.push_back(record);
      progress(of_rounds + ": a new CUDA context (" + fixed(record.create_seconds, 2) +
               " s), the lab's buffers in it (" + fixed(record.setup_seconds, 2) +
               " s), the cases in a new order");
    } else if (round > 0) {
      progress(of_rounds + ": the lab's buffers allocated again, the cases in a new order");
      device.session->renew_buffers(placement_offset_bytes(round));
    }
    const std::vector<std::size_t> order =
        order_of_round(runnable, round, checked.rounds, checked.small_case_rounds,
                       checked.small_case_rounds_max_elements, options.seed);
    t.timing->round_orders.push_back(order);
    sample_round(*device.session, device.sampling, runnable, order, round, rounds,
                 context_of_round(round, rounds_per_context), options, checked.round, start, t, progress);
  }
  for (CaseResult& c : t.cases) {
    finish_case(c, t.timing->throttle_threshold_mhz);
  }
}

// Sample, once more. Times the lab's stability case again at its largest timed size, now that
// everything else has run, with the run's whole rule (not one round's), and records both medians
// (ms) and their relative difference in t.stability; nothing when the lab names no stability case or
// it was not timed.
void sample_stability_again(const Lab& lab, LabSession& session, CaseSampling& sampling,
                            const SamplingRule& run_rule, Transcript& t, const ProgressSink& progress) {
  if (lab.stability_case.empty()) {
    return;
  }
  const CaseResult* largest = nullptr;
  for (const CaseResult* candidate : t.cases_named(lab.stability_case)) {
    if (largest == nullptr || candidate->elements > largest->elements) {
      largest = candidate;
    }
  }
  if (largest == nullptr) {
    return;
  }
  progress("timing " + largest->name + " again at n=" + std::to_string(largest->elements) +
           " for the stability check");
  const PlannedCase again_item{lab.find_case(largest->name),
                               ResolvedSize{largest->size_label, largest->elements, largest->shape}};
  const NvtxRange range(largest->name + " (stability)");
  SampledCase again = sampling.start(session, again_item);
  sampling.sample(again, false, run_rule);
  StabilityCheck check;
  check.case_name = largest->name;
  check.size_label = largest->size_label;
  check.elements = largest->elements;
  check.first_median_ms = largest->summary.median;
  check.second_samples_ms = round_samples(again).samples_ms;  // at an event's precision
  check.second_median_ms = median(check.second_samples_ms);
  check.relative_difference = relative_difference(check.first_median_ms, check.second_median_ms);
  t.stability = check;
}

// Record, `--timeline`. Traces every timed case at every size it was timed at, on the session that
// timed it, and records the timeline in t.timeline; its trace file is named `stem` + .trace.json
// when the pass measured.
TimelinePass record_timeline(const Lab& lab, LabSession& session, const std::string& stem, Transcript& t,
                             const ProgressSink& progress) {
  std::vector<TimelineItem> items;
  for (const CaseResult& c : t.cases) {
    items.push_back({lab.find_case(c.name), c.size_label, c.elements});
  }
  TimelinePass timeline = trace_cases(session, items, progress);
  if (timeline.record.status == "measured") {
    timeline.record.trace_file = stem + kTraceFileSuffix;
  }
  t.timeline = timeline.record;
  return timeline;
}

// Record, `--timeline --nsys`, once the session is closed: the traced cases once more under Nsight
// Systems, its report at `report_base`.nsys-rep. A failure costs the report, never the run: it is
// added to the timeline's detail.
void record_nsys_pass(const RunOptions& options, const std::filesystem::path& report_base, Transcript& t,
                      const ProgressSink& progress) {
  std::vector<ProfileItem> items;
  for (const TimelineCase& c : t.timeline->cases) {
    items.push_back({c.name, c.size_label, c.elements, 0.0});
  }
  try {
    t.timeline->nsys_report = options.nsys(items, report_base);
  } catch (const std::exception& error) {
    t.timeline->detail += std::string("; no Nsight Systems report: ") + error.what();
    progress(std::string("no Nsight Systems report: ") + error.what());
  }
}

// Record, `labrun profile`, once the session is closed: each timed case at its largest size under
// the profiler, its record in t.profile. A profiler that fails costs its own record ("failed", with
// the reason), never the run.
void record_profile(const RunOptions& options, const std::string& stem, Transcript& t,
                    const ProgressSink& progress) {
  std::vector<ProfileItem> items;
  for (const CaseResult& c : t.cases) {
    const auto same =
        std::find_if(items.begin(), items.end(), [&](const ProfileItem& i) { return i.name == c.name; });
    const ProfileItem item{c.name, c.size_label, c.elements, c.model.bytes_per_element()};
    if (same == items.end()) {
      items.push_back(item);
    } else if (c.elements > same->elements) {
      *same = item;
    }
  }
  try {
    t.profile = options.profiler(items, stem);
  } catch (const std::exception& error) {
    ProfileRecord failed;
    failed.status = "failed";
    failed.detail = error.what();
    t.profile = failed;
    progress("no DRAM counts: " + failed.detail);
  }
}

}  // namespace

std::vector<PlannedCase> plan_cases(const std::vector<const CaseSpec*>& selected,
                                    const std::optional<std::uint64_t>& card_scaled,
                                    const RunOptions& options) {
  std::vector<PlannedCase> plan;
  for (const CaseSpec* spec : selected) {
    for (const ResolvedSize& size : resolve_sizes(*spec, card_scaled, options.smoke)) {
      plan.push_back({spec, size});
    }
  }
  if (options.order == CaseOrder::kShuffle) {
    std::vector<PlannedCase> shuffled;
    for (const std::size_t index : shuffled_order(plan.size(), options.seed)) {
      shuffled.push_back(plan[index]);
    }
    plan = std::move(shuffled);
  }
  return plan;
}

RunReport write_run_files(const Lab& lab, Transcript t, const std::optional<TimelinePass>& timeline,
                          const std::filesystem::path& out_dir, const std::string& stem,
                          const RunOptions& options, const ProgressSink& progress) {
  const bool overwrite = options.overwrite;
  const std::string json_text = transcript_to_text(t);
  if (const std::vector<SchemaProblem> problems = validate_transcript_text(json_text); !problems.empty()) {
    throw std::runtime_error("the transcript of this run does not match schema " +
                             std::string(kTranscriptSchemaVersion) + " at " + problems.front().pointer +
                             ": " + problems.front().message +
                             "; nothing was written (a harness bug: please report it)");
  }
  const Transcript written = transcript_from_text(json_text);
  std::vector<const TranscriptWriter*> writers;
  for (const TranscriptWriter& writer : transcript_writers()) {
    if (writer.always_written ||
        std::find(options.formats.begin(), options.formats.end(), writer.name) != options.formats.end()) {
      writers.push_back(&writer);
    }
  }
  const auto path_of = [&](const TranscriptWriter& writer) { return out_dir / (stem + writer.suffix); };
  RunReport report;
  report.json_path = path_of(*find_transcript_writer("json"));
  report.markdown_path = path_of(*find_transcript_writer("md"));
  const std::vector<PlotSpec> plots = transcript_plots(written, &lab);
  const bool traced = timeline && !timeline->record.trace_file.empty();
  if (!overwrite) {
    std::vector<std::filesystem::path> targets;
    targets.reserve(writers.size() + plots.size() + 2);
    for (const TranscriptWriter* writer : writers) {
      targets.push_back(path_of(*writer));
    }
    for (const std::filesystem::path& plot : plot_files(plots, out_dir, stem, kPlotsBesideFormat)) {
      targets.push_back(plot);
    }
    if (traced) {
      targets.push_back(out_dir / timeline->record.trace_file);
      targets.push_back(out_dir / (stem + kTimelineSvgSuffix));
    }
    if (const std::optional<std::filesystem::path> existing = first_existing(targets)) {
      throw FileExistsError(exists_message(*existing));
    }
  }
  // Drawn first, into a scratch folder: every file of the run is then written beside the others
  // under a temporary name and they take their names together (FileSet), so that a failure or a
  // signal leaves the whole set or none of it.
  RenderedPlots rendered;
  if (!plots.empty()) {
    progress("drawing " + std::to_string(plots.size()) + " plots");
    try {
      rendered = render_plots(plots, stem, kPlotsBesideFormat);
      if (!rendered.skipped_reason.empty()) {
        progress("plots not drawn: " + rendered.skipped_reason + " (`labrun plot FILE` draws them later)");
      }
    } catch (const WriteError&) {
      throw;
    } catch (const std::exception& error) {
      progress("plots not drawn: " + std::string(error.what()));
    }
  }
  create_output_directory(out_dir);
  FileSet files;
  WriterInput input{json_text, written, &lab, ""};
  for (const TranscriptWriter* writer : writers) {
    if (!writer->links_plots) {
      files.add(path_of(*writer), writer->render(input));
      if (!writer->always_written) {
        report.format_files.push_back(path_of(*writer));
      }
    }
  }
  if (traced) {
    files.add(out_dir / timeline->record.trace_file,
              chrome_trace(timeline->events, timeline->spans).dump() + "\n");
    files.add(out_dir / (stem + kTimelineSvgSuffix),
              timeline_svg(timeline->record, t.lab_title + ": kernels as the GPU ran them (CUPTI)"));
  }
  const std::vector<DrawnPlot> drawn = add_plots(files, rendered, out_dir, stem, kPlotsBesideFormat);
  report.plot_files.reserve(drawn.size());
  for (const DrawnPlot& plot : drawn) {
    report.plot_files.push_back(plot.file);
  }
  input.plots_section = plot_links_markdown(drawn, out_dir);
  for (const TranscriptWriter* writer : writers) {
    if (writer->links_plots) {
      std::string text = writer->render(input);
      files.add(path_of(*writer), text);
      if (path_of(*writer) == report.markdown_path) {
        report.markdown = std::move(text);
      } else if (!writer->always_written) {
        report.format_files.push_back(path_of(*writer));
      }
    }
  }
  files.commit(overwrite);
  report.transcript = std::move(t);
  return report;
}

RunReport run_lab(const Lab& lab, const RunOptions& options, const ProgressSink& progress) {
  const Clock::time_point start = Clock::now();
  // Everything that can be checked without the device is checked before it is touched.
  const RunPlan checked = check_run_request(lab, options);
  const DeviceAvailability availability = probe_devices();
  if (!availability.usable) {
    throw NoDeviceError("no usable CUDA device: " + availability.error);
  }
  Transcript t = transcript_of_request(lab, options, checked.rule);
  // The run's first CUDA context, created here so that what it costs is recorded (1.8.0).
  ContextRecord first_context;
  first_context.create_seconds = open_device_context();
  const DeviceSizing sizing = read_device_sizing();
  const std::filesystem::path out_dir =
      options.out_dir.empty() ? std::filesystem::path("evidence") / lab.name / device_slug(sizing.name)
                              : options.out_dir;
  require_creatable_directory(out_dir);
  if (options.mode == TimingMode::kCold && sizing.l2_bytes == 0) {
    throw UsageError("--timing cold needs the L2 size, and this device reports none");
  }
  t.environment = collect_environment();
  FactGroup run_facts{"run", {}};
  run_facts.facts.push_back(read_sm_clock_fact("sm_clock_mhz_start", sizing.pci_bus_id));

  const std::vector<PlannedCase> plan = plan_run(lab, options, checked, sizing, t);
  std::uint64_t max_elements = lab.correctness_elements;
  for (const PlannedCase& item : plan) {
    max_elements = std::max(max_elements, item.size.elements);
  }
  progress("opening " + lab.name + " on " + sizing.name + ": " + std::to_string(plan.size()) +
           " timed runs, largest n = " + std::to_string(max_elements));
  // `--lock-clocks`, held until the last timed pass is over, and released on every path.
  struct HeldClockLock {
    ClockLock lock;
    ~HeldClockLock() {
      if (lock.release) {
        lock.release();
      }
    }
  } clocks;
  if (options.lock_clocks) {
    clocks.lock = options.lock_clocks(sizing.pci_bus_id);
    t.timing->clock_lock = clocks.lock.record;
    progress("clocks: " + clocks.lock.record);
  }
  Clock::time_point setup = Clock::now();
  const SessionConfig session_config{max_elements, options.seed, lab.correctness_shape};
  std::unique_ptr<LabSession> session = lab.open_session(session_config);
  first_context.setup_seconds = seconds_since(setup);
  t.environment.push_back(FactGroup{"lab", session->facts()});
  // Pinned once the device is open, so that CUDA's own threads, started with its context, keep the
  // CPUs they were given: only the thread that launches every sample is pinned.
  const HostThreadPin pin(options.pin_cpu);
  pin.pin();

  const std::set<std::string> failed_versions =
      check_correctness(lab, *session, checked.selected, options.seed, t, progress);

  setup = Clock::now();
  CaseSampling sampling(checked.round, checked.small_case_round, checked.small_case_rounds_max_elements,
                        options.mode, sizing, options, lab.claims);
  first_context.setup_seconds += seconds_since(setup);  // the session's and the tools', not the check's
  t.timing->contexts.push_back(first_context);
  t.timing->l2_flush_bytes = sampling.l2_flush_bytes();
  if (options.device_warmup_s > 0.0) {
    const std::optional<double> mhz = sampling.warm_up_device(options.device_warmup_s);
    progress("device warmed up for " + fixed(options.device_warmup_s, 1) + " s; SM clock " +
             (mhz ? fixed(*mhz, 0) + " MHz" : std::string("not read")));
  }
  run_facts.facts.push_back(host_cpu_fact("host_cpu_start"));
  DeviceState device{lab, session_config, std::move(session), sampling, pin};
  sample_cases(device, plan, failed_versions, checked, options, start, t, progress);
  session = std::move(device.session);
  sample_stability_again(lab, *session, sampling, checked.rule, t, progress);
  run_facts.facts.push_back(host_cpu_fact("host_cpu_end"));
  for (PredictionRecord& p : t.predictions) {
    p.measured = measure_prediction(t, p);
  }
  record_declared_figures(lab, t);

  const std::string stem = timestamp_file_stem(t.started_utc) + (options.smoke ? "-smoke" : "");
  std::optional<TimelinePass> timeline;
  if (options.timeline) {
    timeline = record_timeline(lab, *session, stem, t, progress);
  }
  pin.unpin();  // the last launch from this thread is done
  session.reset();
  sampling.release();
  if (t.timeline && t.timeline->status == "measured" && options.nsys) {
    record_nsys_pass(options, out_dir / stem, t, progress);
  }
  if (options.profiler) {
    record_profile(options, stem, t, progress);
  }
  t.claims = evaluate_claims(lab.claims, t);
  run_facts.facts.push_back(read_sm_clock_fact("sm_clock_mhz_end", sizing.pci_bus_id));
  t.environment.push_back(run_facts);
  t.finished_utc = utc_timestamp_now();
  t.wall_seconds = seconds_since(start);

  return write_run_files(lab, std::move(t), timeline, out_dir, stem, options, progress);
}

}  // namespace labrun
