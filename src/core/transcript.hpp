#pragma once
// A transcript is the plain-data record of one lab run: what ran, where, and every raw timing.
// It is written as JSON (evidence/transcript_json) and every other rendering is made from it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/byte_model.hpp"
#include "core/sizes.hpp"
#include "core/statistics.hpp"

namespace labrun {

//! Version of the transcript format, carried inside every transcript (semantic versioning).
//! 1.1.0 added provenance, claims and published figures; 1.0.0 transcripts are read as measured
//! transcripts with no claims recorded (docs/transcript-fields.md, "Versions").
//! 1.2.0 added how cases were sampled (timing mode, stop rule, quartiles, per-sample SM clocks)
//! and the profiler's DRAM counts; older transcripts are read with none of it recorded.
//! 1.3.0 added the hot-gated timing mode (its gate in `timing`, its time-outs per case).
//! 1.4.0 requires every metadata group of a measured transcript's environment and each group's facts
//! (core/environment_contract.hpp), and adds the provenance "synthetic"; older transcripts are read
//! with what they lack recorded as not recorded.
//! 1.5.0 added the tracing pass of `run --timeline` (`timeline`); older transcripts have none.
//! 1.6.0 added rounds (each case measured in R rounds, each on fresh buffers in an order of its
//! own), the 95% intervals from between-round variation of every case's median, every predicted
//! ratio measured and every claim's figure, the claim's bound and the verdict "inconclusive";
//! older transcripts are read as one round, their verdicts as they were recorded.
//! 1.7.0 added the flop model beside the byte model (each case's flops per element), image sizes
//! (each case's and size's width x height), the roofline's ceiling cases, and the FP32 instructions
//! Nsight Compute counted per profiled case; older transcripts are read with none declared, and
//! draw no roofline.
//! 1.8.0 added the figures a lab declares per case (each case's `declared_figures`: a name, a unit
//! and a value, counted from the source or computed from the case); older transcripts have none.
//! 1.8.0 runs rounds in fresh CUDA contexts (each round's context, each context's set-up cost, the
//! rounds per context) and takes intervals from the contexts; hot timing checks small cases for host
//! launch latency (each case's gated samples beside its hot ones); a claim whose figure's noise
//! exceeds its tolerance is inconclusive (basis "noise"); samples are written at the precision of the
//! float a CUDA event gives. Older transcripts are read with each round its own interval unit, as
//! their runs judged them, and no launch check.
//! 1.9.0 added the process allowance; 1.10.0 each case's figure (the geometric mean of its contexts).
//! 1.11.0 gives the small cases more rounds than the others (`timing.small_case_rounds`, their rule
//! and their size limit; each case's `units`), so cases may have unequal numbers of contexts; older
//! transcripts are read with every case at `timing.rounds`, as their runs judged them.
//! 1.12.0 records a hot claim's reading on GPU time alone as a field (`claims[].gpu_alone`), which older
//! transcripts give only in the claim's detail.
inline constexpr const char* kTranscriptSchemaVersion = "1.12.0";

//! One fact about the run's environment. A fact that could not be read carries no value and the
//! reason it could not be read: unknown is a value, never a guess.
struct Fact {
  using Value = std::variant<std::string, std::int64_t, double, bool>;
  std::string key;
  std::optional<Value> value;
  std::string unknown_reason;  //!< set exactly when value is empty
  //! false for a fact the transcript's file lacks, added unknown when an older schema version was
  //! read (core/environment_contract.hpp); renderings show it as "not recorded", as before.
  bool recorded = true;

  static Fact known(std::string key, Value value);
  static Fact unknown(std::string key, std::string reason);
  [[nodiscard]] bool is_known() const { return value.has_value(); }
  //! The value as text for tables ("unknown (reason)" when unknown).
  [[nodiscard]] std::string display() const;
};

//! A named group of facts ("device", "driver", "build", "host", "run").
struct FactGroup {
  std::string name;
  std::vector<Fact> facts;

