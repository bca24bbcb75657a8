#include "cli/grade_command.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "base/csv.hpp"
#include "base/format.hpp"
#include "base/temporary_files.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "device/device_info.hpp"
#include "device/visible_devices.hpp"
#include "evidence/markdown.hpp"
#include "exercise/compile_turns.hpp"
#include "exercise/grader.hpp"
#include "grading/batch_slots.hpp"
#include "grading/gpu_turns.hpp"
#include "grading/grade_request.hpp"
#include "grading/manifest.hpp"
#include "grading/phase_tally.hpp"
#include "grading/report.hpp"
#include "grading/summary_row.hpp"
#include "grading/utf8.hpp"
#include "runner/runner.hpp"

namespace labrun {
namespace {

// --jobs at most. A batch holds, at once, a scratch folder for every grading that works or waits
// for compute-sanitizer (jobs, and as many again, at least two screening groups' worth), a control
// folder for every grading worker (at most one per job) and for each tool's screening group, and a
// file being written by any of them: each a registered temporary (base/temporary_files.hpp), of
// which there are only so many.
constexpr int kBatchJobsMax = 128;
// Gradings on one GPU at once (each a worker's context). Contexts of different processes take turns
// on a GPU (time slices), they do not run side by side: more of them do not make the checks' GPU
// work finish sooner, they lengthen the shared turns and the drains before each timing turn. On an
// H200 (day 48, 160 honest submissions, 2026-12-04 18:56Z) 8 held the GPU 44.9 s, 16 held it 46.8 s
// and 32 held it 54.3 s, against 4's 47.6 s, which left it idle 4.6 s: 8 graded fastest.
constexpr std::size_t kGradingsPerGpuMax = 8;
constexpr std::size_t kScreenedTools = 3;  // memcheck, racecheck, synccheck
static_assert(2 * (kBatchJobsMax + std::max<std::size_t>(kBatchJobsMax, 2 * kSanitizerGroupMembers)) +
                      kBatchJobsMax + 2 * kScreenedTools <=
                  kRegisteredTemporariesMax,
              "a batch at --jobs kBatchJobsMax may need more temporaries than can be registered");

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

//! Where a batch writes each submission's reports: OUT/submissions/<folder>/, apart from the
//! summaries in OUT itself, so that no folder's name can collide with a summary's.
constexpr const char* kReportsFolder = "submissions";

std::uint64_t secret_seed() {
  std::ifstream random("/dev/urandom", std::ios::binary);
  std::uint64_t seed = 0;
  random.read(reinterpret_cast<char*>(&seed), sizeof seed);
  if (!random) {
    throw std::runtime_error("cannot read /dev/urandom for a secret seed");
  }
  return seed;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) {
    return "unknown";
  }
  return valid_utf8(name);
}

std::string render_grade(const GradeReport& report, const std::string& format) {
  if (format == "json") {
    return dump_report(report_json(report));
  }
  if (format == "gradescope") {
    return dump_report(gradescope_results(report));
  }
  return report_markdown(report);
}

void write_grade_files(const GradeReport& report, const fs::path& folder, bool overwrite) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    throw std::runtime_error("cannot create " + folder.string() + ": " + error.message());
  }
  // One set: all three or none (a rerun grades a folder again when its report.json is missing).
  FileSet files;
  files.add(folder / "results.json", dump_report(gradescope_results(report)));
  files.add(folder / "report.json", dump_report(report_json(report)));
  files.add(folder / "report.md", report_markdown(report));
  files.commit(overwrite);
}

// A report for a folder that holds no gradable submission, or one the grader failed on: score 0,
// one test that says why. `lab`: the exercise's lab, where it is known.
GradeReport not_graded(const std::string& lab, const std::string& submission, const std::string& id,
                       const std::string& explanation, const std::string& problem_kind) {
  GradeReport report;
  report.lab = lab;
  report.student_id = "unknown";
  report.submission = valid_utf8(submission);
  report.host = host_name();
  report.tests.push_back({"Submission graded", false, 0.0, 100.0, valid_utf8(explanation), "visible"});
  report.mistakes.push_back({id, valid_utf8(explanation)});
  report.grader_problem_kind = problem_kind;
  return report;
}

GradeReport grade_one(const LabExercise& exercise, const GradeRequest& request,
                      const std::function<void(const std::string&)>& progress) {
  GradeReport report;
  try {
    report = exercise.grade(request, progress);
  } catch (const std::exception& error) {
    report = not_graded(exercise.lab, request.submission.string(), "grader-error",
                        std::string("the grader failed on this submission (") + error.what() +
                            "); this is not a mistake in the submission: course staff must grade it again",
                        "setup");
  }
  report.host = host_name();
  return report;
}

