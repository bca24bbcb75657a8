// `labrun grade` where no GPU can run anything (CI): the usage is checked first, and the reports are
// still written, scoring 0 with a message for staff, so an autograder never shows an empty result.

#include <unistd.h>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/atomic_file.hpp"
#include "cli/app.hpp"
#include "cli/exit_codes.hpp"
#include "cli/grade_command.hpp"
#include "device/device_info.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/judge.hpp"
#include "grading/exercise.hpp"
#include "grading/manifest.hpp"
#include "grading/report.hpp"
#include "grading/utf8.hpp"
#include "process/sandbox.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"
#include "support/cli_run.hpp"
#include "support/exercises.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

using Outcome = labrun::testing::CliOutcome;

Outcome labrun_cli(const std::vector<std::string>& args) {
  return labrun::testing::run_labrun(args);
}

fs::path temporary_folder() {
  std::string pattern = (fs::temp_directory_path() / "labrun-grade-cli-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("grade's usage errors come before any device is touched") {
  const std::string correct = (labrun::testing::grading_corpus() / "correct" / "halfway.cu").string();
  CHECK(labrun_cli({"grade", correct, "--seed", "5", "--secret-seed"}).status == labrun::exit_code::kUsage);
  CHECK_THAT(labrun_cli({"grade", correct, "--seed", "5", "--secret-seed"}).err,
             ContainsSubstring("exclude each other"));
  CHECK(labrun_cli({"grade", correct, "--manifest", "/nonexistent.json"}).status ==
        labrun::exit_code::kUsage);
  CHECK(labrun_cli({"grade", "/nonexistent.cu"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_cli({"grade", "--batch", labrun::testing::grading_corpus().string()}).status ==
        labrun::exit_code::kUsage);
  CHECK(labrun_cli({"grade"}).status == labrun::exit_code::kUsage);
}

TEST_CASE("without a GPU, grade still writes results.json, scoring 0 with a message for staff") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: this test is about grading where there is none");
  }
  const fs::path out = temporary_folder();
  const Outcome graded =
      labrun_cli({"grade", (labrun::testing::grading_corpus() / "correct" / "halfway.cu").string(), "--out",
                  out.string(), "--format", "json"});
  CHECK(graded.status == labrun::exit_code::kNoDevice);
  const auto results = nlohmann::json::parse(labrun::read_file(out / "results.json"));
  CHECK(results.at("score") == 0);
  CHECK(results.at("output_format") == "md");
  CHECK_THAT(results.at("tests").at(0).at("output").get<std::string>(), ContainsSubstring("not a mistake"));
  const auto report = nlohmann::json::parse(labrun::read_file(out / "report.json"));
  CHECK(report.at("grader_problem") == "no-device");
  // A submission refused before compiling needs no GPU: its verdict is given.
  const fs::path refused_out = temporary_folder();
  const Outcome refused = labrun_cli(
      {"grade", (labrun::testing::grading_corpus() / "include-outside-file" / "halfway.cu").string(), "--out",
       refused_out.string()});
  CHECK(refused.status == labrun::exit_code::kOk);
  CHECK_THAT(refused.out, ContainsSubstring("include-not-allowed"));
  fs::remove_all(out);
  fs::remove_all(refused_out);
}

TEST_CASE("grade --batch writes one summary row per folder, those it could not grade included") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: the GPU test grades the corpus");
  }
  const fs::path batch = temporary_folder();
  fs::create_directories(batch / "a-correct");
  fs::copy(labrun::testing::grading_corpus() / "correct", batch / "a-correct", fs::copy_options::recursive);
  fs::create_directories(batch / "b-empty");
  fs::create_directories(batch / "c-two-sources");
  labrun::write_file_atomically(batch / "c-two-sources" / "one.cu", "\n", false);
  labrun::write_file_atomically(batch / "c-two-sources" / "two.cu", "\n", false);
  const fs::path out = temporary_folder();
  const Outcome graded = labrun_cli({"grade", "--batch", batch.string(), "--out", out.string()});
  CHECK(graded.status == labrun::exit_code::kNoDevice);
  const auto summary = nlohmann::json::parse(labrun::read_file(out / "summary.json"));
  REQUIRE(summary.size() == 3);
  CHECK(summary.at(0).at("graded") == false);
  CHECK(summary.at(1).at("mistakes").at(0) == "no-source");
  CHECK(summary.at(2).at("mistakes").at(0) == "several-sources");
  // Each row names the lab whose exercise graded it (the first folder's manifest chose day 48's).
  CHECK(summary.at(0).at("lab") == "day48-fusion");
  CHECK_THAT(labrun::read_file(out / "summary.md"), ContainsSubstring("| graded as "));
  for (const char* folder : {"a-correct", "b-empty", "c-two-sources"}) {
    CHECK(fs::exists(out / "submissions" / folder / "results.json"));
  }
  CHECK_THAT(labrun::read_file(out / "summary.md"), ContainsSubstring("could not be graded"));
  fs::remove_all(batch);
  fs::remove_all(out);
}

