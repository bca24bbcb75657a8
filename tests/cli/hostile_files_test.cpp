// The labrun program against hostile files and faults, as a user meets them (docs/reliability.md):
// reports nested 100,000 deep, standard output on /dev/full or past a file-size limit, file names that
// are not UTF-8 or that leave no room for the names derived from them, a link loop, --force over an
// aggregate of other labs, a batch's summaries under a file-size limit. Each runs labrun as a child
// process (tests/support/child_labrun.hpp), so that a crash is a failed check, not a lost test run.

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "cli/exit_codes.hpp"
#include "device/device_info.hpp"
#include "process/process.hpp"
#include "support/child_labrun.hpp"
#include "support/cli_run.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

fs::path hostile_t4_transcription() {
  return labrun::testing::evidence_folder() / "day48-fusion" / "tesla-t4-lesson" /
         "cuda-13.0-reverification.json";
}

fs::path hostile_day20_transcription() {
  return labrun::testing::evidence_folder() / "day20-sobel-threshold" / "tesla-t4-lesson" /
         "day20-as-quoted-by-day48.json";
}

std::vector<std::string> files_in_folder(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// `sh -c SCRIPT` under labrun-contain, with $LABRUN the program and $1... the arguments, and, when
// `file_size_bytes` is not 0, that RLIMIT_FSIZE on the shell and labrun.
labrun::ProcessResult run_labrun_in_shell(const std::string& script, const std::vector<std::string>& args,
                                          std::uint64_t file_size_bytes = 0,
                                          const std::vector<std::string>& environment = {}) {
  labrun::SpawnOptions options;
  options.argv = {"/bin/sh", "-c", script, "sh"};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  std::vector<std::string> variables = environment;
  variables.push_back("LABRUN=" + labrun::testing::labrun_program().string());
  options.environment = labrun::minimal_environment(variables);
  options.limits.file_size_bytes = file_size_bytes;
  options.limit_seconds = 120.0;
  return labrun::run_contained(options);
}

// A labrun run ended by itself (no signal, no time-out: not a crash) with `status`.
void check_labrun_ended_with(const labrun::ProcessResult& run, int status) {
  INFO(run.describe() << "\n" << run.output);
  CHECK(run.started);
  CHECK(run.signal == 0);
  CHECK_FALSE(run.timed_out);
  CHECK(run.exit_code == status);
  CHECK(run.output.find("AddressSanitizer") == std::string::npos);
  CHECK(run.output.find("runtime error") == std::string::npos);
}

std::string arrays_nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// A report.json as `labrun grade` writes one, scoring `score` of 100.
std::string grade_report_text(const std::string& student, int score) {
  return nlohmann::ordered_json{{"lab", "day48-fusion"},
                                {"student_id", student},
                                {"score", score},
                                {"max_score", 100},
                                {"execution_time", 1.5},
                                {"mistakes", nlohmann::ordered_json::array({{{"id", "slow"}}})},
                                {"environment", {{"device", "NVIDIA H200"}, {"host", "node-1"}}}}
             .dump(2) +
         "\n";
}

}  // namespace

TEST_CASE(
    "grade --merge and a --batch rerun refuse a report.json nested 100,000 deep, naming it, without a "
    "crash") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path out = dir.path / "out";
  fs::create_directories(out / "submissions" / "alice");
  fs::create_directories(out / "submissions" / "bob");
  // The deep value comes first: the members after it made nlohmann's ordered object grow, and the
  // growth copied the deep value, recursing once per level (the crash the attack run found).
  labrun::write_file_atomically(
      out / "submissions" / "alice" / "report.json",
      "{\"extra\": " + arrays_nested(100000) +
          ", \"student_id\": \"alice\", \"score\": 1, \"max_score\": 100, \"mistakes\": []}",
      false);
  labrun::write_file_atomically(out / "submissions" / "bob" / "report.json", grade_report_text("bob", 80),
                                false);
  const labrun::ProcessResult merged =
      labrun::testing::run_labrun_program({"grade", "--merge", out.string()}, {});
  check_labrun_ended_with(merged, labrun::exit_code::kFailure);
  CHECK_THAT(merged.output, ContainsSubstring((out / "submissions" / "alice" / "report.json").string()));
  CHECK_THAT(merged.output, ContainsSubstring("nested more than"));
  CHECK_FALSE(fs::exists(out / "summary.md"));

  // A batch rerun over the same reports folder reads alice's report the same way: not graded before.
  const fs::path batch = dir.path / "batch";
  fs::create_directories(batch / "alice");
  fs::create_directories(batch / "bob");
  const labrun::ProcessResult rerun =
      labrun::testing::run_labrun_program({"grade", "--batch", batch.string(), "--out", out.string()}, {});
  INFO(rerun.output);
  CHECK(rerun.started);
  CHECK(rerun.signal == 0);
  CHECK(rerun.output.find("AddressSanitizer") == std::string::npos);
}