  [[nodiscard]] const Fact* find(const std::string& key) const;
};

//! A problem size and where it came from.
struct SizeRecord {
  std::string label;  //!< "lesson", "card-scaled", "correctness"
  std::optional<std::uint64_t> elements;
  std::string rule;            //!< how it was chosen
  std::string unknown_reason;  //!< why it was not used, when elements is empty
  //! 1.7.0: the image the size is, for a lab of image cases (width x height == elements).
  std::optional<Shape> shape = {};
};

//! A predicted ratio measured at one size (1.6.0): the slower case's median over the faster's.
struct PredictionMeasurement {
  std::string size_label;
  std::uint64_t elements = 0;
  double ratio = 0.0;
  //! 95% interval of the ratio from between-round variation (core/rounds.hpp); nullopt with fewer
  //! than 2 rounds.
  std::optional<Interval> interval = {};
};

//! A ratio the byte model predicts between two cases, as recorded with the run.
struct PredictionRecord {
  std::string description;
  std::string slower_case;
  std::string faster_case;
  PredictedRatios ratios;
  //! 1.6.0: the ratio measured at every size both cases ran, in the slower case's run order; empty
  //! in older transcripts (renderings compute it from the cases).
  std::vector<PredictionMeasurement> measured = {};
};

//! A version's output compared with the float64 reference.
struct CorrectnessCheck {
  std::string version;
  std::uint64_t elements = 0;
  double max_abs_error = 0.0;
  //! Largest |got - expected| / |expected| over elements with a non-zero reference. Outputs near
  //! zero (where a sum cancels) dominate it; relative_l2_error is the figure to judge by.
  double max_rel_error = 0.0;
  //! ||got - expected||_2 / ||expected||_2 over the finite outputs.
  double relative_l2_error = 0.0;
  std::uint64_t mismatches = 0;  //!< elements outside the tolerance (NaN counts)
  std::string tolerance;         //!< the rule, in words
  std::optional<std::uint64_t> first_bad_index;
  std::optional<double> first_bad_got;       //!< the version's value there (NaN is written null)
  std::optional<double> first_bad_expected;  //!< the reference value there
  bool passed = false;
};

//! Two versions' float outputs compared bit for bit. Differences are reported, not asserted.
struct BitwiseComparison {
  std::string first;
  std::string second;
  std::uint64_t elements = 0;
  std::uint64_t differing = 0;
  double max_abs_difference = 0.0;
};

//! A figure published by a source instead of raw samples (a transcribed reference).
struct PublishedFigure {
  std::string statistic = "mean";  //!< "mean" or "median"; 1.7.0: "not stated" when the source does not say
  int runs = 0;                    //!< how many runs the statistic summarises; 0 when not stated
  double value_ms = 0.0;           //!< per sample, as this harness defines a sample for the case
};

//! One round of a case (1.6.0): its samples are the next `samples` entries of the case's samples_ms.
struct RoundRecord {
  int samples = 0;
  double median_ms = 0.0;         //!< of this round's samples
  std::string stop_reason;        //!< why this round stopped sampling (core/sampling.hpp)
  double sampling_seconds = 0.0;  //!< wall seconds this round spent on the case, warm-ups included
  //! 1.8.0: the CUDA context the round ran in, counted from 0 (TimingRecord::contexts); nullopt
  //! before 1.8.0, when every round ran in the run's one context and was its own interval unit.
  std::optional<int> context = {};
};

//! 1.8.0, hot timing: a small case's hot samples set beside gated samples of the same region, taken
//! after each of its rounds (core/sampling.hpp: launch_latency_check). The gate hides the host's
//! launch latency, so the share of the hot median it leaves out is what the host's launches cost.
struct LaunchLatencyCheck {
  std::vector<double> gated_samples_ms;  //!< ms, CUDA events, round after round
  double gated_median_ms = 0.0;          //!< median of gated_samples_ms
  //! 1 - gated_median_ms / the case's hot median, at least 0: the share of the hot figure that is
  //! the host's launch latency.
  double host_share = 0.0;
  bool launch_bound = false;  //!< host_share >= kLaunchBoundShare: the hot figure times the host
};

//! A figure the lab declared for a case (registry/lab.hpp: CaseFigure), as the run recorded it
//! (1.8.0): "global loads", "per cell", 5.
struct DeclaredFigure {
  std::string name;
  std::string unit;
  //! nullopt: the figure has no value for this case (a formula over a time the case lacks), and
  //! unknown_reason says why.
  std::optional<double> value;
  std::string source;  //!< where the value comes from, in words: "counted from kernels.cu", a formula
  std::string unknown_reason;
};

//! One case timed at one size.
struct CaseResult {
  std::string name;        //!< stable case name, "day48-fusion/part2/staged-chain"
  std::string part;        //!< "part2"
  std::string label;       //!< the row label, as the lesson writes it
  std::string size_label;  //!< "lesson", "card-scaled", "sweep"
  std::uint64_t elements = 0;
  //! 1.7.0: the image this case ran on, width x height == elements; nullopt for a 1-D size.
  std::optional<Shape> shape = {};
  ByteModel model;
  int launches_per_sample = 1;  //!< region executions per sample (part 1 uses 1000)
  int warmups = 0;
  std::vector<double> samples_ms;            //!< raw per-sample times, milliseconds, from CUDA events
  SampleSummary summary;                     //!< of samples_ms
  std::map<std::string, double> attributes;  //!< per-case facts: registers, occupancy, ...
  std::optional<PublishedFigure> published;  //!< only in transcribed transcripts
  // How the samples were taken (1.2.0; empty when the transcript predates it or is transcribed).
  std::string timing_mode;        //!< "hot", "cold" or "hot-gated": the mode this case was sampled in
  std::string stop_reason;        //!< "median-converged", "time-limit", "sample-cap", "fixed-count"
  double sampling_seconds = 0.0;  //!< wall seconds spent sampling the case, warm-ups included
  //! Per sample, the SM clock just after it, or in cold timing over the flush just before it (MHz,
  //! clock64 over %globaltimer; TimingRecord::clock_source says which); nullopt: unread.
  std::vector<std::optional<double>> sample_sm_clock_mhz;
  //! Indices of samples whose SM clock was below the run's throttle threshold.
  std::vector<std::size_t> throttled_samples;
  //! hot-gated (1.3.0): indices of samples whose launch gate timed out before the host released it.
  std::vector<std::size_t> gate_timeout_samples;
  //! SM cycles per execution of the case's region: median over samples with a known clock of
  //! sample ms x clock / launches per sample. nullopt when no clock was read.
  std::optional<double> median_cycles;
  //! 1.6.0: the case's rounds, in the order taken; samples_ms holds their samples round after round.
  //! Empty in older transcripts, which are one round of every sample.
  std::vector<RoundRecord> rounds = {};
  //! 1.6.0: the 95% interval of summary.median from between-round variation (core/rounds.hpp);
  //! nullopt with fewer than 2 rounds.
  std::optional<Interval> median_interval_ms = {};
  //! 1.6.0: samples timed together between one pair of CUDA events, each recorded as their time over
  //! this count (`--small-case-batch`); 1: every sample between events of its own, as before.
  int event_pair_batch = 1;
  //! 1.8.0: the figures the lab declares for this case, in declaration order; empty in older
  //! transcripts and for a case that declares none.
  std::vector<DeclaredFigure> declared_figures = {};
  //! 1.8.0: hot timing of a small case (at most kLaunchCheckMaxElements elements and
  //! kMaxGatedLaunchesPerSample launches per sample): how much of its hot time is host launch
  //! latency. nullopt for every other case, every other mode and every older transcript.
  std::optional<LaunchLatencyCheck> launch_check = {};
  //! 1.10.0: the case's figure in ms when it is not the median of its samples: the geometric mean of
  //! its CUDA contexts' medians (core/rounds.hpp: CasePoint::kUnitGeometricMean). nullopt in older
  //! transcripts, in transcribed cases and in one unit's view of a run: the figure is summary.median.
  std::optional<double> figure_ms = {};
  //! 1.11.0: the interval units (CUDA contexts) the case's figure and interval are made of, as the
  //! transcript records it (the writer writes core/rounds.hpp's interval_units count; `labrun validate`
  //! checks it against the rounds). nullopt in older transcripts and in cases built by a program.
  std::optional<int> units = {};