TEST_CASE("a batch's seed is secret unless --seed names one; one submission keeps the exercise's") {
  labrun::GradeCommand command;
  command.submission = "kernel.cu";
  CHECK_FALSE(labrun::seed_is_secret(command));
  command.secret_seed = true;
  CHECK(labrun::seed_is_secret(command));
  labrun::GradeCommand batch;
  batch.batch = "submissions";
  CHECK(labrun::seed_is_secret(batch));
  batch.seed_given = true;
  CHECK_FALSE(labrun::seed_is_secret(batch));
}

TEST_CASE("the seed a submission is graded with: secret, named by --seed, or the exercise's") {
  int draws = 0;
  const auto draw_secret = [&draws] {
    ++draws;
    return std::uint64_t{0xfeedULL + static_cast<std::uint64_t>(draws)};
  };
  labrun::GradeCommand single;
  single.submission = "kernel.cu";
  CHECK(labrun::seed_for(single, 48, draw_secret) == 48);
  single.request.seed = 7;
  single.seed_given = true;
  CHECK(labrun::seed_for(single, 48, draw_secret) == 7);
  CHECK(draws == 0);
  labrun::GradeCommand batch;
  batch.batch = "submissions";
  batch.request.seed = 7;  // not named on the command line: the batch draws one per submission
  const std::uint64_t first = labrun::seed_for(batch, 48, draw_secret);
  const std::uint64_t second = labrun::seed_for(batch, 48, draw_secret);
  CHECK(draws == 2);
  CHECK(first != second);
  CHECK(first != 48);
  batch.seed_given = true;
  CHECK(labrun::seed_for(batch, 48, draw_secret) == 7);
  labrun::GradeCommand secret = single;
  secret.seed_given = false;
  secret.secret_seed = true;
  CHECK(labrun::seed_for(secret, 48, draw_secret) != 48);
  CHECK(draws == 3);
}

TEST_CASE("a shard is I of N, from the command line or from a Slurm job array") {
  CHECK(labrun::parse_shard("0/1").count == 1);
  CHECK(labrun::parse_shard("3/8").index == 3);
  for (const char* bad : {"8/8", "-1/4", "1", "a/b", "1/0", "1/4x"}) {
    INFO(bad);
    CHECK_THROWS_AS(labrun::parse_shard(bad), labrun::UsageError);
  }
  const auto environment = [](std::map<std::string, std::string> values) {
    return [values = std::move(values)](const char* name) -> const char* {
      const auto found = values.find(name);
      return found == values.end() ? nullptr : found->second.c_str();
    };
  };
  CHECK_FALSE(labrun::shard_from_slurm(environment({})).has_value());
  const auto first = labrun::shard_from_slurm(environment(
      {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "1"}}));
  REQUIRE(first.has_value());
  CHECK(first->index == 0);
  CHECK(first->count == 4);
  CHECK(labrun::shard_from_slurm(environment({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}))
            ->index == 2);
  CHECK_THROWS_AS(
      labrun::shard_from_slurm(environment({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "3"}})),
      labrun::UsageError);
}