TEST_CASE("a failed or short write to standard output is exit 1, named, for every command that prints") {
  const labrun::testing::TemporaryDirectory dir;
  const std::string t4 = hostile_t4_transcription().string();
  const std::vector<std::vector<std::string>> commands{
      {"report", t4}, {"report", t4, "--format", "csv"}, {"compare", t4, t4}, {"validate", t4},
      {"list"},       {"plan", "day48-fusion"},          {"--help"}};
  for (const std::vector<std::string>& command : commands) {
    INFO("labrun " << command.front());
    // /dev/full: every write fails with ENOSPC.
    const labrun::ProcessResult full = run_labrun_in_shell("exec \"$LABRUN\" \"$@\" > /dev/full", command);
    check_labrun_ended_with(full, labrun::exit_code::kFailure);
    CHECK_THAT(full.output, ContainsSubstring("cannot write standard output: No space left on device"));
    // A file-size limit: a short write, then EFBIG; the truncated file is not a success.
    const fs::path printed = dir.path / "printed.txt";
    fs::remove(printed);
    const labrun::ProcessResult limited = run_labrun_in_shell("exec \"$LABRUN\" \"$@\" > \"$OUT_FILE\"",
                                                              command, 16, {"OUT_FILE=" + printed.string()});
    check_labrun_ended_with(limited, labrun::exit_code::kFailure);
    CHECK_THAT(limited.output, ContainsSubstring("cannot write standard output: File too large"));
  }
  // What fits is written, and exit 0 stays exit 0.
  const labrun::ProcessResult fits =
      run_labrun_in_shell("exec \"$LABRUN\" \"$@\" > /dev/null", {"validate", t4});
  check_labrun_ended_with(fits, labrun::exit_code::kOk);
}

TEST_CASE("a transcript whose name is not UTF-8 is aggregated and plotted, its name escaped in the JSON") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path input = dir.path / "in";
  fs::create_directories(input);
  const fs::path odd = input / "t4-\xff\xfe-run.json";
  fs::copy_file(hostile_t4_transcription(), odd);
  const fs::path scripts = dir.path / "scripts";
  labrun::testing::write_stand_in_renderer(scripts, 100);
  const std::vector<std::string> renderer{"LABRUN_SCRIPTS_DIR=" + scripts.string()};

  const fs::path out = dir.path / "out";
  const labrun::ProcessResult aggregated =
      labrun::testing::run_labrun_program({"aggregate", input.string(), "--out", out.string()}, renderer);
  check_labrun_ended_with(aggregated, labrun::exit_code::kOk);
  const std::string json = labrun::read_file(out / "aggregate.json");
  CHECK_THAT(json, ContainsSubstring("t4-\\\\xff\\\\xfe-run.json"));  // \xff as text, its backslash escaped
  CHECK_NOTHROW(nlohmann::json::parse(json));

  const labrun::ProcessResult plotted = labrun::testing::run_labrun_program({"plot", odd.string()}, renderer);
  check_labrun_ended_with(plotted, labrun::exit_code::kOk);
  CHECK(fs::exists(input / "t4-\xff\xfe-run.width-lesson.svg"));
  const labrun::ProcessResult validated = labrun::testing::run_labrun_program({"validate", odd.string()}, {});
  check_labrun_ended_with(validated, labrun::exit_code::kOk);
  CHECK_THAT(validated.output, ContainsSubstring("t4-\\xff\\xfe-run.json: valid"));
}

TEST_CASE(
    "a name that leaves no room for a derived name: report renders, plot refuses up front in one line") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path long_name = dir.path / (std::string(245, 'n') + ".json");  // 250 bytes
  fs::copy_file(hostile_t4_transcription(), long_name);
  const labrun::ProcessResult reported =
      labrun::testing::run_labrun_program({"report", long_name.string()}, {});
  check_labrun_ended_with(reported, labrun::exit_code::kOk);
  CHECK_THAT(reported.output, ContainsSubstring("# "));

  const fs::path scripts = dir.path / "scripts";
  labrun::testing::write_stand_in_renderer(scripts, 100);
  const std::vector<std::string> before = files_in_folder(dir.path);
  const labrun::ProcessResult plotted = labrun::testing::run_labrun_program(
      {"plot", long_name.string(), "--force"}, {"LABRUN_SCRIPTS_DIR=" + scripts.string()});
  check_labrun_ended_with(plotted, labrun::exit_code::kFailure);
  CHECK_THAT(plotted.output, ContainsSubstring("longer than the 255 a file name may have"));
  CHECK(files_in_folder(dir.path) == before);
  const std::string last = labrun::last_output_line(plotted.output);
  CHECK(last.rfind("labrun: error: ", 0) == 0);
}