void record_seed(GradeReport& report, const GradeCommand& command, std::uint64_t seed) {
  if (seed_is_secret(command)) {
    report.raw["seed"] = "secret";
  } else {
    report.raw["seed"] = seed;
  }
}

int exit_status_of(const std::string& grader_problem_kind) {
  if (grader_problem_kind == "no-device") {
    return exit_code::kNoDevice;
  }
  return grader_problem_kind.empty() ? exit_code::kOk : exit_code::kFailure;
}

// The row of a folder's report.json; nullopt when it has none readable.
std::optional<SummaryRow> existing_row(const fs::path& folder) {
  return read_summary_row(folder).row;
}

// The row of a folder graded before, which a rerun keeps; nullopt when it must be graded (again):
// no readable report, or one that says the grader could not grade it (no GPU, a missing program).
std::optional<SummaryRow> graded_before(const fs::path& folder) {
  std::optional<SummaryRow> row = existing_row(folder);
  if (row && !row->grader_problem.empty()) {
    return std::nullopt;
  }
  return row;
}

// Each byte of `bytes` as two lower-case hexadecimal digits.
std::string hexadecimal_bytes(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * bytes.size());
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 0x0F];
  }
  return hex;
}

// summary.md, summary.json and summary.csv (stem "summary"), one row per submission folder. Every
// string of a row comes from a report.json on disk (with --merge, from any folder given) and much of
// it from a submission (its folder's name, its student id), so each is made inert (grading/utf8.hpp)
// for all three files: render_table escapes the Markdown cells, csv_line quotes the CSV fields and
// neutralises formulas. A folder's name must still name its folder: summary.json holds it exactly
// (a JSON string escapes what must be escaped; a name that is not UTF-8 is given byte for byte in
// "submission_bytes", hexadecimal), and summary.md and summary.csv hold its visible_text, which
// tells any two names apart.
void write_summary(const std::vector<SummaryRow>& rows, const fs::path& out_dir, const std::string& stem,
                   bool overwrite, std::ostream& out) {
  Table table;
  table.headers = {"submission", "student", "graded as", "score", "mistakes", "seconds"};
  table.right_aligned = {false, false, false, true, false, true};
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  // lab comes last in the CSV, after the columns spreadsheets already read by position.
  std::string csv =
      "submission,student_id,score,max_score,mistakes,graded,seconds,device,device_uuid,host,lab\n";
  std::size_t not_graded_count = 0;
  for (const SummaryRow& row : rows) {
    std::vector<std::string> mistakes;
    for (const std::string& id : row.mistakes) {
      mistakes.push_back(inert_text(id));
    }
    const std::string submission = visible_text(row.submission);
    const bool exact_in_json = code_point_count(row.submission).has_value();
    const std::string student_id = inert_text(row.student_id);
    const std::string device = inert_text(row.device);
    const std::string device_uuid = inert_text(row.device_uuid);
    const std::string host = inert_text(row.host);
    const std::string lab = inert_text(row.lab);
    const std::string listed = join(mistakes, ", ");
    not_graded_count += row.grader_problem.empty() ? 0 : 1;
    table.rows.push_back({submission, student_id, lab.empty() ? "-" : lab,
                          fixed(row.score, 0) + " / " + fixed(row.max_score, 0),
                          listed.empty() ? "-" : listed, fixed(row.seconds, 1)});
    nlohmann::ordered_json json_row{{"submission", exact_in_json ? row.submission : submission}};
    if (!exact_in_json) {
      json_row["submission_bytes"] = hexadecimal_bytes(row.submission);
    }
    json_row.update(nlohmann::ordered_json{{"student_id", student_id},
                                           {"score", row.score},
                                           {"max_score", row.max_score},
                                           {"mistakes", mistakes},
                                           {"graded", row.grader_problem.empty()},
                                           {"execution_time", row.seconds},
                                           {"device", device},
                                           {"device_uuid", device_uuid},
                                           {"host", host},
                                           {"lab", lab}});
    json.push_back(std::move(json_row));
    csv += csv_line({submission, student_id, fixed(row.score, 1), fixed(row.max_score, 1),
                     join(mistakes, ";"), row.grader_problem.empty() ? "true" : "false",
                     fixed(row.seconds, 2), device, device_uuid, host, lab}) +
           "\n";
  }
  std::string markdown = "# Grades\n\n" + render_table(table);
  if (not_graded_count > 0) {
    markdown += "\n" + std::to_string(not_graded_count) + " of " + std::to_string(rows.size()) +
                " submissions could not be graded by this grader (see their reports).\n";
  }
  // One set, as `run` writes its files: all three in place, or none and the earlier three as they were.
  FileSet summaries;
  summaries.add(out_dir / (stem + ".md"), markdown);
  summaries.add(out_dir / (stem + ".json"), dump_report(json));
  summaries.add(out_dir / (stem + ".csv"), csv);
  summaries.commit(overwrite);
  out << markdown;
}