  [[nodiscard]] bool has_samples() const { return !samples_ms.empty(); }
  //! The case's central time in ms: figure_ms when recorded (1.10.0), else the median of its
  //! samples, or the published figure of a transcribed case; 0 when none exists.
  [[nodiscard]] double central_ms() const;
  //! Effective bandwidth in GB/s: the byte model's bytes at `elements` over central_ms().
  [[nodiscard]] double gb_per_s() const;
  //! Throughput in GFLOP/s: the flop model's operations at `elements` over central_ms(); nullopt
  //! when no flops are declared or the case has no time.
  [[nodiscard]] std::optional<double> gflop_per_s() const;
};

//! 1.8.0: one CUDA context of a run, as it was set up (seconds of wall time).
struct ContextRecord {
  //! Creating the context: for the first, the run's first context at its start; for every later one,
  //! cudaDeviceReset of the last and the creation of the new one.
  double create_seconds = 0.0;
  //! Opening the lab's session in it (buffers allocated, inputs filled, primed) and the sampling's
  //! tools (L2 flush buffer, clock probe, launch gate).
  double setup_seconds = 0.0;
};

//! How a run sampled its cases (1.2.0).
struct TimingRecord {
  std::string mode = "hot";        //!< "hot", "cold" or "hot-gated" (core/sampling.hpp)
  std::string order = "declared";  //!< "declared", "shuffle" or "interleave"
  int min_samples = 0;
  int max_samples = 0;
  double target_relative_median_ci = 0.0;  //!< 0: adaptive sampling off
  double case_time_limit_s = 0.0;
  int batch = 0;                                 //!< samples between two checks of the stop rule
  std::optional<std::uint64_t> l2_flush_bytes;   //!< cold mode: bytes read to evict the L2
  std::string clock_source;                      //!< how per-sample SM clocks were read
  std::optional<double> throttle_threshold_mhz;  //!< samples below it are flagged throttled
  std::string throttle_rule;                     //!< the threshold in words, or why there is none
  std::string launch_gate;  //!< hot-gated (1.3.0): how samples were gated; empty otherwise
  // 1.6.0: rounds, their orders and rule, and the interval method; the small-n precision options.
  int rounds = 1;  //!< every case measured this many times, each round on fresh buffers
  //! Per round, the order its cases ran in: indices into the transcript's cases.
  std::vector<std::vector<std::size_t>> round_orders = {};
  //! The stop rule of one round of a case (core/rounds.hpp: the run's rule split between rounds).
  int round_min_samples = 0;
  int round_max_samples = 0;
  double round_target_relative_median_ci = 0.0;
  double round_case_time_limit_s = 0.0;
  std::string round_placement = {};  //!< how each round's buffers were allocated, in words
  std::string interval_method = {};  //!< how the 95% intervals were computed, in words
  //! --small-case-batch: samples of a small case timed together between one pair of events (1: off),
  //! for cases of at most small_case_max_elements and one execution per sample.
  int small_case_batch = 1;
  std::uint64_t small_case_max_elements = 0;
  std::optional<int> host_cpu =
      {};                        //!< --pin-cpu: the CPU the host thread was pinned to; nullopt: not pinned
  double device_warmup_s = 0.0;  //!< --device-warmup: seconds the GPU was kept busy before sampling
  std::string clock_lock = {};   //!< --lock-clocks: what was asked and done, in words; "off" when not asked
  // 1.8.0: the CUDA contexts rounds ran in, and hot timing's launch check.
  //! Rounds run in one context before the next is created (`--rounds-per-context`); 0 for a
  //! transcript before 1.8.0, whose rounds all ran in its one context.
  int rounds_per_context = 0;
  std::vector<ContextRecord> contexts = {};  //!< in the order they were created; empty before 1.8.0
  std::string round_context = {};            //!< how rounds were given contexts, in words
  std::string launch_check = {};  //!< hot timing: how small cases were checked, in words; empty otherwise
  //! 1.9.0: k, the standard deviation of a process-level offset the contexts cannot see, as a share
  //! of the between-context standard deviation, allowed for in every interval
  //! (core/statistics.hpp: between_round_interval); 0: none (every transcript before 1.9.0).
  double process_allowance = 0.0;
  // 1.11.0: more rounds for the small cases (core/rounds.hpp: takes_small_case_rounds).
  //! Rounds every case of at most small_case_rounds_max_elements elements takes (`--small-case-rounds`),
  //! at least `rounds`; the extra rounds, after the `rounds` every case takes, time those cases alone.
  //! 0 for a transcript before 1.11.0: every case took `rounds`.
  int small_case_rounds = 0;
  std::uint64_t small_case_rounds_max_elements = 0;  //!< 0 before 1.11.0
  //! The stop rule of one round of a small case: the run's rule split between small_case_rounds.
  int small_case_round_min_samples = 0;
  int small_case_round_max_samples = 0;
  double small_case_round_target_relative_median_ci = 0.0;
  double small_case_round_case_time_limit_s = 0.0;
};

//! FP32 instructions Nsight Compute counted, summed over threads (1.7.0):
//! smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum.
struct Fp32Instructions {
  double fadd = 0.0;
  double fmul = 0.0;
  double ffma = 0.0;