TEST_CASE("aggregate --force replaces the set it owns as a whole: no file of another run's lab stays") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path scripts = dir.path / "scripts";
  labrun::testing::write_stand_in_renderer(scripts, 100);
  const std::vector<std::string> renderer{"LABRUN_SCRIPTS_DIR=" + scripts.string()};
  const fs::path out = dir.path / "out";
  const labrun::ProcessResult both =
      labrun::testing::run_labrun_program({"aggregate", hostile_t4_transcription().string(),
                                           hostile_day20_transcription().string(), "--out", out.string()},
                                          renderer);
  check_labrun_ended_with(both, labrun::exit_code::kOk);
  const std::vector<std::string> first = files_in_folder(out);
  CHECK(std::count_if(first.begin(), first.end(), [](const std::string& name) {
          return name.find("day20-sobel-threshold") != std::string::npos;
        }) >= 1);
  labrun::write_file_atomically(out / "notes.md", "mine\n", false);  // not an aggregate's: kept

  const labrun::ProcessResult one = labrun::testing::run_labrun_program(
      {"aggregate", hostile_t4_transcription().string(), "--out", out.string(), "--force"}, renderer);
  check_labrun_ended_with(one, labrun::exit_code::kOk);
  const std::vector<std::string> second = files_in_folder(out);
  CAPTURE(second);
  for (const std::string& name : second) {
    CHECK(name.find("day20-sobel-threshold") == std::string::npos);
    CHECK(name.find(".tmp-") == std::string::npos);
  }
  CHECK(std::find(second.begin(), second.end(), "notes.md") != second.end());
  CHECK(std::find(second.begin(), second.end(), "aggregate.day48-fusion.csv") != second.end());
  CHECK(labrun::read_file(out / "aggregate.md").find("day20") == std::string::npos);
}

TEST_CASE("a batch's summaries are one set: under a file-size limit none of them is left, not one of three") {
  const labrun::testing::TemporaryDirectory dir;
  // Folders with no .cu file are graded at once (no compiler, no GPU): one "no-source" row each.
  const fs::path batch = dir.path / "batch";
  for (int k = 0; k < 40; ++k) {
    fs::create_directories(batch / ("student-with-a-long-folder-name-" + std::to_string(k)));
  }
  // Unlimited first, to learn the sizes: the limit goes between the largest report and the largest
  // summary, above summary.md.
  const fs::path measured = dir.path / "measured";
  const labrun::ProcessResult unlimited = labrun::testing::run_labrun_program(
      {"grade", "--batch", batch.string(), "--out", measured.string(), "--jobs", "2"}, {});
  check_labrun_ended_with(unlimited, labrun::exit_code::kOk);
  std::uintmax_t largest_report = 0;
  for (const auto& entry : fs::recursive_directory_iterator(measured / "submissions")) {
    if (entry.is_regular_file()) {
      largest_report = std::max(largest_report, entry.file_size());
    }
  }
  const std::uintmax_t markdown = fs::file_size(measured / "summary.md");
  const std::uintmax_t largest_summary =
      std::max({markdown, fs::file_size(measured / "summary.json"), fs::file_size(measured / "summary.csv")});
  const std::uintmax_t limit = std::max(largest_report, markdown) + 1;
  INFO("report " << largest_report << ", summary.md " << markdown << ", largest summary " << largest_summary);
  REQUIRE(limit < largest_summary);

  const fs::path out = dir.path / "out";
  const labrun::ProcessResult limited = labrun::testing::run_labrun_program(
      {"grade", "--batch", batch.string(), "--out", out.string(), "--jobs", "2"}, {}, limit);
  check_labrun_ended_with(limited, labrun::exit_code::kFailure);
  CHECK_THAT(limited.output, ContainsSubstring("File too large"));
  const std::vector<std::string> left = files_in_folder(out);
  CAPTURE(left);
  CHECK(left == std::vector<std::string>{"submissions"});

  // --merge writes the same set the same way.
  const labrun::ProcessResult merged =
      labrun::testing::run_labrun_program({"grade", "--merge", out.string()}, {}, limit);
  check_labrun_ended_with(merged, labrun::exit_code::kFailure);
  CHECK(files_in_folder(out) == std::vector<std::string>{"submissions"});
}

