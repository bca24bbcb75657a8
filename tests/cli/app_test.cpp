#include "cli/app.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <CLI/Version.hpp>
#include <nlohmann/json.hpp>
#include "base/atomic_file.hpp"
#include "cli/exit_codes.hpp"
#include "device/device_info.hpp"
#include "registry/registry.hpp"
#include "support/cli_run.hpp"
#include "support/temporary_directory.hpp"

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

using Outcome = labrun::testing::CliOutcome;

fs::path golden(const char* name) {
  return fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "golden" / name;
}

// CLI11 renders an option's default value as "TEXT=md" up to 2.1 and as "TEXT [md] " from 2.2 to
// 2.4 (its Formatter::make_option_opts); the wider name can push the description to the next line.
// The rest of the formatter (groups, usage line, footer, column width, format_help) reads the same
// in 2.1's Formatter.hpp and 2.4's Formatter_inl.hpp. The baselines are 2.1's rendering, exactly;
// under 2.2 to 2.4 both sides are compared in this canonical form instead: every default as
// "=value" (a range validator's "in [a - b]" left as it is), a description continued on its own
// line joined to its option's line, runs of spaces as one. Every word, default, option and line
// order is still compared.
std::string canonical_help(const std::string& help) {
  static const std::regex bracketed_default(R"( \[([^\]\n]*)\] )");
  static const std::regex continued_description(R"( *\n {30})");
  static const std::regex spaces(R"( {2,})");
  // A range validator's "in [1 - 4096]" is part of the type in every version, not a default.
  static const std::regex bracketed_range(R"( in \[([^\]\n]*)\])");
  std::string text = std::regex_replace(help, bracketed_range, " in <$1>");
  text = std::regex_replace(text, bracketed_default, "=$1 ");
  text = std::regex_replace(text, continued_description, " ");
  text = std::regex_replace(text, spaces, " ");
  return std::regex_replace(text, std::regex(R"( +\n)"), "\n");
}

bool defaults_rendered_bracketed() {
  return CLI11_VERSION_MAJOR > 2 || (CLI11_VERSION_MAJOR == 2 && CLI11_VERSION_MINOR >= 2);
}

}  // namespace

TEST_CASE("help is printed for the program and for each command") {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"},
                                                                {"list", "--help"},
                                                                {"plan", "--help"},
                                                                {"report", "--help"},
                                                                {"run", "--help"},
                                                                {"aggregate", "--help"}}) {
    const Outcome o = labrun::testing::run_labrun(args);
    CHECK(o.status == 0);
    CHECK_THAT(o.out, ContainsSubstring("Usage"));
  }
  CHECK_THAT(labrun::testing::run_labrun({"run", "--help"}).out, ContainsSubstring("--reps"));
  CHECK_THAT(labrun::testing::run_labrun({"--help"}).out, ContainsSubstring("3 no usable CUDA device"));
}

TEST_CASE("the canonical help form takes CLI11 2.4's rendering of a default to 2.1's, and nothing else") {
  // A line as CLI11 2.1 renders it, and as 2.2 to 2.4 render the same option.
  const std::string as_2_1 =
      "  --seed UINT=48              Seed of the random inputs\n"
      "  --reps INT:INT in 1..100000=20\n"
      "                              Minimum timed samples per case\n";
  const std::string as_2_4 =
      "  --seed UINT [48]            Seed of the random inputs\n"
      "  --reps INT:INT in 1..100000 [20] \n"
      "                              Minimum timed samples per case\n";
  CHECK(canonical_help(as_2_4) == canonical_help(as_2_1));
  // A range validator's brackets are the type's, before the default's.
  const std::string range_as_2_1 =
      "  --time-limit FLOAT:FLOAT in [1 - 3600]=60\n"
      "                              Seconds the grading run may take\n"
      "  --jobs INT:INT in [1 - 128]\n"
      "                              Gradings at once\n";
  const std::string range_as_2_4 =
      "  --time-limit FLOAT:FLOAT in [1 - 3600] [60] \n"
      "                              Seconds the grading run may take\n"
      "  --jobs INT:INT in [1 - 128] \n"
      "                              Gradings at once\n";
  CHECK(canonical_help(range_as_2_4) == canonical_help(range_as_2_1));
  std::string other_default = range_as_2_4;
  other_default.replace(other_default.find("[60]"), 4, "[61]");
  CHECK(canonical_help(other_default) != canonical_help(range_as_2_1));
  CHECK(canonical_help(as_2_1) ==
        " --seed UINT=48 Seed of the random inputs\n --reps INT:INT in 1..100000=20 Minimum timed samples "
        "per case\n");
  // A changed default, word or option still differs.
  CHECK(canonical_help("  --seed UINT [49]            Seed of the random inputs\n") !=
        canonical_help("  --seed UINT=48              Seed of the random inputs\n"));
  CHECK(canonical_help("  --seed UINT [48]            Seed of random inputs\n") !=
        canonical_help("  --seed UINT=48              Seed of the random inputs\n"));
  CHECK(canonical_help("  --sed UINT [48]             Seed of the random inputs\n") !=
        canonical_help("  --seed UINT=48              Seed of the random inputs\n"));
}