TEST_CASE("shards grade disjoint slices, a rerun skips what has a report, and --merge rebuilds one summary") {
  if (labrun::probe_devices().usable) {
    SKIP("a GPU is present: this test grades without one, quickly");
  }
  const fs::path out = temporary_folder();
  const std::string batch = labrun::testing::grading_corpus().string();
  std::size_t graded = 0;
  for (const char* shard : {"0/3", "1/3", "2/3"}) {
    const Outcome part =
        labrun_cli({"grade", "--batch", batch, "--out", out.string(), "--shard", shard, "--jobs", "2"});
    CHECK(part.status == labrun::exit_code::kNoDevice);
    const std::string stem = std::string("summary-shard-") + shard[0] + "-of-3";
    graded += nlohmann::json::parse(labrun::read_file(out / (stem + ".json"))).size();
  }
  std::size_t folders = 0;
  for (const auto& entry : fs::directory_iterator(labrun::testing::grading_corpus())) {
    folders += entry.is_directory() ? 1 : 0;
  }
  CHECK(graded == folders);
  // Every report exists now, but those that say no GPU could grade them are no grades: a rerun
  // grades them again (and, still without a GPU, says so again); only the one refused before
  // compiling, a verdict, is kept.
  const Outcome rerun = labrun_cli({"grade", "--batch", batch, "--out", out.string(), "--shard", "0/3"});
  CHECK(rerun.status == labrun::exit_code::kNoDevice);
  CHECK_THAT(rerun.err, ContainsSubstring("graded again (the grader could not grade them before)"));
  CHECK_THAT(rerun.err, ContainsSubstring("with no usable GPU"));
  CHECK_THAT(rerun.err, !ContainsSubstring("on GPU 0"));
  const Outcome merged = labrun_cli({"grade", "--merge", out.string()});
  CHECK(merged.status == labrun::exit_code::kOk);
  const auto summary = nlohmann::json::parse(labrun::read_file(out / "summary.json"));
  CHECK(summary.size() == folders);
  // The rows are those the grader gave before its machinery moved into the harness (issue 23): the
  // same verdict for every folder, seconds and machine apart (issue 29's folders: the escapes refused
  // without a GPU too, the rest not graded). The include checks that run nvcc -M need the compiler
  // sandbox, so the comparison does too.
  if (labrun::sandbox_availability().usable) {
    const auto before = nlohmann::json::parse(labrun::read_file(
        fs::path(LABRUN_TEST_DATA_DIR) / "labs" / "day48-fusion" / "golden" / "batch-without-gpu.json"));
    nlohmann::json now = nlohmann::json::array();
    for (const auto& row : summary) {
      nlohmann::json kept;
      for (const char* field : {"submission", "student_id", "score", "max_score", "mistakes", "graded"}) {
        kept[field] = row.at(field);
      }
      now.push_back(kept);
    }
    CHECK(now == before.at("rows"));
  }
  const std::string csv = labrun::read_file(out / "summary.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == static_cast<long>(folders) + 1);
  CHECK_THAT(
      csv,
      ContainsSubstring(
          "submission,student_id,score,max_score,mistakes,graded,seconds,device,device_uuid,host,lab\n"));
  // The same submission graded into two folders is refused by the merge, naming it.
  const fs::path other = temporary_folder();
  fs::create_directories(other / "submissions");
  fs::copy(out / "submissions" / "correct", other / "submissions" / "correct", fs::copy_options::recursive);
  const Outcome twice = labrun_cli({"grade", "--merge", out.string(), out.string(), other.string()});
  CHECK(twice.status == labrun::exit_code::kFailure);
  CHECK_THAT(twice.err, ContainsSubstring("correct was graded twice"));
  CHECK_THAT(twice.out, !ContainsSubstring("graded twice"));
  fs::remove_all(out);
  fs::remove_all(other);
}

namespace {

// Strings a submission controls, each an attack on one format: HTML, Markdown links and images,
// code spans, table cells, line structure, terminal control (ESC, C1 CSI, carriage return),
// bidirectional overrides, zero-width characters, character references, bytes that are not UTF-8,
// spreadsheet formulas.
const std::vector<std::string> kHostile{
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "[click](http://evil.example/)",
    "![pixel](http://evil.example/p.png)",
    "`rm -rf`",
    "a|b|c",
    "x\n# heading\n| forged | row |",
    "cr\rover",
    "\x1b[31mred\x1b[0m\x1b]0;title\x07",
    "\xC2\x9B"
    "2J",
    "gpj\xE2\x80\xAE"
    "exe.cu",
    "zero\xE2\x80\x8Bwidth\xEF\xBB\xBF\xE2\x81\xA6",
    "&#x202E;&#8238;",
    "bad\xFF\xFE bytes",
    "=HYPERLINK(\"http://evil.example\")",
};

// Every line of `text` is valid UTF-8 with no control, bidirectional or invisible character.
void check_inert(const std::string& text, const std::string& where) {
  INFO(where);
  REQUIRE(labrun::code_point_count(text).has_value());
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const auto hidden = labrun::first_hidden_code_point(std::string_view(text).substr(start, end - start));
    if (hidden) {
      FAIL_CHECK(labrun::code_point_name(hidden->code_point)
                 << " in line: " << text.substr(start, end - start));
    }
    start = end + 1;
  }
}

// Nothing of kHostile opens anything in Markdown: no tag, link, image or code span, no new line.
void check_markdown(const std::string& text, const std::string& where) {
  INFO(where);
  check_inert(text, where);
  for (const char* raw : {"<img", "<script", "</script", "[click]", "![pixel]", "`rm -rf`", "a|b|c",
                          "\n# heading", "\n| forged", "\r"}) {
    CHECK(text.find(raw) == std::string::npos);
  }
  for (std::size_t at = text.find("&#"); at != std::string::npos; at = text.find("&#", at + 1)) {
    CHECK((at > 0 && text[at - 1] == '\\'));
  }
}

// Every string and key of a JSON document is inert; tests[].output, Markdown for Gradescope, is
// checked as Markdown too. A summary's row names its folder exactly (summary_names_folders checks
// it): that string is a JSON string, whatever it holds, and is left out here.
void check_json(const nlohmann::json& value, const std::string& where, bool markdown = false) {
  if (where.find("summary") != std::string::npos && where.size() >= 13 &&
      where.compare(where.size() - 13, 13, "/*/submission") == 0) {
    return;
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    check_inert(text, where);
    CHECK(text.find('\n') == std::string::npos);
    if (markdown) {
      check_markdown(text, where);
    }
  } else if (value.is_array()) {
    for (const auto& element : value) {
      check_json(element, where + "/*", markdown);
    }
  } else if (value.is_object()) {
    for (const auto& item : value.items()) {
      check_inert(item.key(), where + " (a key)");
      const bool output = item.key() == "output" && where.find("/tests/") != std::string::npos;
      check_json(item.value(), where + "/" + item.key(), markdown || output);
    }
  }
}

// Every file labrun wrote under `folder`, by its format.
int check_written(const fs::path& folder) {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    const std::string text = labrun::read_file(entry.path());
    const std::string where = entry.path().string();
    const std::string extension = entry.path().extension().string();
    if (extension == ".md") {
      check_markdown(text, where);
    } else if (extension == ".json") {
      check_json(nlohmann::json::parse(text), where);
    } else if (extension == ".csv") {
      check_inert(text, where);
      for (const char* formula : {"\n=", ",=", ",\"="}) {
        CHECK(text.find(formula) == std::string::npos);
      }
    } else {
      continue;
    }
    ++files;
  }
  return files;
}