// The GPUs a batch grades on, each with its turns and what its gradings of each exercise share
// (by the exercise's full name).
struct BatchGpu {
  int device = 0;
  std::string visible_devices;
  std::unique_ptr<GpuTurns> turns;
  //! Its grading workers and sanitizer screen (made after `turns`, which they use; gone before).
  BatchGradingHelpers helpers;
  std::map<std::string, nlohmann::ordered_json> shared;
  int in_flight = 0;
};

// What one folder of a batch is: its one source and its exercise, or why it cannot be graded.
struct BatchFolder {
  std::vector<fs::path> sources;
  const LabExercise* exercise = nullptr;
  std::string problem;  // why no exercise was chosen
};

BatchFolder read_batch_folder(const fs::path& folder, const GradeCommand& command) {
  BatchFolder read;
  read.sources = submission_sources(folder);
  if (read.sources.size() == 1) {
    const Lab* lab = command.lab.empty() ? nullptr : &find_lab_or_throw(command.lab);
    const ExerciseChoice choice = choose_exercise(read.sources.front(), {}, command.exercise, lab);
    read.exercise = choice.exercise;
    read.problem = choice.problem;
  }
  return read;
}

std::vector<int> batch_devices(const GradeCommand& command) {
  if (!command.devices.empty()) {
    return parse_device_list(command.devices);
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
    static_cast<void>(cudaGetLastError());
    return {0};  // graded as no-device reports, each saying why
  }
  std::vector<int> all(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    all[static_cast<std::size_t>(d)] = d;
  }
  return all;
}

// Seconds of a batch before its progress lines give a rate and the time left.
constexpr double kSecondsBeforeRate = 10.0;

std::string duration(double seconds) {
  const long whole = std::lround(seconds);
  return whole >= 60 ? std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s"
                     : std::to_string(whole) + " s";
}