// Approval test: the help of the program and of every command against the baselines in
// tests/cli/help/ (CLI11 2.1's rendering): exactly under CLI11 2.1, in canonical_help's form under
// 2.2 to 2.4. A change to an option or its text shows here; promoting it is a deliberate step:
// `(exec -a labrun build/ci/labrun CMD --help > tests/cli/help/CMD.txt)` (labrun.txt: no CMD), with
// CLI11 2.1 (Debian 12's, as CI has).
TEST_CASE("help of the program and of every command matches its committed baseline") {
  if (CLI11_VERSION_MAJOR != 2 || CLI11_VERSION_MINOR > 4) {
    SKIP(
        "the baselines are CLI11 2.1's help, compared with 2.1 to 2.4's; this build has "
        "CLI11 " CLI11_VERSION);
  }
  const bool canonical = defaults_rendered_bracketed();
  const auto same = [canonical](const std::string& printed, const std::string& baseline) {
    return canonical ? canonical_help(printed) == canonical_help(baseline) : printed == baseline;
  };
  INFO("CLI11 " CLI11_VERSION << (canonical ? ": compared in canonical form" : ": compared exactly"));
  const fs::path baselines = fs::path(LABRUN_TEST_DATA_DIR) / "cli" / "help";
  CHECK(same(labrun::testing::run_labrun({"--help"}).out, labrun::read_file(baselines / "labrun.txt")));
  for (const char* command : {"list", "plan", "report", "plot", "validate", "aggregate", "compare", "grade",
                              "run", "timeline", "profile"}) {
    INFO(command);
    const Outcome o = labrun::testing::run_labrun({command, "--help"});
    CHECK(o.status == 0);
    CHECK(o.err.empty());
    const std::string baseline = labrun::read_file(baselines / (std::string(command) + ".txt"));
    INFO("printed, compared form:\n" << (canonical ? canonical_help(o.out) : o.out));
    INFO("baseline, compared form:\n" << (canonical ? canonical_help(baseline) : baseline));
    CHECK(same(o.out, baseline));
  }
}

TEST_CASE("usage errors exit 2 with a message") {
  CHECK(labrun::testing::run_labrun({}).status == labrun::exit_code::kUsage);
  CHECK(labrun::testing::run_labrun({"frobnicate"}).status == labrun::exit_code::kUsage);
  CHECK(labrun::testing::run_labrun({"run"}).status == labrun::exit_code::kUsage);
  CHECK(labrun::testing::run_labrun({"run", "day48-fusion", "--reps", "0"}).status ==
        labrun::exit_code::kUsage);
  CHECK(labrun::testing::run_labrun({"run", "day48-fusion", "--reps", "many"}).status ==
        labrun::exit_code::kUsage);
  CHECK(labrun::testing::run_labrun({"run", "day48-fusion", "--bogus"}).status == labrun::exit_code::kUsage);
  const Outcome unknown = labrun::testing::run_labrun({"run", "day99-nothing"});
  CHECK(unknown.status == labrun::exit_code::kUsage);
  // The known labs are whichever this build registered, in registration order.
  std::string known;
  for (const labrun::Lab& lab : labrun::registered_labs().labs()) {
    known += (known.empty() ? "" : ", ") + lab.name;
  }
  CHECK(unknown.err == "labrun: error: unknown lab 'day99-nothing' (known: " + known + ")\n");
  const Outcome no_case = labrun::testing::run_labrun({"run", "day48-fusion", "--case", "part9/*"});
  CHECK(no_case.status == labrun::exit_code::kUsage);
  CHECK_THAT(no_case.err, ContainsSubstring("--case 'part9/*' matches no case of day48-fusion"));
  CHECK(labrun::testing::run_labrun({"plan", "day99-nothing"}).status == labrun::exit_code::kUsage);
  CHECK(labrun::testing::run_labrun({"list", "day99-nothing"}).status == labrun::exit_code::kUsage);
  // More jobs than a batch has registrations for its scratch folders (cli/grade_command.cpp).
  const Outcome too_many_jobs =
      labrun::testing::run_labrun({"grade", "--batch", ".", "--out", "o", "--jobs", "129"});
  CHECK(too_many_jobs.status == labrun::exit_code::kUsage);
  CHECK_THAT(too_many_jobs.err, ContainsSubstring("--jobs"));
}