// What a grading would be given, with every string a submission can reach set to `hostile`.
std::vector<labrun::JudgeInput> hostile_inputs(const std::string& hostile) {
  nlohmann::json manifest{{"student_id", "s1"},
                          {"bytes_per_element", 20},
                          {"launches", 2},
                          {"predicted_ratio_vs_staged", 1.8},
                          {"predicted_ratio_vs_fused", 1.67}};
  manifest[labrun::valid_utf8(hostile)] = hostile.size();
  manifest["kernels"] = {{labrun::valid_utf8(hostile), {{"threads_per_block", 256}}}};
  const std::string text = manifest.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string twice = labrun::valid_utf8(hostile) + "~twice";
  const std::string duplicated = text.substr(0, text.size() - 1) + "," + nlohmann::json(twice).dump() +
                                 ": 1," + nlohmann::json(twice).dump() + ": 2," +
                                 nlohmann::json(std::string(30000, 'L')).dump() + ": 3}";
  labrun::JudgeInput base;
  base.submission = "batch/" + hostile + "/halfway.cu";
  base.manifest = labrun::parse_manifest(
      duplicated, "batch/" + hostile + "/halfway.json",
      labrun::testing::registered_exercise("day48-fusion/halfway-pair").manifest_schema());
  base.sanitizer_available = true;
  base.run_limit_seconds = 60.0;
  std::vector<labrun::JudgeInput> inputs;
  labrun::JudgeInput refused = base;
  refused.source_problems = {{3, "#include \"" + hostile + "\" is not allowed"}};
  inputs.push_back(refused);
  labrun::JudgeInput broken = base;
  broken.manifest.reset();
  broken.manifest_problem = "batch/" + hostile + "/halfway.json: malformed JSON at byte 3";
  broken.compiler_messages = "halfway.cu(3): error: " + hostile + "\n" + hostile;
  inputs.push_back(broken);
  labrun::JudgeInput missing = base;
  missing.compiled = true;
  missing.child = labrun::ProcessResult{true, false, 3, 0, 1.0, hostile, hostile.size()};
  labrun::ChildResults results;
  results.device = results.device_uuid = hostile;
  results.error_kind = "kernel-missing";
  results.error = "no kernel named " + hostile;
  results.failed_step = hostile;
  results.kernels_found = {hostile, hostile + "2"};
  missing.results = results;
  missing.last_step = hostile;
  inputs.push_back(missing);
  labrun::JudgeInput crashed = missing;
  crashed.results->error_kind = "cuda-error";
  crashed.results->kernels = {{hostile, true, {8, 8, 8}, 16, 0, 1024, hostile}};
  inputs.push_back(crashed);
  labrun::JudgeInput killed = missing;
  killed.results->error_kind.clear();
  killed.child = labrun::ProcessResult{true, true, -1, 9, 60.0, hostile, hostile.size()};
  inputs.push_back(killed);
  labrun::JudgeInput sanitized = crashed;
  sanitized.results->error_kind.clear();
  sanitized.results->completed = true;
  sanitized.child = labrun::ProcessResult{true, false, 0, 0, 1.0, hostile, hostile.size()};
  sanitized.sanitizers = {{"memcheck", false, hostile}, {"racecheck", false, hostile}};
  inputs.push_back(sanitized);
  return inputs;
}

