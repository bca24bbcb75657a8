#pragma once
// `labrun grade`: one submission, a folder of them (on every GPU and core of a node, or a slice of
// them for a scheduler), or the merge of the reports several slices wrote.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "grading/grade_request.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! A deterministic slice of a batch: folder k (in name order) belongs to shard k % count.
struct Shard {
  int index = 0;  //!< 0-based
  int count = 1;
};

//! "I/N" with 0 <= I < N; throws UsageError naming what is wrong.
[[nodiscard]] Shard parse_shard(const std::string& text);
//! The shard a Slurm array task grades: SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN (0 when
//! unset) of SLURM_ARRAY_TASK_COUNT; nullopt outside an array job. Throws UsageError when the
//! variables are inconsistent.
[[nodiscard]] std::optional<Shard> shard_from_slurm(const std::function<const char*(const char*)>& getenv);

struct GradeCommand {
  std::string submission;  //!< one .cu file, or empty with `batch` or `merge`
  std::string batch;       //!< a folder of submission folders
  std::string merge;       //!< rebuild the summary in this folder from the reports under merge_from
  std::vector<std::string> merge_from;
  std::string manifest;
  std::string out;            //!< where results.json, report.json and report.md go
  std::string format = "md";  //!< what to print: md, json or gradescope
  bool secret_seed = false;   //!< --secret-seed: a fresh seed from /dev/urandom per submission
  bool seed_given = false;    //!< --seed was on the command line
  bool force = false;         //!< grade again what already has a report, and replace files
  int jobs = 0;               //!< gradings at once; 0: one per CPU core
  std::string devices;        //!< "0,1": the GPUs a batch uses; empty: every GPU
  std::string exercise;       //!< --exercise NAME or LAB/NAME; empty: each submission's manifest says
  std::string lab;            //!< --lab: only that lab's exercises; empty: any
  std::optional<Shard> shard;
  GradeRequest request;
};

//! Checks the command's usage before anything touches a device: throws UsageError.
void check_grade_usage(const GradeCommand& command);

//! Whether each submission's seed is drawn from /dev/urandom and kept out of the reports: with
//! --secret-seed, and in a batch unless --seed names one. A batch grades for marks, and a public seed
//! (the exercise's own) makes every call's inputs, and so its answers, knowable in advance. One
//! submission graded alone keeps the exercise's seed, for a student's reproducible check.
[[nodiscard]] bool seed_is_secret(const GradeCommand& command);

//! The seed one submission is graded with: a fresh secret one from `draw_secret` where
//! seed_is_secret, the one --seed named, or else the exercise's `default_seed`.
[[nodiscard]] std::uint64_t seed_for(const GradeCommand& command, std::uint64_t default_seed,
                                     const std::function<std::uint64_t()>& draw_secret);

//! Grades and writes the reports, each submission for its exercise (exercise/exercise.hpp; chosen
//! as command_support.hpp's choose_exercise says). Exit status: 0 graded (whatever the score); 3 no
//! usable GPU (the reports are still written, scoring 0 with a message for staff); 1 the grader could
//! not run; 4 a report file exists and --force was not given. A single submission whose exercise
//! cannot be told is a UsageError; in a batch it is a report scoring 0 (exercise-unknown).
int run_grade_command(GradeCommand command, const std::function<void(const std::string&)>& progress,
                      std::ostream& out);

//! The command line's `labrun grade`: the command, and the options it is completed from once parsed.
struct GradeArguments {
  GradeCommand command;
  std::vector<std::string> merge;  //!< --merge OUT [DIR...]
  std::string shard;               //!< --shard I/N
  std::optional<int> device;       //!< --device N, for one submission
  CLI::Option* seed = nullptr;     //!< --seed, to tell whether it was given
};

//! Adds the subcommand and its options to `app`, filling `arguments` when parsed.
CLI::App* add_grade_command(CLI::App& app, GradeArguments& arguments);

//! Completes the command from the arguments (--lab, --merge, --shard or the Slurm array, --device),
//! checks its usage (check_grade_usage), then run_grade_command. Throws UsageError before anything
//! touches a device.
int run_grade_arguments(GradeArguments& arguments, const std::function<void(const std::string&)>& progress,
                        std::ostream& out);

}  // namespace labrun