// Grades the batch folder's submissions (this shard of them), `jobs` at a time over the batch's
// GPUs, and writes a summary with one row per folder, those that could not be graded included.
int grade_batch(const GradeCommand& command, const std::function<void(const std::string&)>& progress,
                std::ostream& out) {
  if (command.exercise.empty() && command.lab.empty()) {
    progress(
        "no --exercise or --lab: each folder's manifest chooses the exercise it is graded as; a course "
        "grading one assignment names it with --exercise");
  }
  const fs::path out_dir = command.out;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(command.batch)) {
    if (entry.is_directory()) {
      folders.push_back(entry.path());
    }
  }
  std::sort(folders.begin(), folders.end());
  if (command.shard) {
    std::vector<fs::path> mine;
    for (std::size_t k = 0; k < folders.size(); ++k) {
      if (static_cast<int>(k % static_cast<std::size_t>(command.shard->count)) == command.shard->index) {
        mine.push_back(folders[k]);
      }
    }
    folders = mine;
  }
  const fs::path reports_dir = out_dir / kReportsFolder;
  std::vector<std::optional<SummaryRow>> rows(folders.size());
  std::vector<std::size_t> to_grade;
  std::vector<bool> replace(folders.size(), command.force);  // a grader-error report is replaced
  std::size_t again = 0;
  for (std::size_t k = 0; k < folders.size(); ++k) {
    if (!command.force) {
      rows[k] = graded_before(reports_dir / folders[k].filename());
      if (!rows[k] && existing_row(reports_dir / folders[k].filename())) {
        replace[k] = true;
        ++again;
      }
    }
    if (!rows[k]) {
      to_grade.push_back(k);
    }
  }
  // Each folder's exercise, from its manifest (or --exercise): a batch may mix them.
  std::vector<BatchFolder> read(folders.size());
  std::vector<const LabExercise*> exercises;
  for (const std::size_t k : to_grade) {
    read[k] = read_batch_folder(folders[k], command);
    if (read[k].exercise != nullptr &&
        std::find(exercises.begin(), exercises.end(), read[k].exercise) == exercises.end()) {
      exercises.push_back(read[k].exercise);
    }
  }
  const std::size_t skipped = folders.size() - to_grade.size();
  progress(
      std::to_string(folders.size()) + " submissions" +
      (command.shard ? " (shard " + std::to_string(command.shard->index) + "/" +
                           std::to_string(command.shard->count) + ")"
                     : std::string()) +
      (skipped > 0 ? ", " + std::to_string(skipped) + " already graded (--force grades them again)" : "") +
      (again > 0 ? ", " + std::to_string(again) + " graded again (the grader could not grade them before)"
                 : ""));

  std::vector<BatchGpu> gpus;
  for (const int device : batch_devices(command)) {
    BatchGpu gpu;
    gpu.device = device;
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    gpu.visible_devices =
        visible_device_entry(visible == nullptr ? std::nullopt : std::optional<std::string>(visible), device);
    gpus.push_back(std::move(gpu));
  }
  const int jobs =
      std::max(1, command.jobs > 0 ? command.jobs : static_cast<int>(std::thread::hardware_concurrency()));
  const bool gpu_usable = command.request.simulated_gpu.has_value() || probe_devices().usable;
  for (BatchGpu& gpu : gpus) {
    std::size_t sharers = static_cast<std::size_t>(jobs);
    gpu.turns = std::make_unique<GpuTurns>(static_cast<std::size_t>(jobs));
    for (const LabExercise* exercise : gpu_usable ? exercises : std::vector<const LabExercise*>{}) {
      GradeRequest request = command.request;
      request.device = gpu.device;
      request.visible_devices = gpu.visible_devices;
      request.turns = gpu.turns.get();
      nlohmann::ordered_json& shared = gpu.shared[exercise->full_name()];
      try {
        shared = exercise->prepare_grading(request, progress);
        sharers = std::min(sharers, shared.value("max_concurrent", std::size_t{1}));
      } catch (const std::exception& error) {
        progress("GPU " + std::to_string(gpu.device) + ": " + error.what() + "; each grading of " +
                 exercise->full_name() + " there times the lab's kernels itself, in its turn to time");
        shared = nlohmann::ordered_json::object();
        sharers = 1;
      }
    }
    sharers = exercises.empty() || !gpu_usable ? 1 : sharers;
    // Timers gather in groups of half the gradings in flight, or after 2 s of waiting. No more
    // gradings' processes are on the GPU at once than its memory holds, whatever each is doing,
    // nor more than kGradingsPerGpuMax: the rest of --jobs compile meanwhile, and wait for a worker.
    const std::size_t in_flight = std::min({sharers, static_cast<std::size_t>(jobs), kGradingsPerGpuMax});
    gpu.turns = std::make_unique<GpuTurns>(in_flight, std::max<std::size_t>(1, in_flight / 2), 2.0, sharers);
    if (gpu_usable && !exercises.empty()) {
      GradeRequest request = command.request;
      request.device = gpu.device;
      request.visible_devices = gpu.visible_devices;
      request.turns = gpu.turns.get();
      gpu.helpers = batch_grading_helpers(request, in_flight);
    }
  }

  // `jobs` gradings work at once; as many again, and at least two screening groups' worth, may wait
  // for compute-sanitizer's verdict holding no slot (grading/batch_slots.hpp). A member waits for
  // its group's window (kSanitizerWindowSeconds) and end, so more gradings wait than work.
  const int may_wait = std::max(jobs, 2 * static_cast<int>(kSanitizerGroupMembers));
  BatchSlots slots(static_cast<std::size_t>(jobs));
  CompileTurns compile_turns;
  std::mutex mutex;   // guards rows, the GPUs' in_flight counts, next, done and phases
  PhaseTally phases;  // where the gradings' time went
  std::size_t next = 0;
  std::size_t done = 0;
  int status = exit_code::kOk;
  const Clock::time_point start = Clock::now();
  const auto worker = [&] {
    while (true) {
      std::size_t k = 0;
      BatchGpu* gpu = nullptr;
      const SlotHeld slot(slots);
      {
        const std::lock_guard<std::mutex> lock(mutex);
        if (next == to_grade.size()) {
          return;
        }
        k = to_grade[next++];
        gpu = &*std::min_element(gpus.begin(), gpus.end(), [](const BatchGpu& a, const BatchGpu& b) {
          return a.in_flight < b.in_flight;
        });
        ++gpu->in_flight;
        if (next == to_grade.size()) {
          // The last submission is handed out: open screening groups need not wait out their
          // windows for members that will not come.
          for (BatchGpu& each : gpus) {
            if (each.helpers.screen != nullptr) {
              each.helpers.screen->no_more_gradings();
            }
          }
        }
      }
      const fs::path& folder = folders[k];
      const std::string name = folder.filename().string();
      const std::vector<fs::path>& sources = read[k].sources;
      const LabExercise* exercise = read[k].exercise;
      GradeReport report;
      if (sources.size() != 1) {
        std::string listed;
        for (const fs::path& s : sources) {
          listed += (listed.empty() ? "" : ", ") + s.filename().string();
        }
        report = sources.empty() ? not_graded(command.lab, folder.string(), "no-source",
                                              "the folder holds no .cu file to grade", "")
                                 : not_graded(command.lab, folder.string(), "several-sources",
                                              "the folder holds " + std::to_string(sources.size()) +
                                                  " .cu files (" + listed + "): a submission is one .cu file",
                                              "");
      } else if (exercise == nullptr) {
        report = not_graded(command.lab, sources.front().string(), "exercise-unknown", read[k].problem, "");
      } else {
        GradeRequest request = command.request;
        request.submission = sources.front();
        request.manifest.clear();
        request.device = gpu->device;
        request.visible_devices = gpu->visible_devices;
        request.turns = gpu->turns.get();
        request.workers = gpu->helpers.workers.get();
        request.sanitizer_screen = gpu->helpers.screen.get();
        request.slots = &slots;
        request.compile_turns = &compile_turns;
        const auto shared = gpu->shared.find(exercise->full_name());
        request.shared = shared == gpu->shared.end() ? nlohmann::ordered_json::object() : shared->second;
        request.seed = seed_for(command, exercise->default_seed, secret_seed);
        report = grade_one(*exercise, request, [](const std::string&) {});
        record_seed(report, command, request.seed);
      }
      std::string failure;
      try {
        write_grade_files(report, reports_dir / name, replace[k]);
      } catch (const std::exception& error) {
        failure = error.what();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      --gpu->in_flight;
      ++done;
      if (!failure.empty()) {
        status = std::max(status, exit_code::kFileExists);
        std::string line = "[" + std::to_string(done) + "/" + std::to_string(to_grade.size()) + "] ";
        line += name;
        line += ": ";
        line += failure;
        progress(line);
        continue;
      }
      status = std::max(status, exit_status_of(report.grader_problem_kind));
      rows[k] = summary_row_of(name, report_json(report));
      if (!report.phase_seconds.empty()) {
        phases.add(report.phase_seconds);
      }
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      const double rate = static_cast<double>(done) / std::max(elapsed, 1e-9);
      // The first gradings to end are often refusals that took no time: no rate until it means something.
      const bool rate_known = elapsed >= kSecondsBeforeRate;
      progress("[" + std::to_string(done) + "/" + std::to_string(to_grade.size()) + "] " + valid_utf8(name) +
               ": " + fixed(report.score(), 0) + "/" + fixed(report.max_score(), 0) +
               (gpu_usable ? " on GPU " + std::to_string(gpu->device) : std::string(" (no usable GPU)")) +
               " · " +
               (rate_known ? fixed(rate * 60.0, 1) + " per minute · " +
                                 duration(static_cast<double>(to_grade.size() - done) / rate) + " left"
                           : std::string("rate after ") + fixed(kSecondsBeforeRate, 0) + " s") +
               (phases.gradings() > 0 ? " · " + phases.line() : std::string()));
    }
  };
  std::vector<std::thread> workers;
  for (int w = 0; w < jobs + may_wait && static_cast<std::size_t>(w) < to_grade.size(); ++w) {
    workers.emplace_back(worker);
  }
  for (std::thread& t : workers) {
    t.join();
  }
  if (!to_grade.empty()) {
    if (phases.gradings() > 0) {
      progress("where the time went: " + phases.line());
    }
    if (const std::size_t recompiled = compile_turns.compiled_again(); recompiled > 0) {
      progress(std::to_string(recompiled) + (recompiled == 1 ? " compiler run" : " compiler runs") +
               " stopped at the wall clock beside other compiles ran again with none beside them");
    }
    for (BatchGpu& gpu : gpus) {
      if (gpu.helpers.workers != nullptr) {
        progress("GPU " + std::to_string(gpu.device) + ": " + gpu.helpers.describe());
      }
      if (gpu.turns != nullptr && gpu_usable) {
        progress("GPU " + std::to_string(gpu.device) + " held for: " + gpu.turns->describe_time());
      }
      gpu.helpers = BatchGradingHelpers{};  // the workers end before the turns they use
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    progress("graded " + std::to_string(to_grade.size()) + " in " + duration(elapsed) + " (" +
             fixed(static_cast<double>(to_grade.size()) / elapsed * 60.0, 1) + " per minute, " +
             std::to_string(std::min<std::size_t>(static_cast<std::size_t>(jobs), to_grade.size())) +
             " at a time" +
             (gpu_usable
                  ? " on " + std::to_string(gpus.size()) + " GPU" + (gpus.size() == 1 ? "" : "s")
                  : std::string(", with no usable GPU: every report says so, and a rerun grades them")) +
             ")");
  }
  std::vector<SummaryRow> summary;
  for (const auto& row : rows) {
    if (row) {
      summary.push_back(*row);
    }
  }
  const std::string stem = command.shard ? "summary-shard-" + std::to_string(command.shard->index) + "-of-" +
                                               std::to_string(command.shard->count)
                                         : "summary";
  write_summary(summary, out_dir, stem, true, out);
  return status;
}

// One summary from the per-submission reports under several folders (what the tasks of a
// scheduler's array wrote). A submission found twice with different reports is an error.
int merge_reports(const GradeCommand& command, const std::function<void(const std::string&)>& progress,
                  std::ostream& out) {
  std::map<std::string, std::pair<SummaryRow, fs::path>> found;
  std::vector<std::string> problems;
  const std::vector<std::string> from =
      command.merge_from.empty() ? std::vector<std::string>{command.merge} : command.merge_from;
  for (const std::string& dir : from) {
    // Every file-system failure (a link loop, a folder that cannot be read) is one of the problems,
    // named with its path: error codes, never a raw filesystem_error.
    const fs::path reports = fs::path(dir) / kReportsFolder;
    std::error_code error;
    if (!fs::is_directory(reports, error)) {
      problems.push_back(reports.string() + (error ? ": " + error.message() : " does not exist") +
                         ": --merge reads the reports a batch wrote there");
      continue;
    }
    for (fs::directory_iterator it(reports, error), end; !error && it != end; it.increment(error)) {
      const fs::path folder = it->path();
      std::error_code entry_error;
      const bool is_folder = it->is_directory(entry_error);
      if (!entry_error && is_folder && !fs::exists(folder / "report.json", entry_error) && !entry_error) {
        continue;
      }
      if (entry_error) {
        problems.push_back(folder.string() + ": " + entry_error.message());
        continue;
      }
      if (!is_folder) {
        continue;
      }
      const std::string name = folder.filename().string();
      const SummaryRowRead read = read_summary_row(folder);
      if (!read.row) {
        problems.push_back(read.problem);
        continue;
      }
      const auto [it_found, inserted] = found.emplace(name, std::pair{*read.row, folder});
      std::error_code first_error;
      std::error_code second_error;
      if (!inserted &&
          (fs::canonical(it_found->second.second, first_error) != fs::canonical(folder, second_error) ||
           first_error || second_error)) {
        problems.push_back(name + " was graded twice (" + it_found->second.second.string() + ", " +
                           folder.string() + ")");
      }
    }
    if (error) {
      problems.push_back(reports.string() + ": " + error.message());
    }
  }
  if (!problems.empty()) {
    for (const std::string& p : problems) {
      progress(p);
    }
    throw std::runtime_error(std::to_string(problems.size()) +
                             " reports could not be merged (each named above)");
  }
  std::vector<SummaryRow> rows;
  rows.reserve(found.size());
  for (const auto& [name, row] : found) {
    rows.push_back(row.first);
  }
  std::error_code created;
  fs::create_directories(command.merge, created);
  if (created) {
    throw std::runtime_error("cannot create " + command.merge + ": " + created.message());
  }
  write_summary(rows, command.merge, "summary", true, out);
  return exit_code::kOk;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  Shard shard;
  try {
    std::size_t used_index = 0;
    std::size_t used_count = 0;
    if (slash == std::string::npos) {
      throw std::invalid_argument("no slash");
    }
    shard.index = std::stoi(text.substr(0, slash), &used_index);
    shard.count = std::stoi(text.substr(slash + 1), &used_count);
    if (used_index != slash || used_count != text.size() - slash - 1) {
      throw std::invalid_argument("trailing text");
    }
  } catch (const std::exception&) {
    throw UsageError("--shard takes I/N, the 0-based slice I of N, not '" + text + "'");
  }
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count) {
    throw UsageError("--shard " + text + ": I must be at least 0 and less than N");
  }
  return shard;
}