// Hexadecimal of every byte, as summary.json's "submission_bytes" gives a name that is not UTF-8.
std::string hex_of(const std::string& bytes) {
  std::string hex;
  for (const char c : bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[static_cast<unsigned char>(c) >> 4];
    hex += kDigits[static_cast<unsigned char>(c) & 0x0F];
  }
  return hex;
}

// summary.json names every folder exactly (its string, or its bytes where it is not UTF-8), and
// summary.md and summary.csv name them all differently from one another.
void summary_names_folders(const fs::path& out, const std::vector<std::string>& folders) {
  const auto summary = nlohmann::json::parse(labrun::read_file(out / "summary.json"));
  std::set<std::string> named;
  for (const auto& row : summary) {
    named.insert(row.contains("submission_bytes") ? row.at("submission_bytes").get<std::string>()
                                                  : row.at("submission").get<std::string>());
  }
  std::set<std::string> expected;
  for (const std::string& folder : folders) {
    expected.insert(labrun::code_point_count(folder) ? folder : hex_of(folder));
  }
  CHECK(named == expected);
  std::set<std::string> csv_names;
  std::istringstream csv(labrun::read_file(out / "summary.csv"));
  std::string line;
  std::getline(csv, line);  // the header
  while (std::getline(csv, line)) {
    // The first field: up to the first comma, or a quoted one (quotes doubled inside).
    std::string field;
    if (!line.empty() && line.front() == '"') {
      for (std::size_t i = 1;
           i < line.size() && !(line[i] == '"' && (i + 1 == line.size() || line[i + 1] != '"')); ++i) {
        field += line[i];
        i += line[i] == '"' ? 1 : 0;
      }
    } else {
      field = line.substr(0, line.find(','));
    }
    csv_names.insert(field);
  }
  CHECK(csv_names.size() == folders.size());
  const std::string markdown = labrun::read_file(out / "summary.md");
  std::set<std::string> markdown_names;
  std::istringstream rows(markdown);
  while (std::getline(rows, line)) {
    if (line.rfind("| ", 0) == 0 && line.find("| submission") != 0 && line.find("| ---") != 0) {
      markdown_names.insert(line.substr(0, line.find(" | ", 2)));
    }
  }
  CHECK(markdown_names.size() == folders.size());
}

}  // namespace

TEST_CASE("a summary names every folder exactly in JSON, and tells them apart in Markdown and CSV") {
  const fs::path work = temporary_folder();
  const fs::path reports = work / "reports" / "submissions";
  // Folders that inert text alone would give one name: ESC against a zero-width space against U+FFFD,
  // a byte that is not UTF-8 against U+FFFD, a backslash against its escape; and ids that read as
  // numbers to strtod but as formulas to a spreadsheet.
  const std::vector<std::string> folders{"a\x1b", "a\xE2\x80\x8B", "a\xEF\xBF\xBD", "a\xFF", "b\\x{FF}",
                                         "b\xFF", "-nan(1)",       "+nan(0x7)",     "c\nd",  "c d"};
  for (const std::string& folder : folders) {
    fs::create_directories(reports / folder);
    const nlohmann::json report{{"student_id", folder.front() == '-' || folder.front() == '+' ? folder : "s"},
                                {"score", 1},
                                {"max_score", 100},
                                {"mistakes", nlohmann::json::array()},
                                {"execution_time", 1.0}};
    labrun::write_file_atomically(reports / folder / "report.json", report.dump(), false);
  }
  const fs::path merged = work / "merged";
  fs::create_directories(merged);
  const Outcome merge = labrun_cli({"grade", "--merge", merged.string(), (work / "reports").string()});
  REQUIRE(merge.status == labrun::exit_code::kOk);
  summary_names_folders(merged, folders);
  const std::string csv = labrun::read_file(merged / "summary.csv");
  for (const char* formula : {"\n-nan", "\n+nan", ",-nan", ",+nan"}) {
    CHECK(csv.find(formula) == std::string::npos);
  }
  CHECK(csv.find("'-nan(1)") != std::string::npos);
  fs::remove_all(work);
}