TEST_CASE("list and plan work without a GPU") {
  const Outcome list = labrun::testing::run_labrun({"list"});
  CHECK(list.status == 0);
  CHECK_THAT(list.out, ContainsSubstring("day48-fusion/part2/staged-chain"));
  CHECK_THAT(list.out, ContainsSubstring("day48-fusion/part4/fused-wide-k32"));
  const Outcome plan = labrun::testing::run_labrun({"plan", "day48-fusion"});
  CHECK(plan.status == 0);
  CHECK_THAT(plan.out,
             ContainsSubstring("| staged over fused               | day48-fusion/part2/staged-chain | "
                               "day48-fusion/part2/fused-chain  |       3.00 |         4.00 |"));
  CHECK_THAT(plan.out, ContainsSubstring("|       1.80 |         2.00 |"));
  CHECK_THAT(plan.out, ContainsSubstring("|       1.67 |         2.00 |"));
}

TEST_CASE("report reproduces the Markdown a run wrote - and names what is wrong with a bad file") {
  const Outcome report =
      labrun::testing::run_labrun({"report", golden("day48-fusion-nvidia-h200.json").string()});
  CHECK(report.status == 0);
  CHECK(report.out == labrun::read_file(golden("day48-fusion-nvidia-h200.md")));

  const fs::path bad = fs::temp_directory_path() / "labrun-cli-test-bad.json";
  std::ofstream(bad) << "{\"schema_version\": \"1.0.0\"}";
  const Outcome broken = labrun::testing::run_labrun({"report", bad.string()});
  CHECK(broken.status == labrun::exit_code::kFailure);
  CHECK_THAT(broken.err, StartsWith("labrun: error: " + bad.string() + ": /"));
  CHECK_THAT(broken.err, ContainsSubstring(": missing"));
  fs::remove(bad);

  const Outcome missing = labrun::testing::run_labrun({"report", "/nonexistent/t.json"});
  CHECK(missing.status == labrun::exit_code::kFailure);
  CHECK_THAT(missing.err, ContainsSubstring("/nonexistent/t.json"));
}

TEST_CASE("report prints a rendering chosen by name - and refuses an unknown name in one line, exit 2") {
  const std::string transcript = golden("day48-fusion-nvidia-h200.json").string();
  const Outcome md = labrun::testing::run_labrun({"report", transcript, "--format", "md"});
  CHECK(md.status == 0);
  CHECK(md.out == labrun::read_file(golden("day48-fusion-nvidia-h200.md")));
  const Outcome csv = labrun::testing::run_labrun({"report", transcript, "--format", "csv"});
  CHECK(csv.status == 0);
  CHECK(csv.err.empty());
  CHECK_THAT(csv.out, StartsWith("lab,case,n,size_label,timing_mode,sample_index,ms,sm_clock_mhz\r\n"
                                 "day48-fusion,day48-fusion/part1/"));
  for (const char* name : {"xlsx", "json", ""}) {
    const Outcome refused = labrun::testing::run_labrun({"report", transcript, "--format", name});
    CHECK(refused.status == labrun::exit_code::kUsage);
    CHECK(refused.out.empty());
    CHECK(refused.err == "labrun: error: unknown format '" + std::string(name) + "' (known: md, csv)\n");
  }
  // The format is checked before the file is read.
  CHECK(labrun::testing::run_labrun({"report", "/nonexistent/t.json", "--format", "xlsx"}).status ==
        labrun::exit_code::kUsage);
}