std::optional<Shard> shard_from_slurm(const std::function<const char*(const char*)>& getenv) {
  const char* id = getenv("SLURM_ARRAY_TASK_ID");
  const char* count = getenv("SLURM_ARRAY_TASK_COUNT");
  if (id == nullptr || count == nullptr) {
    return std::nullopt;
  }
  const char* min = getenv("SLURM_ARRAY_TASK_MIN");
  try {
    const int first = min == nullptr ? 0 : std::stoi(min);
    return parse_shard(std::to_string(std::stoi(id) - first) + "/" + std::to_string(std::stoi(count)));
  } catch (const std::invalid_argument&) {
    throw UsageError(std::string("SLURM_ARRAY_TASK_ID=") + id + " and SLURM_ARRAY_TASK_COUNT=" + count +
                     " do not name a slice of the batch");
  } catch (const std::out_of_range&) {
    throw UsageError(std::string("SLURM_ARRAY_TASK_ID=") + id + " and SLURM_ARRAY_TASK_COUNT=" + count +
                     " do not name a slice of the batch");
  }
}

void check_grade_usage(const GradeCommand& command) {
  const int modes = static_cast<int>(!command.submission.empty()) + static_cast<int>(!command.batch.empty()) +
                    static_cast<int>(!command.merge.empty());
  if (modes != 1) {
    throw UsageError("give one of a submission file, --batch DIR or --merge OUT [DIR...]");
  }
  if (!command.merge.empty()) {
    std::error_code error;
    for (const std::string& dir : command.merge_from) {
      if (!fs::is_directory(dir, error)) {
        throw UsageError(dir + " is not a folder" + (error ? " (" + error.message() + ")" : ""));
      }
    }
    if (command.merge_from.empty() && !fs::is_directory(command.merge, error)) {
      throw UsageError(command.merge + " is not a folder" + (error ? " (" + error.message() + ")" : ""));
    }
    return;
  }
  if (!command.batch.empty()) {
    if (command.out.empty()) {
      throw UsageError("--batch needs --out DIR for the reports");
    }
    if (!fs::is_directory(command.batch)) {
      throw UsageError(command.batch + " is not a folder");
    }
    if (!command.manifest.empty()) {
      throw UsageError("--manifest names one submission's manifest; with --batch each folder holds its own");
    }
    if (!command.devices.empty()) {
      try {
        static_cast<void>(parse_device_list(command.devices));
      } catch (const std::invalid_argument& error) {
        throw UsageError(error.what());
      }
    }
  } else {
    if (!fs::is_regular_file(command.submission)) {
      throw UsageError("no submission file " + command.submission);
    }
    if (command.shard || !command.devices.empty() || command.jobs > 0) {
      throw UsageError("--shard, --devices and --jobs are for --batch");
    }
  }
  if (command.secret_seed && command.seed_given) {
    throw UsageError("--seed and --secret-seed exclude each other");
  }
  if (!command.manifest.empty() && !fs::is_regular_file(command.manifest)) {
    throw UsageError("no manifest file " + command.manifest);
  }
}

