#include "cli/grade_command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli/exit_codes.hpp"
#include "evidence/atomic_file.hpp"
#include "evidence/format.hpp"
#include "evidence/markdown.hpp"
#include "grading/report.hpp"
#include "grading/utf8.hpp"
#include "runner/runner.hpp"

namespace labrun {
namespace {

namespace fs = std::filesystem;

std::uint64_t secret_seed() {
  std::ifstream random("/dev/urandom", std::ios::binary);
  std::uint64_t seed = 0;
  random.read(reinterpret_cast<char*>(&seed), sizeof seed);
  if (!random) {
    throw std::runtime_error("cannot read /dev/urandom for a secret seed");
  }
  return seed;
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
  write_file_atomically(folder / "results.json", dump_report(gradescope_results(report)), overwrite);
  write_file_atomically(folder / "report.json", dump_report(report_json(report)), overwrite);
  write_file_atomically(folder / "report.md", report_markdown(report), overwrite);
}

// A report for a folder that holds no gradable submission, or one the grader failed on: score 0,
// one test that says why.
GradeReport not_graded(const Lab& lab, const std::string& submission, const std::string& id,
                       const std::string& explanation, const std::string& problem_kind) {
  GradeReport report;
  report.lab = lab.name;
  report.student_id = "unknown";
  report.submission = valid_utf8(submission);
  report.tests.push_back({"Submission graded", false, 0.0, 100.0, valid_utf8(explanation), "visible"});
  report.mistakes.push_back({id, valid_utf8(explanation)});
  report.grader_problem_kind = problem_kind;
  return report;
}

GradeReport grade_one(const Lab& lab, const GradeRequest& request,
                      const std::function<void(const std::string&)>& progress) {
  try {
    return lab.grade(request, progress);
  } catch (const std::exception& error) {
    return not_graded(lab, request.submission.string(), "grader-error",
                      std::string("the grader failed on this submission (") + error.what() +
                          "); this is not a mistake in the submission: course staff must grade it again",
                      "setup");
  }
}

void record_seed(GradeReport& report, const GradeCommand& command, std::uint64_t seed) {
  if (command.secret_seed) {
    report.raw["seed"] = "secret";
  } else {
    report.raw["seed"] = seed;
  }
}

int exit_status_of(const GradeReport& report) {
  if (report.grader_problem_kind == "no-device") {
    return exit_code::kNoDevice;
  }
  return report.grader_problem_kind.empty() ? exit_code::kOk : exit_code::kFailure;
}

// Grades every sub-folder of the batch folder, one at a time, and writes a summary with one row per
// folder, folders that could not be graded included.
int grade_batch(const Lab& lab, const GradeCommand& command,
                const std::function<void(const std::string&)>& progress, std::ostream& out) {
  const fs::path batch = command.batch;
  const fs::path out_dir = command.out;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(batch)) {
    if (entry.is_directory()) {
      folders.push_back(entry.path());
    }
  }
  std::sort(folders.begin(), folders.end());
  Table summary;
  summary.headers = {"submission", "student", "score", "mistakes", "seconds"};
  summary.right_aligned = {false, false, true, false, true};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  int status = exit_code::kOk;
  std::size_t index = 0;
  std::size_t not_graded_count = 0;
  for (const fs::path& folder : folders) {
    ++index;
    const std::string name = folder.filename().string();
    progress("[" + std::to_string(index) + "/" + std::to_string(folders.size()) + "] " + name);
    std::vector<fs::path> sources;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".cu") {
        sources.push_back(entry.path());
      }
    }
    std::sort(sources.begin(), sources.end());
    GradeReport report;
    if (sources.size() != 1) {
      std::string listed;
      for (const fs::path& s : sources) {
        listed += (listed.empty() ? "" : ", ") + s.filename().string();
      }
      report = sources.empty() ? not_graded(lab, folder.string(), "no-source",
                                            "the folder holds no .cu file to grade", "")
                               : not_graded(lab, folder.string(), "several-sources",
                                            "the folder holds " + std::to_string(sources.size()) +
                                                " .cu files (" + listed + "): a submission is one .cu file",
                                            "");
    } else {
      GradeRequest request = command.request;
      request.submission = sources.front();
      request.manifest.clear();
      if (command.secret_seed) {
        request.seed = secret_seed();
      }
      report = grade_one(lab, request, progress);
      record_seed(report, command, request.seed);
    }
    if (!report.grader_problem_kind.empty()) {
      ++not_graded_count;
      status = std::max(status, exit_status_of(report));
    }
    write_grade_files(report, out_dir / name, command.force);
    std::string mistakes;
    nlohmann::ordered_json ids = nlohmann::ordered_json::array();
    for (const NamedMistake& m : report.mistakes) {
      mistakes += (mistakes.empty() ? "" : ", ") + m.id;
      ids.push_back(m.id);
    }
    summary.rows.push_back({valid_utf8(name), report.student_id,
                            fixed(report.score(), 0) + " / " + fixed(report.max_score(), 0),
                            mistakes.empty() ? "-" : mistakes, fixed(report.execution_seconds, 1)});
    rows.push_back({{"submission", valid_utf8(name)},
                    {"student_id", report.student_id},
                    {"score", report.score()},
                    {"max_score", report.max_score()},
                    {"mistakes", ids},
                    {"graded", report.grader_problem_kind.empty()},
                    {"execution_time", report.execution_seconds}});
  }
  std::string table = "# Grades\n\n" + render_table(summary);
  if (not_graded_count > 0) {
    table += "\n" + std::to_string(not_graded_count) + " of " + std::to_string(folders.size()) +
             " submissions could not be graded by this grader (see their reports).\n";
  }
  write_file_atomically(out_dir / "summary.md", table, command.force);
  write_file_atomically(out_dir / "summary.json", dump_report(rows), command.force);
  out << table;
  return status;
}

}  // namespace

void check_grade_usage(const GradeCommand& command) {
  if (command.submission.empty() == command.batch.empty()) {
    throw UsageError("give either a submission file or --batch DIR");
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
  } else if (!fs::is_regular_file(command.submission)) {
    throw UsageError("no submission file " + command.submission);
  }
  if (command.secret_seed && command.seed_given) {
    throw UsageError("--seed and --secret-seed exclude each other");
  }
  if (!command.manifest.empty() && !fs::is_regular_file(command.manifest)) {
    throw UsageError("no manifest file " + command.manifest);
  }
}

int run_grade_command(const Lab& lab, GradeCommand command,
                      const std::function<void(const std::string&)>& progress, std::ostream& out) {
  check_grade_usage(command);
  if (!command.batch.empty()) {
    return grade_batch(lab, command, progress, out);
  }
  command.request.submission = command.submission;
  command.request.manifest = command.manifest;
  if (command.secret_seed) {
    command.request.seed = secret_seed();
  }
  GradeReport report = grade_one(lab, command.request, progress);
  record_seed(report, command, command.request.seed);
  if (!command.out.empty()) {
    write_grade_files(report, command.out, command.force);
    progress("wrote results.json, report.json and report.md in " + command.out);
  }
  out << render_grade(report, command.format);
  return exit_status_of(report);
}

}  // namespace labrun