TEST_CASE("run --write names a format, checked before the device is touched") {
  const Outcome unknown = labrun::testing::run_labrun({"run", "day48-fusion", "--write", "xlsx"});
  CHECK(unknown.status == labrun::exit_code::kUsage);
  CHECK(unknown.err == "labrun: error: unknown format 'xlsx' (known: json, md, csv)\n");
  // --write takes one name each time, so the lab after it stays the lab.
  const Outcome parsed = labrun::testing::run_labrun(
      {"run", "--write", "csv", "day48-fusion", "--write", "md", "--reps", "5", "--max-samples", "2"});
  CHECK(parsed.status == labrun::exit_code::kUsage);
  CHECK(parsed.err == "labrun: error: --max-samples (2) must be at least --reps (5)\n");
}

TEST_CASE("run takes the lab's own rounds without --rounds, and --rounds over them, before the device") {
  // --small-case-rounds must be at least the rounds every case takes: the refusal names them.
  const Outcome verdicts =
      labrun::testing::run_labrun({"run", "fusion-verdicts", "--small-case-rounds", "7"});
  CHECK(verdicts.status == labrun::exit_code::kUsage);
  CHECK_THAT(verdicts.err, Catch::Matchers::ContainsSubstring(
                               "--small-case-rounds (7) must be at least the rounds every case takes (10)"));
  const Outcome given = labrun::testing::run_labrun(
      {"run", "fusion-verdicts", "--rounds", "8", "--small-case-rounds", "7", "--timing", "cold"});
  CHECK(given.status == labrun::exit_code::kUsage);
  CHECK_THAT(given.err, Catch::Matchers::ContainsSubstring("every case takes (8)"));
  const Outcome day48 = labrun::testing::run_labrun({"run", "day48-fusion", "--small-case-rounds", "4"});
  CHECK(day48.status == labrun::exit_code::kUsage);
  CHECK_THAT(day48.err, Catch::Matchers::ContainsSubstring("every case takes (5)"));
  // The small cases' size limit (a precision experiment) is a count of elements, at least 1.
  const Outcome none =
      labrun::testing::run_labrun({"run", "day48-fusion", "--small-case-rounds-max-elements", "0"});
  CHECK(none.status == labrun::exit_code::kUsage);
  CHECK_THAT(none.err, Catch::Matchers::ContainsSubstring("--small-case-rounds-max-elements"));
  const Outcome words =
      labrun::testing::run_labrun({"run", "day48-fusion", "--small-case-rounds-max-elements", "2^24"});
  CHECK(words.status == labrun::exit_code::kUsage);
}

TEST_CASE("run without a usable GPU exits 3 with one line naming the CUDA error") {
  const labrun::DeviceAvailability availability = labrun::probe_devices();
  if (availability.usable) {
    SKIP("a CUDA device is present; this test is about machines without one");
  }
  const fs::path out = fs::temp_directory_path() / "labrun-cli-test-nogpu";
  const Outcome o = labrun::testing::run_labrun({"run", "day48-fusion", "--out", out.string()});
  CHECK(o.status == labrun::exit_code::kNoDevice);
  CHECK_THAT(o.err, StartsWith("labrun: error: no usable CUDA device: "));
  CHECK_THAT(o.err, ContainsSubstring("cudaError"));
  CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(out));  // nothing written
  if (labrun::read_cuda_versions().driver.rfind("none", 0) == 0) {
    // No driver at all: said as such, not as a driver too old.
    CHECK_THAT(o.err, ContainsSubstring("no NVIDIA driver is loaded on this machine"));
  }
}

TEST_CASE("usage errors are found before the device is touched - exit 2 with or without a GPU") {
  const Outcome samples =
      labrun::testing::run_labrun({"run", "day48-fusion", "--reps", "50", "--max-samples", "10"});
  CHECK(samples.status == labrun::exit_code::kUsage);
  CHECK(samples.err == "labrun: error: --max-samples (10) must be at least --reps (50)\n");
  // A pattern that matches nothing is refused by name, even beside one that matches.
  const Outcome typo = labrun::testing::run_labrun(
      {"run", "day48-fusion", "--case", "part2/*", "--case", "part2/fused-chian"});
  CHECK(typo.status == labrun::exit_code::kUsage);
  CHECK_THAT(typo.err, ContainsSubstring("--case 'part2/fused-chian' matches no case of day48-fusion"));
  CHECK(labrun::testing::run_labrun({"profile", "day48-fusion", "--case", "nothing*"}).status ==
        labrun::exit_code::kUsage);
}

