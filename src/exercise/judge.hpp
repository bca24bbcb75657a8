#pragma once
// The verdict on a submission, from what trusted code measured: the source check, the compiler, the
// grading child (exercise/child_protocol.hpp) and compute-sanitizer. The manifest is the student's
// worked answer and is graded as one; it is never taken as a fact about the code. judge() reaches
// the verdicts the exercise's rubric reads (an Outcome) and applies its table: the builds, the way
// the run stopped, compute-sanitizer, the timed calls, the speed and the worked answer are judged
// here for every exercise; what the probes found is the exercise's own judge_probes. Host logic
// only: tested without a GPU.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exercise/child_protocol.hpp"
#include "exercise/exercise.hpp"
#include "exercise/rubric.hpp"
#include "grading/manifest.hpp"
#include "grading/report.hpp"
#include "grading/source_check.hpp"
#include "process/process.hpp"

namespace labrun {

struct SanitizerRun {
  std::string tool;  //!< "memcheck", "racecheck", "synccheck"
  bool clean = false;
  std::string summary;   //!< the tool's summary lines, or how the run ended
  bool finished = true;  //!< it gave a verdict (its log has a summary), or it was not needed
  double seconds = 0.0;  //!< wall seconds of its run; 0 where it was not needed
};

struct JudgeInput {
  std::string submission;  //!< the file graded, as named
  std::optional<Manifest> manifest;
  std::string manifest_problem;                //!< why there is no manifest (missing, unreadable)
  bool manifest_missing = false;               //!< no manifest file at all
  std::vector<SourceProblem> source_problems;  //!< non-empty: not compiled
  bool compiled = false;
  std::string compiler_messages;  //!< about the submission's own lines only
  //! The compiled image may not be loaded: "image-too-large" or "device-memory-too-large", with the
  //! sentence for the student (exercise/submission_build.hpp).
  std::string image_refusal;
  std::string image_refusal_message;
  std::optional<ProcessResult> child;   //!< how the grading child ended; absent when it did not run
  std::optional<ChildResults> results;  //!< what it measured, if it wrote anything
  std::string last_step;                //!< the child's phase file when it ended
  bool default_launch_shapes = false;   //!< the manifest gave none usable
  bool sanitizer_available = false;
  std::vector<SanitizerRun> sanitizers;
  double run_limit_seconds = 0.0;
  double seconds = 0.0;  //!< grading wall time so far
  //! Wall seconds of each step that ran, in order ("compiling", "waiting to check", ...).
  std::vector<std::pair<std::string, double>> phase_seconds;
  //! Non-empty when the grading shared its GPU when something went wrong and was graded again with
  //! the GPU to itself; what it says is why. The verdict is the second grading's.
  std::string graded_alone_because;
  //! Non-empty when grading could not run at all (no GPU, a missing grader program): a message for
  //! course staff; the submission scores 0 and no verdict is given on it.
  std::string grader_problem;
};

//! What judge() has found so far: the verdicts the rubric reads, and what each row found, for the
//! student. An exercise's judge_probes fills the odd size, card size, structure and buffers rows.
struct Judgement {
  Outcome outcome;
  std::map<Check, std::string> output;
  std::string stopped;  //!< why the grading run stopped early, "" when it did not
  std::string not_run;  //!< what a row that was never measured says
  //! What a probe row shows: what was found, or that nothing was measured, or (a good finding
  //! while probes are missing) that not all was measured.
  [[nodiscard]] std::string probe_finding(bool any_probe, bool every_probe, bool good,
                                          const std::string& found) const;
};

//! Names a mistake once: a second finding of the same id keeps the first's explanation.
void add_mistake(GradeReport& report, const std::string& id, const std::string& explanation);

//! "3 elements", "1 word".
[[nodiscard]] std::string count_of(std::uint64_t count, const std::string& noun);

//! What the card's memory was measured to do beside a submission, per kind of traffic (GB/s, 10^9
//! bytes per second; 0 where nothing measured it): a read-only stream (the harness's own, and any
//! of the exercise's lab cases that writes nothing), and a copy's read and write together (the
//! harness's own, and the lab cases the exercise calls copies).
struct CardBandwidths {
  double read_only_gb_per_s = 0.0;
  double copy_gb_per_s = 0.0;
};
[[nodiscard]] CardBandwidths measured_bandwidths(const Exercise& exercise, const TimingResult& timing);

//! The least time (milliseconds) any correct submission needs to move `traffic` for `elements` on
//! that card: each byte read at the read-only stream's bandwidth, each byte written at what a
//! copy's byte pair takes beyond its read. A reduction that reads 4 bytes and writes none is bound
//! by the read-only stream, a copy by the copy. 0 (no bound) where neither was measured.
[[nodiscard]] double fastest_possible_ms(const ByteModel& traffic, std::uint64_t elements,
                                         const CardBandwidths& card);

//! The report: one test per row of the exercise's rubric, in its order, and every mistake named. A
//! submission whose source is refused for reaching a file it may not earns nothing, its worked
//! answer included.
[[nodiscard]] GradeReport judge(const Exercise& exercise, const JudgeInput& input);

}  // namespace labrun