TEST_CASE("no string from a submission reaches any report, summary or progress line raw") {
  const fs::path work = temporary_folder();
  int rendered = 0;
  // judge() and the three renderings of each report.
  for (const std::string& hostile : kHostile) {
    for (labrun::JudgeInput& in : hostile_inputs(hostile)) {
      labrun::GradeReport report =
          labrun::judge(labrun::testing::registered_exercise("day48-fusion/halfway-pair"), in);
      report.device = report.device_uuid = report.host = hostile;
      report.phase_seconds = {{hostile, 1.0}};
      if (in.results) {
        report.raw = labrun::to_json(*in.results);
      }
      check_markdown(labrun::report_markdown(report), "report.md for " + labrun::valid_utf8(hostile));
      check_json(nlohmann::json::parse(labrun::dump_report(labrun::gradescope_results(report))),
                 "results.json");
      check_json(nlohmann::json::parse(labrun::dump_report(labrun::report_json(report))), "report.json");
      ++rendered;
    }
  }
  CHECK(rendered == static_cast<int>(kHostile.size()) * 6);

  // The summary writer, from reports on disk that any folder given to --merge may hold (under its
  // submissions/, where a batch writes them).
  const fs::path reports_root = work / "reports";
  const fs::path reports = reports_root / "submissions";
  int folder = 0;
  for (const std::string& hostile : kHostile) {
    std::string name = std::to_string(10 + folder++) + "-" + hostile;
    std::replace(name.begin(), name.end(), '/', '_');
    fs::create_directories(reports / name);
    const nlohmann::json forged{{"student_id", labrun::valid_utf8(hostile)},
                                {"score", 1},
                                {"max_score", 100},
                                {"mistakes", {{{"id", labrun::valid_utf8(hostile)}}}},
                                {"execution_time", 1.0},
                                {"environment",
                                 {{"device", labrun::valid_utf8(hostile)},
                                  {"device_uuid", labrun::valid_utf8(hostile)},
                                  {"host", labrun::valid_utf8(hostile)}}}};
    labrun::write_file_atomically(reports / name / "report.json", forged.dump(), false);
  }
  const fs::path merged = work / "merged";
  fs::create_directories(merged);
  const Outcome merge = labrun_cli({"grade", "--merge", merged.string(), reports_root.string()});
  CHECK(merge.status == labrun::exit_code::kOk);
  check_markdown(merge.out, "the summary printed by --merge");
  CHECK(check_written(merged) == 3);
  CHECK(nlohmann::json::parse(labrun::read_file(merged / "summary.json")).size() == kHostile.size());
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(reports)) {
    names.push_back(entry.path().filename().string());
  }
  summary_names_folders(merged, names);

  // A batch: folders named by a submission, each refused before any GPU is touched; its progress
  // lines, its reports and its summary.
  const fs::path batch = work / "batch";
  folder = 0;
  for (const std::string& hostile : kHostile) {
    std::string name = std::to_string(10 + folder++) + "-" + hostile;
    std::replace(name.begin(), name.end(), '/', '_');
    fs::create_directories(batch / name);
    labrun::write_file_atomically(batch / name / "halfway.cu", "#include \"/etc/hostname\"\n", false);
    labrun::write_file_atomically(batch / name / "halfway.json",
                                  "{" + nlohmann::json(labrun::valid_utf8(hostile)).dump() + ": 1}", false);
  }
  const fs::path out = work / "out";
  const Outcome graded =
      labrun_cli({"grade", "--batch", batch.string(), "--out", out.string(), "--jobs", "2"});
  CHECK(graded.status == labrun::exit_code::kOk);
  check_inert(graded.err, "progress lines");
  check_markdown(graded.out, "the summary printed by --batch");
  CHECK(check_written(out) == 3 * static_cast<int>(kHostile.size()) + 3);
  fs::remove_all(work);
}