TEST_CASE("range errors print their bounds as written") {
  const Outcome reps = labrun::testing::run_labrun({"run", "day48-fusion", "--reps", "0"});
  CHECK(reps.status == labrun::exit_code::kUsage);
  CHECK_THAT(reps.err, ContainsSubstring("'0' is not a whole number from 1 to 100000"));
  const Outcome limit = labrun::testing::run_labrun({"run", "day48-fusion", "--case-time-limit", "-1"});
  CHECK_THAT(limit.err, ContainsSubstring("'-1' is not a number above 0"));
  const Outcome ci = labrun::testing::run_labrun({"run", "day48-fusion", "--target-ci", "2"});
  CHECK_THAT(ci.err, ContainsSubstring("'2' is not a number from 0 to 1"));
  const Outcome regression =
      labrun::testing::run_labrun({"compare", "a.json", "b.json", "--fail-on-regression", "-5"});
  CHECK_THAT(regression.err, ContainsSubstring("'-5' is not a number of 0 or more"));
  for (const Outcome& o : {reps, limit, ci, regression}) {
    CHECK(o.status == labrun::exit_code::kUsage);
    CHECK(o.err.find("179769313") == std::string::npos);  // no 309-digit maximum
    CHECK(o.err.size() < 300);
  }
}

TEST_CASE("labrun --version prints the version, git commit, CUDA versions and data folder, without a GPU") {
  const Outcome version = labrun::testing::run_labrun({"--version"});
  CHECK(version.status == 0);
  CHECK_THAT(version.out, StartsWith("labrun 0.1.0\n"));
  CHECK_THAT(version.out, ContainsSubstring("\ngit commit "));
  CHECK_THAT(version.out, ContainsSubstring("\nCUDA "));
  CHECK_THAT(version.out, ContainsSubstring("; runtime "));
  CHECK_THAT(version.out, ContainsSubstring("; driver "));
  CHECK_THAT(version.out, ContainsSubstring("\ndata files in "));
}

TEST_CASE("a folder, a comparison or a grade report given as a transcript is named for what it is") {
  const fs::path evidence = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence";
  for (const char* command : {"report", "validate"}) {
    const Outcome folder = labrun::testing::run_labrun({command, evidence.string()});
    CHECK(folder.status == labrun::exit_code::kFailure);
    CHECK_THAT(folder.err, ContainsSubstring(evidence.string() + " is a folder, not a transcript"));
    CHECK(folder.err.find("malformed JSON") == std::string::npos);
  }
  const fs::path comparison =
      evidence / "day48-fusion" / "comparisons" / "tesla-t4-lesson-vs-nvidia-h200.json";
  const Outcome compared = labrun::testing::run_labrun({"validate", comparison.string()});
  CHECK(compared.status == labrun::exit_code::kFailure);
  CHECK(compared.err ==
        "labrun: " + comparison.string() +
            ": not a transcript (it looks like a comparison (`labrun compare --format json`))\n");
  const fs::path grade = evidence / "day48-fusion" / "grading" / "2026-11-30T06-03Z" /
                         "nvidia-h200-correct-gradescope-results.json";
  CHECK_THAT(labrun::testing::run_labrun({"report", grade.string()}).err,
             ContainsSubstring("it looks like a grade report"));
  const fs::path trace = evidence / "day48-fusion" / "nvidia-h200" / "2026-12-01T05-42-33Z.trace.json";
  const Outcome traced = labrun::testing::run_labrun({"validate", trace.string()});
  CHECK(traced.status == labrun::exit_code::kFailure);
  CHECK(traced.err ==
        "labrun: " + trace.string() +
            ": not a transcript (it looks like a Chrome trace (`labrun run --timeline`, for Perfetto "
            "or chrome://tracing))\n");
}

TEST_CASE("validate says what happened to a file name that starts with '-', and takes it after --") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path dashed = dir.path / "-dash.json";
  fs::copy_file(fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "valid" / "measured-1.1.0.json", dashed);
  const fs::path previous = fs::current_path();
  fs::current_path(dir.path);
  const Outcome refused = labrun::testing::run_labrun({"validate", "-dash.json"});
  const Outcome after_dashes = labrun::testing::run_labrun({"validate", "--", "-dash.json"});
  const Outcome beside = labrun::testing::run_labrun({"validate", "a.json", "-x", "b.json"});
  fs::current_path(previous);
  CHECK(refused.status == labrun::exit_code::kUsage);
  CHECK(refused.err ==
        "labrun: error: '-dash.json' is not an option of `labrun validate`; a file whose name starts with "
        "'-' goes "
        "after --, as in `labrun validate -- -dash.json`, or is named ./-dash.json\n");
  CHECK(after_dashes.status == 0);
  CHECK_THAT(after_dashes.out, StartsWith("-dash.json: valid (schema 1.1.0, measured)"));
  CHECK(beside.status == labrun::exit_code::kUsage);
  CHECK_THAT(beside.err, ContainsSubstring("'-x' is not an option of `labrun validate`"));
  // A value that starts with '-' still reaches its option's own check.
  CHECK_THAT(labrun::testing::run_labrun({"compare", "a.json", "b.json", "--fail-on-regression", "-5"}).err,
             ContainsSubstring("'-5' is not a number of 0 or more"));
}