  //! Floating-point operations they performed: an add or multiply is one, a fused multiply-add two.
  [[nodiscard]] double flops() const { return fadd + fmul + 2.0 * ffma; }
};

//! One case's kernels as Nsight Compute counted them, at one size.
struct ProfiledCase {
  std::string name;
  std::string size_label;
  std::uint64_t elements = 0;
  int kernels = 0;                       //!< kernel launches counted for one execution of the case's region
  double dram_read_bytes = 0.0;          //!< dram__bytes_read.sum over those kernels
  double dram_write_bytes = 0.0;         //!< dram__bytes_write.sum over those kernels
  double model_bytes_per_element = 0.0;  //!< the case's byte model, for comparison
  //! 1.7.0: the FP32 instructions of those kernels; nullopt when not counted (before 1.7.0).
  std::optional<Fp32Instructions> fp32 = {};

  [[nodiscard]] double dram_bytes_per_element() const {
    return elements > 0 ? (dram_read_bytes + dram_write_bytes) / static_cast<double>(elements) : 0.0;
  }
};

//! The profiling pass of `labrun profile` (1.2.0).
struct ProfileRecord {
  //! "measured"; "counters-refused" (ERR_NVGPUCTRPERM); "ncu-absent"; "failed".
  std::string status;
  std::string detail;  //!< why, when not measured; what was profiled, when it was
  std::string tool_version;
  std::vector<std::string> command;
  std::string report_file;  //!< the .ncu-rep, relative to where labrun ran, or absolute
  std::vector<ProfiledCase> cases;
};

//! One piece of a traced execution's GPU work (a kernel, or a copy or set the runtime ran on the
//! GPU), as the GPU stamped it.
struct TimelineKernel {
  std::string name;
  double start_us = 0.0;  //!< from the start of the execution's first kernel
  double duration_us = 0.0;
};

//! One case at one size, traced (1.5.0). Times are microseconds per execution of the case's region.
struct TimelineCase {
  std::string name;
  std::string size_label;
  std::uint64_t elements = 0;
  int executions = 0;  //!< traced executions, each alone (the GPU idle before and after it)
  //! The execution whose GPU span is the median's: its kernels in start order, and the idle time
  //! between each kernel's end and the next one's start.
  std::vector<TimelineKernel> kernels;
  std::vector<double> gaps_us;
  double gpu_span_median_us = 0.0;      //!< first kernel's start to last kernel's end, median
  double kernel_time_median_us = 0.0;   //!< summed kernel durations, median
  double launch_calls_median_us = 0.0;  //!< host time inside the runtime's kernel-launch calls, median
  //! CUDA-event medians of the same region in this pass, hot, per execution: without tracing, and
  //! with CUPTI recording (what tracing costs).
  double event_median_us = 0.0;
  double traced_event_median_us = 0.0;
};

//! The tracing pass of `labrun run --timeline` (1.5.0).
struct TimelineRecord {
  std::string status;       //!< "measured"; "cupti-absent"; "failed"
  std::string detail;       //!< why, when not measured; what recorded it, when it was
  std::string tool;         //!< "CUPTI Activity API (libcupti.so.13, API 130001)"
  std::string trace_file;   //!< the Chrome trace, beside the transcript
  std::string nsys_report;  //!< the .nsys-rep when --nsys made one; empty otherwise
  std::uint64_t dropped_records = 0;
  std::vector<TimelineCase> cases;
};

//! What a claim's evaluation found. kInconclusive (1.6.0): the figure's 95% interval straddles the
//! claim's bound, or its rounds disagree.
enum class Verdict { kHeld, kFailed, kNotMeasured, kInconclusive };
//! "held", "failed", "not measured", "inconclusive"
[[nodiscard]] const char* verdict_name(Verdict verdict);
//! Throws std::invalid_argument for any other text.
[[nodiscard]] Verdict verdict_from_name(const std::string& name);

//! 1.12.0: a hot run's claim judged again on its cases' gated samples (GPU time alone, the samples hot
//! timing's launch check takes after each round): that reading's figure, its 95% interval and its own
//! verdict against the claim's bound. The claim's interval spans this one and the hot one
//! (claims/claims.hpp).
struct GpuAloneReading {
  double measured = 0.0;
  Interval measured_interval;
  Verdict verdict = Verdict::kNotMeasured;
};

//! A lesson's claim checked against a transcript's figures.
struct ClaimResult {
  std::string id;         //!< stable, "staged-over-fused-is-the-byte-ratio"
  std::string statement;  //!< what is predicted, in words
  std::string figures;    //!< which figures of the transcript it reads
  Verdict verdict = Verdict::kNotMeasured;
  std::optional<double> measured;
  std::optional<double> expected;
  std::string tolerance;          //!< in words, "within 10% of expected"
  bool expected_to_fail = false;  //!< the lesson itself predicts this one may fail
  std::string detail;             //!< the figures behind the verdict, or why it was not measured
  //! 1.6.0: the 95% interval of `measured` from between-round variation; nullopt with one round, or
  //! when a round did not measure the figure.
  std::optional<Interval> measured_interval = {};
  //! 1.6.0: where `measured` must lie for the claim to hold, [bound_low, bound_high], an open end
  //! nullopt; both nullopt when the verdict is not one figure against a bound (a rule of several
  //! conditions, a figure a rule leaves unset when it fails).
  std::optional<double> bound_low = {};
  std::optional<double> bound_high = {};
  //! 1.6.0: how the verdict was reached (claims/claims.hpp): "interval" (the figure's interval
  //! against the bound), "rounds" (every round's verdict), "point" (the run's figures alone: one
  //! round, or a transcript older than 1.6.0); 1.8.0: "noise" (inconclusive: the figure moves
  //! between the run's contexts by more than the claim's tolerance, claims/noise_rule.hpp).
  std::string verdict_basis = "point";
  //! 1.12.0: the claim's reading on GPU time alone, where a hot run judged it on its cases' gated
  //! samples too; nullopt otherwise, and in older transcripts (whose detail gives it in words).
  std::optional<GpuAloneReading> gpu_alone = {};