TEST_CASE("grade --merge over a link loop names the link in one line, never a raw filesystem error") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path out = dir.path / "out";
  fs::create_directories(out / "submissions" / "bob");
  labrun::write_file_atomically(out / "submissions" / "bob" / "report.json", grade_report_text("bob", 80),
                                false);
  fs::create_symlink("loop", out / "submissions" / "loop");  // points at itself
  const labrun::ProcessResult merged =
      labrun::testing::run_labrun_program({"grade", "--merge", out.string()}, {});
  check_labrun_ended_with(merged, labrun::exit_code::kFailure);
  CHECK_THAT(merged.output, ContainsSubstring((out / "submissions" / "loop").string() +
                                              ": Too many levels of symbolic links"));
  CHECK(merged.output.find("filesystem error") == std::string::npos);

  // A folder to merge from that is itself a loop: a usage error naming it.
  fs::create_symlink("self", dir.path / "self");
  const labrun::ProcessResult from_loop = labrun::testing::run_labrun_program(
      {"grade", "--merge", out.string(), (dir.path / "self").string()}, {});
  check_labrun_ended_with(from_loop, labrun::exit_code::kUsage);
  CHECK_THAT(from_loop.output, ContainsSubstring("self is not a folder (Too many levels of symbolic links)"));
  CHECK(from_loop.output.find("filesystem error") == std::string::npos);
}

TEST_CASE("a key given twice at the top of a transcript is named, not reported as another field's problem") {
  const labrun::testing::TemporaryDirectory dir;
  std::string text = labrun::read_file(hostile_t4_transcription());
  const std::size_t open = text.find('{');
  REQUIRE(open != std::string::npos);
  text.insert(open + 1, "\"schema_version\": \"1.0.0\", ");  // a second schema_version, an older one
  const fs::path twice = dir.path / "twice.json";
  labrun::write_file_atomically(twice, text, false);
  const labrun::testing::CliOutcome validated = labrun::testing::run_labrun({"validate", twice.string()});
  CHECK(validated.status == labrun::exit_code::kFailure);
  CHECK_THAT(validated.err,
             ContainsSubstring("twice.json: /schema_version: the key \"schema_version\" is given "
                               "twice in one object"));
}

TEST_CASE("without --out, grade where no GPU can run says why on standard error too") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: this test is about grading where there is none");
  }
  const labrun::testing::CliOutcome graded = labrun::testing::run_labrun(
      {"grade", (labrun::testing::grading_corpus() / "correct" / "halfway.cu").string(), "--format", "json"});
  CHECK(graded.status == labrun::exit_code::kNoDevice);
  CHECK_THAT(graded.err, ContainsSubstring("not graded"));
}

TEST_CASE("SIGTERM at random points of a batch leaves no temporary and no report set in part") {
  // Several worker threads write report sets at once: a signal must wait for the sets being placed
  // and stop the ones not begun (base/temporary_files.hpp), whichever thread it lands on.
  const labrun::testing::TemporaryDirectory dir;
  const fs::path batch = dir.path / "batch";
  for (int k = 0; k < 16; ++k) {
    fs::create_directories(batch / ("student-" + std::to_string(k)));
  }
  std::uint64_t state = 32;
  for (int trial = 0; trial < 12; ++trial) {
    const fs::path out = dir.path / ("out-" + std::to_string(trial));
    const std::string program = labrun::testing::labrun_program().string();
    const std::vector<std::string> args{program, "grade",      "--batch", batch.string(),
                                        "--out", out.string(), "--jobs",  "4"};
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      std::vector<char*> argv;
      for (const std::string& a : args) {
        argv.push_back(const_cast<char*>(a.c_str()));
      }
      argv.push_back(nullptr);
      const int quiet = ::open("/dev/null", O_WRONLY);
      ::dup2(quiet, 1);
      ::dup2(quiet, 2);
      ::execv(program.c_str(), argv.data());
      ::_exit(127);
    }
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    ::usleep(static_cast<useconds_t>(50000 + (state >> 33) % 400000));  // 50 to 450 ms
    ::kill(child, SIGTERM);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    INFO("trial " << trial);
    CHECK((WIFEXITED(status) || (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)));
    if (!fs::exists(out / "submissions")) {
      continue;
    }
    for (const auto& folder : fs::directory_iterator(out / "submissions")) {
      const std::vector<std::string> files = files_in_folder(folder.path());
      CAPTURE(folder.path(), files);
      CHECK((files.empty() || files == std::vector<std::string>{"report.json", "report.md", "results.json"}));
    }
    for (const std::string& name : files_in_folder(out)) {
      CHECK(name.find(".tmp-") == std::string::npos);
    }
  }
}