TEST_CASE("run refuses a seed no transcript can hold, before the device is touched") {
  const Outcome o = labrun::testing::run_labrun({"run", "day48-fusion", "--seed", "9223372036854775808"});
  CHECK(o.status == labrun::exit_code::kUsage);
  CHECK(o.err ==
        "labrun: error: --seed 9223372036854775808 is above 9223372036854775807 (2^63 - 1), the largest a "
        "transcript records\n");
}

TEST_CASE("validate names what an older transcript lacks that the current schema requires") {
  const Outcome o =
      labrun::testing::run_labrun({"validate", golden("day48-fusion-nvidia-h200-1.1.0.json").string()});
  CHECK(o.status == 0);
  CHECK_THAT(o.out, ContainsSubstring("valid (schema 1.1.0, measured); read as " +
                                      std::string(labrun::kTranscriptSchemaVersion) +
                                      " with not recorded: device/memory_peak_gb_per_s"));
}

TEST_CASE("aggregate writes Markdown, JSON, CSV and plots, and never overwrites without --force") {
  const fs::path evidence = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence";
  const fs::path out = fs::temp_directory_path() / "labrun-cli-test-aggregate";
  fs::remove_all(out);
  const Outcome first = labrun::testing::run_labrun({"aggregate", evidence.string(), "--out", out.string()});
  CHECK(first.status == 0);
  CHECK_THAT(first.out, StartsWith("# Evidence across cards"));
  CHECK(first.err.find("left out") == std::string::npos);
  CHECK(labrun::read_file(out / "aggregate.md") == first.out);
  CHECK(nlohmann::json::parse(labrun::read_file(out / "aggregate.json"))["format"] == "labrun-aggregate");
  CHECK(fs::exists(out / "aggregate.day48-fusion.csv"));
  CHECK(fs::exists(out / "aggregate.fusion-verdicts.csv"));
  const Outcome again = labrun::testing::run_labrun({"aggregate", evidence.string(), "--out", out.string()});
  CHECK(again.status == labrun::exit_code::kFileExists);
  CHECK_THAT(again.err, ContainsSubstring("--force"));
  // --force replaces the first run's files (from one transcript this time: what is tested is the
  // overwrite, and the whole evidence folder has been aggregated above).
  const fs::path lesson = evidence / "day48-fusion" / "tesla-t4-lesson" / "cuda-12.6-original.json";
  CHECK(
      labrun::testing::run_labrun({"aggregate", lesson.string(), "--out", out.string(), "--force"}).status ==
      0);
  CHECK(labrun::read_file(out / "aggregate.md") != first.out);
  // Nothing usable: exit 1; a named file left out: one line, and the rest goes on.
  const fs::path invalid = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "invalid" / "truncated.json";
  const Outcome none =
      labrun::testing::run_labrun({"aggregate", invalid.string(), "--out", (out / "none").string()});
  CHECK(none.status == labrun::exit_code::kFailure);
  CHECK_THAT(none.err, ContainsSubstring("labrun: left out: " + invalid.string()));
  CHECK_THAT(none.err, ContainsSubstring("nothing to aggregate"));
  const Outcome some = labrun::testing::run_labrun(
      {"aggregate", invalid.string(), lesson.string(), "--out", (out / "some").string()});
  CHECK(some.status == 0);
  CHECK(std::count(some.err.begin(), some.err.end(), '\n') >= 1);
  CHECK(labrun::testing::run_labrun({"aggregate", lesson.string()}).status ==
        labrun::exit_code::kUsage);  // --out is required
  fs::remove_all(out);
}