  [[nodiscard]] bool has_bound() const { return bound_low.has_value() || bound_high.has_value(); }
};

//! Which cases give a roofline's ceilings (1.7.0), as the lab declared them (Lab::roofline).
struct RooflineRecord {
  //! The memory ceiling is the best GB/s among these (copies) at the roofline's size.
  std::vector<std::string> memory_ceiling_cases;
  //! The compute ceiling is this case's GFLOP/s (a kernel of fused multiply-adds and no traffic).
  std::string compute_ceiling_case;
};

//! The same case timed a second time at the end of the run.
struct StabilityCheck {
  std::string case_name;
  std::string size_label;
  std::uint64_t elements = 0;
  double first_median_ms = 0.0;
  double second_median_ms = 0.0;
  double relative_difference = 0.0;
  std::vector<double> second_samples_ms;
};

struct Transcript {
  std::string schema_version = kTranscriptSchemaVersion;  //!< as read; always written as current
  //! "measured" (written by labrun from a run), "transcribed" (figures copied from a source) or
  //! "synthetic" (1.4.0: built by a program, a test, never measured).
  std::string provenance = "measured";
  std::string provenance_source;  //!< transcribed only: where the figures come from
  std::string provenance_note;    //!< transcribed: what was and was not transcribed; synthetic: what built it
  std::string lab_name;
  std::string lab_title;
  std::string configuration;  //!< "full", or "smoke" (tiny sizes: checks the lab runs; not evidence)
  std::uint64_t seed = 0;
  int repetitions = 0;
  int warmups = 0;
  std::vector<std::string> case_patterns;
  std::vector<std::string> command_line;
  std::string started_utc;
  std::string finished_utc;
  double wall_seconds = 0.0;
  std::vector<FactGroup> environment;
  std::vector<SizeRecord> sizes;
  std::vector<PredictionRecord> predictions;
  std::vector<CorrectnessCheck> correctness;
  std::vector<BitwiseComparison> bitwise;
  std::vector<CaseResult> cases;
  std::optional<StabilityCheck> stability;
  std::vector<ClaimResult> claims;
  bool claims_recorded = true;  //!< false for transcripts (1.0.0, transcribed) that carry none
  //! How cases were sampled; nullopt in transcribed transcripts. Before 1.2.0 it is the migration's
  //! record (hot, declared order, fixed count, no clocks) and timing_recorded is false.
  std::optional<TimingRecord> timing;
  bool timing_recorded = true;
  //! false for a transcript older than 1.6.0: one round of every sample, no intervals, its verdicts
  //! as recorded; renderings show it as its run wrote it.
  bool rounds_recorded = true;
  std::optional<ProfileRecord> profile;    //!< only from `labrun profile`
  std::optional<TimelineRecord> timeline;  //!< only from `labrun run --timeline` (1.5.0)
  //! 1.7.0: the cases behind the roofline's ceilings; nullopt for a lab that declares none and for
  //! every transcript before 1.7.0 (no roofline is drawn for them).
  std::optional<RooflineRecord> roofline;
  //! Environment groups and facts an older transcript lacks that 1.4.0 requires, added as not
  //! recorded when it was read: "device/memory_peak_gb_per_s", or "host" for a whole group.
  std::vector<std::string> not_recorded;