bool seed_is_secret(const GradeCommand& command) {
  return command.secret_seed || (!command.batch.empty() && !command.seed_given);
}

std::uint64_t seed_for(const GradeCommand& command, std::uint64_t default_seed,
                       const std::function<std::uint64_t()>& draw_secret) {
  if (seed_is_secret(command)) {
    return draw_secret();
  }
  return command.seed_given ? command.request.seed : default_seed;
}

int run_grade_command(GradeCommand command, const std::function<void(const std::string&)>& progress_sink,
                      std::ostream& out) {
  // Progress lines name files and folders a submission chose, and go to a terminal: each is one inert
  // line (grading/utf8.hpp: no ESC, C1 control such as U+009B, carriage return or bidirectional
  // override), so that no name can move the cursor, rewrite a line or reorder one.
  const std::function<void(const std::string&)> progress = [&progress_sink](const std::string& line) {
    progress_sink(inert_text(line));
  };
  check_grade_usage(command);
  if (!command.merge.empty()) {
    return merge_reports(command, progress, out);
  }
  if (!command.batch.empty()) {
    return grade_batch(command, progress, out);
  }
  command.request.submission = command.submission;
  command.request.manifest = command.manifest;
  const ExerciseChoice choice =
      choose_exercise(command.submission, command.manifest, command.exercise,
                      command.lab.empty() ? nullptr : &find_lab_or_throw(command.lab));
  if (choice.exercise == nullptr) {
    throw UsageError(command.submission + ": " + choice.problem);
  }
  command.request.seed = seed_for(command, choice.exercise->default_seed, secret_seed);
  GradeReport report = grade_one(*choice.exercise, command.request, progress);
  record_seed(report, command, command.request.seed);
  if (!report.grader_problem_kind.empty()) {
    // Why it was not graded (no GPU, no sandbox) on standard error too, not only inside the report.
    progress(report.mistakes.empty() ? "not graded (" + report.grader_problem_kind + "): see the report"
                                     : report.mistakes.front().explanation);
  }
  if (!command.out.empty()) {
    write_grade_files(report, command.out, command.force);
    progress("wrote results.json, report.json and report.md in " + command.out);
  }
  out << render_grade(report, command.format);
  return exit_status_of(report.grader_problem_kind);
}