TEST_CASE("validate reports each file and exits 1 when one is invalid") {
  const fs::path valid = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "valid" / "measured-1.1.0.json";
  const fs::path invalid = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "invalid" / "missing-run-seed.json";
  const Outcome ok = labrun::testing::run_labrun(
      {"validate", valid.string(), golden("day48-fusion-nvidia-h200.json").string()});
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, ContainsSubstring("valid (schema 1.1.0, measured)"));
  CHECK_THAT(ok.out, ContainsSubstring("valid (schema 1.0.0, measured)"));
  const Outcome bad = labrun::testing::run_labrun({"validate", valid.string(), invalid.string()});
  CHECK(bad.status == labrun::exit_code::kFailure);
  CHECK(bad.err == "labrun: " + invalid.string() + ": /run/seed: missing (1 more)\n");
  CHECK(labrun::testing::run_labrun({"validate"}).status == labrun::exit_code::kUsage);
}

TEST_CASE("compare prints the shared cases and claims and fails on a regression beyond the limit") {
  const fs::path t4 = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence" / "day48-fusion" /
                      "tesla-t4-lesson" / "cuda-12.6-original.json";
  const std::string h200 = golden("day48-fusion-nvidia-h200.json").string();
  const Outcome md = labrun::testing::run_labrun({"compare", t4.string(), h200});
  CHECK(md.status == 0);
  CHECK_THAT(md.out, ContainsSubstring("baseline: Tesla T4 (transcribed"));
  CHECK_THAT(md.out, ContainsSubstring("| day48-fusion/part2/staged-chain"));
  CHECK_THAT(md.out, ContainsSubstring("## Claims whose verdict differs"));
  const Outcome json = labrun::testing::run_labrun({"compare", t4.string(), h200, "--format", "json"});
  CHECK(json.status == 0);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["cases"].size() > 10);
  // The H200 is up to 65% slower than the T4 at launch-bound sizes and ten times faster elsewhere.
  CHECK(labrun::testing::run_labrun({"compare", t4.string(), h200, "--fail-on-regression", "70"}).status ==
        0);
  CHECK(labrun::testing::run_labrun({"compare", t4.string(), h200, "--fail-on-regression", "60"}).status ==
        labrun::exit_code::kRegression);
  const Outcome regressed =
      labrun::testing::run_labrun({"compare", h200, t4.string(), "--fail-on-regression", "50"});
  CHECK(regressed.status == labrun::exit_code::kRegression);
  CHECK_THAT(regressed.err, ContainsSubstring("labrun: regression: day48-fusion/part2/staged-chain"));
  CHECK(labrun::testing::run_labrun({"compare", t4.string(), h200, "--format", "xml"}).status ==
        labrun::exit_code::kUsage);
  const fs::path broken = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "invalid" / "truncated.json";
  CHECK(labrun::testing::run_labrun({"compare", broken.string(), h200}).status ==
        labrun::exit_code::kFailure);
}

TEST_CASE("plot refuses a transcript not named .json, which its own Markdown would overwrite") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path named_md = dir.path / "run.md";
  fs::copy_file(golden("day48-fusion-nvidia-h200.json"), named_md);
  const std::string before = labrun::read_file(named_md);
  const Outcome o = labrun::testing::run_labrun({"plot", named_md.string(), "--force"});
  CHECK(o.status == labrun::exit_code::kUsage);
  CHECK_THAT(o.err, ContainsSubstring("must be named .json"));
  CHECK(labrun::read_file(named_md) == before);
}

TEST_CASE(
    "the option --nsys goes with --timeline and needs nsys on PATH: refused before any device is touched") {
  const Outcome alone = labrun::testing::run_labrun({"run", "day48-fusion", "--nsys"});
  CHECK(alone.status == labrun::exit_code::kUsage);
  CHECK_THAT(alone.err, ContainsSubstring("--nsys goes with --timeline"));
  const std::string saved = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent-labrun-test-folder", 1);
  const Outcome absent = labrun::testing::run_labrun({"timeline", "day48-fusion", "--nsys"});
  setenv("PATH", saved.c_str(), 1);
  CHECK(absent.status == labrun::exit_code::kUsage);
  CHECK_THAT(absent.err, ContainsSubstring("nsys is not on PATH"));
  const Outcome help = labrun::testing::run_labrun({"timeline", "--help"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, ContainsSubstring("--nsys"));
  CHECK_THAT(labrun::testing::run_labrun({"run", "--help"}).out, ContainsSubstring("--timeline"));
}