  [[nodiscard]] const FactGroup* group(const std::string& name) const;
  //! The first case with this name (and size label, when given), or nullptr.
  [[nodiscard]] const CaseResult* find_case(const std::string& name,
                                            const std::string& size_label = "") const;
  //! Every case with this name, in run order.
  [[nodiscard]] std::vector<const CaseResult*> cases_named(const std::string& name) const;
  [[nodiscard]] bool all_correct() const;
  //! A known fact's value as a number (an integer or a real); nullopt when the group or fact is
  //! absent, the fact unknown, or its value not a number.
  [[nodiscard]] std::optional<double> numeric_fact(const std::string& group, const std::string& key) const;
  //! The size labels the cases of `part` ran at, in run order.
  [[nodiscard]] std::vector<std::string> size_labels_of(const std::string& part) const;
  [[nodiscard]] bool is_transcribed() const { return provenance == "transcribed"; }
  [[nodiscard]] bool is_synthetic() const { return provenance == "synthetic"; }
};

//! Whether a schema version ("1.8.0") is at least major.minor; false for text that is not a version.
[[nodiscard]] bool schema_version_at_least(const std::string& version, int major, int minor);

//! "n = 16777216 (lesson)": a table title's size, from the first case of `part` at `size_label`;
//! the label alone when there is none.
[[nodiscard]] std::string size_title(const Transcript& transcript, const std::string& part,
                                     const std::string& size_label);

}  // namespace labrun