CLI::App* add_grade_command(CLI::App& app, GradeArguments& arguments) {
  GradeCommand& grade_command = arguments.command;
  CLI::App* grade = app.add_subcommand(
      "grade",
      "Grade a student's submission for a lab's exercise: check its source, compile its device code in a "
      "sandbox (bubblewrap), run its kernels in the grading child (a process of its own) with time limits, "
      "check them, and report (needs a GPU). Students run it on their own work too. Exit status: 0 graded, "
      "whatever the score; 3 no usable GPU (with --out the reports are still written, scoring 0 with a "
      "message for staff); 1 the grader could not run (no sandbox, a missing program); 4 a report exists.");
  grade->add_option("submission", grade_command.submission, "The submission's .cu file (docs/grading.md)");
  grade->add_option(
      "--batch", grade_command.batch,
      "Grade every folder of DIR (one .cu file each); needs --out; writes each folder's reports under "
      "OUT/submissions/<folder>/ and summary.md, .json and .csv in OUT, one row per folder, those that "
      "could not be graded included; a rerun skips folders already graded unless --force, and grades "
      "again those the grader could not grade (docs/grading-at-scale.md)");
  grade
      ->add_option(
          "--jobs", grade_command.jobs,
          "With --batch: gradings at work at once (compiles run side by side on the CPU; at most 8 are on "
          "a GPU at once, whose checks share it; a submission's timing never overlaps other GPU work on "
          "its GPU); as many again (at least "
          "64) may wait for compute-sanitizer's verdict, which runs in processes of its own; default: one "
          "per CPU core")
      ->check(CLI::Range(1, kBatchJobsMax));
  grade->add_option(
      "--devices", grade_command.devices,
      "With --batch: the GPUs to grade on, as labrun numbers them (after CUDA_VISIBLE_DEVICES), e.g. "
      "0,1; default: every GPU");
  grade->add_option(
      "--shard", arguments.shard,
      "With --batch: grade only slice I of N (0-based; folder k in name order belongs to slice k % N); "
      "default: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT in a Slurm job array, else all");
  grade
      ->add_option("--merge", arguments.merge,
                   "OUT [DIR...]: rebuild one summary in OUT from the per-submission reports under "
                   "DIR/submissions/ (default: OUT itself), as the tasks of a job array wrote them")
      ->expected(1, -1);
  grade
      ->add_option("--device", arguments.device,
                   "The GPU to grade one submission on, as labrun numbers them (after CUDA_VISIBLE_DEVICES)")
      ->check(CLI::NonNegativeNumber);
  grade->add_option("--manifest", grade_command.manifest,
                    "The manifest (default: NAME.json or manifest.json beside the submission)");
  grade->add_option(
      "--out", grade_command.out,
      "Write results.json (Gradescope), report.json and report.md here (per submission with --batch)");
  grade->add_option("--format", grade_command.format, "What to print: md, json or gradescope")
      ->check(CLI::IsMember({"md", "json", "gradescope"}))
      ->capture_default_str();
  arguments.seed = grade->add_option("--seed", grade_command.request.seed,
                                     "Base seed of the inputs (each call gets fresh ones), recorded in the "
                                     "reports; default: the exercise's own, and with --batch a secret one "
                                     "per submission");
  grade->add_flag(
      "--secret-seed", grade_command.secret_seed,
      "Draw the seed from /dev/urandom (per submission) and keep it out of the reports (for graders; "
      "what --batch does unless --seed is given)");
  grade
      ->add_option("--time-limit", grade_command.request.run_limit_seconds,
                   "Seconds the grading run may take before it is killed")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  grade->add_option("--exercise", grade_command.exercise,
                    "The exercise (NAME or LAB/NAME; `labrun list` shows them); default: the manifest's "
                    "\"exercise\", else the one whose kernels the manifest names");
  grade->add_option("--lab", grade_command.lab,
                    "Only that lab's exercises (its only one, where the manifest says none)");
  grade->add_flag("--force", grade_command.force, "Replace existing report files");
  return grade;
}

int run_grade_arguments(GradeArguments& arguments, const std::function<void(const std::string&)>& progress,
                        std::ostream& out) {
  GradeCommand& grade_command = arguments.command;
  if (!grade_command.lab.empty() && find_lab_or_throw(grade_command.lab).exercises.empty()) {
    throw UsageError("lab " + grade_command.lab + " has no graded exercise");
  }
  grade_command.seed_given = arguments.seed != nullptr && arguments.seed->count() > 0;
  if (!arguments.merge.empty()) {
    grade_command.merge = arguments.merge.front();
    grade_command.merge_from.assign(arguments.merge.begin() + 1, arguments.merge.end());
  }
  if (!arguments.shard.empty()) {
    grade_command.shard = parse_shard(arguments.shard);
  } else if (!grade_command.batch.empty()) {
    grade_command.shard = shard_from_slurm([](const char* name) { return std::getenv(name); });
  }
  if (arguments.device) {
    if (!grade_command.batch.empty()) {
      throw UsageError("--device is for one submission; a batch takes --devices");
    }
    choose_device_or_throw(*arguments.device);
  }
  check_grade_usage(grade_command);
  return run_grade_command(grade_command, progress, out);
}

}  // namespace labrun
