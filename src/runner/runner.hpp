#pragma once
// Runs a lab: checks the device, sizes the cases to the card, checks correctness, times every
// selected case, and writes the transcript and its Markdown.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rounds.hpp"
#include "core/sampling.hpp"
#include "core/transcript.hpp"
#include "profile/ncu_results.hpp"
#include "registry/lab.hpp"
#include "timeline/trace_cases.hpp"

namespace labrun {

//! The request cannot be run as asked (unknown lab, no case matches, bad option value).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! No usable CUDA device: the message names the CUDA error.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! What `--lock-clocks` did, as the transcript records it, and how to undo it.
struct ClockLock {
  std::string record;             //!< in words: the command run and its outcome, or why it was not
  std::function<void()> release;  //!< resets the clocks; empty when nothing was locked
};

struct RunOptions {
  std::string lab_name;
  std::vector<std::string> case_patterns;  //!< empty: every case
  std::filesystem::path out_dir;           //!< empty: evidence/<lab>/<device-slug>
  int repetitions = 20;  //!< the minimum samples per case (exactly this many when not adaptive)
  int warmups = 3;
  int max_samples = 1000;
  //! Stop a case once its median's 95% interval is within this fraction of it; 0: fixed count.
  double target_relative_median_ci = 0.005;
  double case_time_limit_s = 0.25;  //!< wall seconds one case may spend sampling, warm-ups included
  TimingMode mode = TimingMode::kHot;
  CaseOrder order = CaseOrder::kDeclared;
  //! `--rounds`: every case is measured this many times, each round on freshly allocated buffers and
  //! in a case order of its own; --reps, --max-samples and --case-time-limit are split between them
  //! (core/rounds.hpp). 1 is the sampling of schema 1.5.0 and before.
  int rounds = kDefaultRounds;
  //! `--rounds-per-context`: rounds run in one CUDA context before the run destroys it and creates
  //! the next (core/rounds.hpp); the contexts are the units every interval is made of. At least
  //! `rounds`: every round in one context, as before schema 1.8.0.
  int rounds_per_context = kDefaultRoundsPerContext;
  //! `--small-case-rounds` (1.11.0): rounds each case of at most small_case_rounds_max_elements elements
  //! takes, at least `rounds`; the extra rounds time those cases alone, each in a context as any round
  //! is. 0: the default (small_case_rounds_for).
  int small_case_rounds = 0;
  //! `--small-case-rounds-max-elements`, a precision experiment: the most elements a case may have to
  //! take `small_case_rounds` (recorded as timing.small_case_rounds_max_elements, which every reader
  //! judges the transcript by). Default kSmallCaseRoundsMaxElements; a larger value gives larger cases
  //! (the lesson's size, which claims set against bounds read) the small cases' CUDA contexts too.
  std::uint64_t small_case_rounds_max_elements = kSmallCaseRoundsMaxElements;
  std::uint64_t seed = 48;
  // Small-n precision candidates (docs/measurement.md), each off by default: the hot path is then
  // exactly the one the committed evidence was measured with.
  //! `--small-case-batch`: samples of a case of one execution per sample and at most
  //! kSmallCaseMaxElements elements are timed this many at a time between one pair of events, each
  //! recorded as their time over this count. 1: off.
  int small_case_batch = 1;
  //! `--pin-cpu`: the CPU the host thread is pinned to (sched_setaffinity) once each CUDA context is
  //! open, from correctness checks to the timeline pass; the thread gets its CPUs back before the
  //! run starts Nsight or draws its plots. nullopt: not pinned.
  std::optional<int> pin_cpu;
  //! `--device-warmup`: seconds the GPU is kept busy (one thread spinning) before the first sample.
  double device_warmup_s = 0.0;
  //! `--lock-clocks`: called with the device's PCI bus id once the device is known; locks the SM
  //! clock (the command line does it with nvidia-smi) and returns what it did; empty: not asked.
  std::function<ClockLock(const std::string& pci_bus_id)> lock_clocks;
  bool smoke = false;  //!< tiny sizes and few samples: checks the lab runs; not evidence
  bool overwrite = false;
  //! `--write`: writers' names (evidence/writer.hpp); those not always written (run_format_names())
  //! are written beside the JSON transcript and its Markdown, which always are.
  std::vector<std::string> formats;
  std::vector<std::string> command_line;
  //! `labrun profile`: called once the timed cases are done and the session is closed, with each
  //! timed case at its largest size and the run's file stem; its record goes into the transcript.
  std::function<ProfileRecord(const std::vector<ProfileItem>&, const std::string& stem)> profiler;
  //! `--timeline`: once every case is timed, trace each timed case at each size with CUPTI
  //! (src/timeline) and write the Chrome trace and the SVG of the bars beside the transcript.
  bool timeline = false;
  //! `--timeline --nsys`: called once the session is closed, with each traced case at each size and
  //! the report's path without its extension (beside the transcript); returns the Nsight Systems
  //! report it wrote (recorded in the timeline) or throws.
  std::function<std::string(const std::vector<ProfileItem>&, const std::filesystem::path& report_base)> nsys;
};

//! Elements every size is capped at in the smoke configuration.
inline constexpr std::uint64_t kSmokeMaxElements = 1u << 16;
//! A smoke run takes at most this many rounds (of one sample each, at most 3 samples in all).
inline constexpr int kSmokeMaxRounds = 3;
//! The rounds a run takes: options.rounds, at most kSmokeMaxRounds in the smoke configuration.
[[nodiscard]] int rounds_for(const RunOptions& options);
//! The rounds a small case (at most options.small_case_rounds_max_elements elements) takes in a run of
//! `rounds` rounds (rounds_for): options.small_case_rounds when given; else, in cold and hot-gated timing
//! with 2 CUDA contexts or more, enough for kSmallCaseContextsCold or kSmallCaseContextsHotGated contexts (x
//! options.rounds_per_context), or `rounds` where that is more (their level moves with the context:
//! docs/measurement.md); else `rounds` (hot timing keeps its behaviour: there the process varies as
//! much as the context); `rounds` in the smoke configuration. Throws UsageError for an
//! options.small_case_rounds below `rounds`.
[[nodiscard]] int small_case_rounds_for(const RunOptions& options, int rounds);
//! `--small-case-batch` applies to cases of at most this many elements (the small n, 2^18).
inline constexpr std::uint64_t kSmallCaseMaxElements = 1u << 18;

struct RunReport {
  Transcript transcript;
  std::filesystem::path json_path;
  std::filesystem::path markdown_path;
  std::string markdown;                             //!< exactly what was written to markdown_path
  std::vector<std::filesystem::path> format_files;  //!< the --write formats, in the writers' order
  std::vector<std::filesystem::path> plot_files;    //!< drawn beside them and linked from the Markdown
};

using ProgressSink = std::function<void(const std::string&)>;

//! The sizes a case runs at once the card-scaled size is known (nullopt: not used) and the smoke
//! cap applied: duplicates removed, declared order kept.
struct ResolvedSize {
  std::string label;
  std::uint64_t elements = 0;
  std::optional<Shape> shape = std::nullopt;  //!< registry/lab.hpp's shape_at: the image, for image cases
};
[[nodiscard]] std::vector<ResolvedSize> resolve_sizes(const CaseSpec& spec,
                                                      const std::optional<std::uint64_t>& card_scaled,
                                                      bool smoke);

//! One selected case at one of its resolved sizes: what the sampler times once.
struct PlannedCase {
  const CaseSpec* spec = nullptr;
  ResolvedSize size;
};
//! The plan stage's order: every selected case at each size resolve_sizes gives it, in the lab's
//! declared order, or shuffled by options.seed with --order shuffle (interleave keeps the declared
//! order and interleaves the samples).
[[nodiscard]] std::vector<PlannedCase> plan_cases(const std::vector<const CaseSpec*>& selected,
                                                  const std::optional<std::uint64_t>& card_scaled,
                                                  const RunOptions& options);

//! "2026-11-30T05:40:12Z" for now (UTC).
[[nodiscard]] std::string utc_timestamp_now();
//! "2026-11-30T05-40-12Z": the timestamp as a file name.
[[nodiscard]] std::string timestamp_file_stem(const std::string& utc_timestamp);

//! Samples whose SM clock is below this fraction of the card's maximum are flagged throttled.
inline constexpr double kThrottleFraction = 0.95;
//! Cold mode reads this many times the L2 size before each sample.
inline constexpr int kL2FlushMultiple = 2;

//! The run's sampling settings, as the transcript records them (smoke: 3 samples, 1 warm-up,
//! adaptive sampling off). Throws UsageError for values out of range.
[[nodiscard]] SamplingRule sampling_rule_for(const RunOptions& options);

//! Samples of `spec` at `elements` timed together between one pair of events: options.small_case_batch
//! for a case of one execution per sample and at most kSmallCaseMaxElements elements, else 1.
[[nodiscard]] int event_pair_batch_for(const CaseSpec& spec, std::uint64_t elements,
                                       const RunOptions& options);

//! What a run request asks for, checked before any device is touched.
struct RunPlan {
  std::vector<const CaseSpec*> selected;  //!< in the lab's declared order
  SamplingRule rule;                      //!< for each case over all its rounds
  int rounds = 1;                         //!< rounds_for(options)
  SamplingRule round;                     //!< for one round of a case (core/rounds.hpp)
  int rounds_per_context = 1;             //!< options.rounds_per_context, at most `rounds`
  int small_case_rounds = 1;              //!< small_case_rounds_for(options, rounds)
  SamplingRule small_case_round;          //!< for one round of a small case
  //! The most elements a case takes small_case_rounds at (options.small_case_rounds_max_elements).
  std::uint64_t small_case_rounds_max_elements = kSmallCaseRoundsMaxElements;
};
//! Checks everything about a request that needs no GPU: every --case pattern matches a case (a
//! pattern that matches nothing is refused by name, even when another matches), the sampling
//! options (sampling_rule_for, --rounds, --rounds-per-context, the precision options; a --pin-cpu
//! this process may not run on), the seed is one a transcript holds (at most 2^63 - 1), every
//! --write format is a writer's name, a given --out folder can be created, and the current
//! transcript schema is among labrun's data files. Throws UsageError, or std::runtime_error for the last two.
[[nodiscard]] RunPlan check_run_request(const Lab& lab, const RunOptions& options);

//! The write stage, run_lab's last. Validates the transcript's JSON text against its schema (a
//! transcript the schema refuses is never written: std::runtime_error), refuses, before writing
//! anything, any target that exists unless options.overwrite (FileExistsError), draws the lab's
//! plots (render_plots), then writes into `out_dir`, each named `stem` and its suffix, as one set
//! (base/atomic_file.hpp's FileSet: all of them or none): the JSON transcript and the
//! options.formats (evidence/writer.hpp), the timeline's Chrome trace and SVG (when `timeline`
//! measured), the plots, and the Markdown linking the plots that were drawn. Every file but the
//! trace is rendered from the JSON text as written, so `labrun report` on the file reproduces it.
//! A renderer failure costs the plots (said through `progress`), not the run; a write failure
//! throws WriteError naming the file, and nothing of the set is left.
[[nodiscard]] RunReport write_run_files(const Lab& lab, Transcript transcript,
                                        const std::optional<TimelinePass>& timeline,
                                        const std::filesystem::path& out_dir, const std::string& stem,
                                        const RunOptions& options, const ProgressSink& progress);

//! Runs and writes, in stages (runner.cpp): check the request (check_run_request first, so that a
//! usage error is reported as one, exit 2, on a machine without a GPU too), plan the cases and
//! sizes, check correctness, sample the cases, record the results and passes, write the files.
//! Throws UsageError, NoDeviceError, CudaError, FileExistsError or std::runtime_error; writes
//! nothing when the run fails before its end.
[[nodiscard]] RunReport run_lab(const Lab& lab, const RunOptions& options, const ProgressSink& progress);

}  // namespace labrun
