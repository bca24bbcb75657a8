#include "cli/app.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include "cli/exit_codes.hpp"
#include "device/device_info.hpp"
#include "evidence/atomic_file.hpp"

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

Outcome labrun_with(std::vector<std::string> args) {
  args.insert(args.begin(), "labrun");
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
  }
  std::ostringstream out;
  std::ostringstream err;
  const int status = labrun::run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
  return {status, out.str(), err.str()};
}

fs::path golden(const char* name) {
  return fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "golden" / name;
}

}  // namespace

TEST_CASE("help is printed for the program and for each command") {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--help"}, {"list", "--help"}, {"plan", "--help"}, {"report", "--help"}, {"run", "--help"}}) {
    const Outcome o = labrun_with(args);
    CHECK(o.status == 0);
    CHECK_THAT(o.out, ContainsSubstring("Usage"));
  }
  CHECK_THAT(labrun_with({"run", "--help"}).out, ContainsSubstring("--reps"));
  CHECK_THAT(labrun_with({"--help"}).out, ContainsSubstring("3 no usable CUDA device"));
}

TEST_CASE("usage errors exit 2 with a message") {
  CHECK(labrun_with({}).status == labrun::exit_code::kUsage);
  CHECK(labrun_with({"frobnicate"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_with({"run"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_with({"run", "day48-fusion", "--reps", "0"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_with({"run", "day48-fusion", "--reps", "many"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_with({"run", "day48-fusion", "--bogus"}).status == labrun::exit_code::kUsage);
  const Outcome unknown = labrun_with({"run", "day99-nothing"});
  CHECK(unknown.status == labrun::exit_code::kUsage);
  CHECK(unknown.err == "labrun: error: unknown lab 'day99-nothing' (known: day48-fusion, fusion-verdicts)\n");
  const Outcome no_case = labrun_with({"run", "day48-fusion", "--case", "part9/*"});
  CHECK(no_case.status == labrun::exit_code::kUsage);
  CHECK_THAT(no_case.err, ContainsSubstring("no case of day48-fusion matches"));
  CHECK(labrun_with({"plan", "day99-nothing"}).status == labrun::exit_code::kUsage);
  CHECK(labrun_with({"list", "day99-nothing"}).status == labrun::exit_code::kUsage);
}

TEST_CASE("list and plan work without a GPU") {
  const Outcome list = labrun_with({"list"});
  CHECK(list.status == 0);
  CHECK_THAT(list.out, ContainsSubstring("day48-fusion/part2/staged-chain"));
  CHECK_THAT(list.out, ContainsSubstring("day48-fusion/part4/fused-wide-k32"));
  const Outcome plan = labrun_with({"plan", "day48-fusion"});
  CHECK(plan.status == 0);
  CHECK_THAT(plan.out,
             ContainsSubstring("| staged over fused               | day48-fusion/part2/staged-chain | "
                               "day48-fusion/part2/fused-chain  |       3.00 |         4.00 |"));
  CHECK_THAT(plan.out, ContainsSubstring("|       1.80 |         2.00 |"));
  CHECK_THAT(plan.out, ContainsSubstring("|       1.67 |         2.00 |"));
}

TEST_CASE("report reproduces the Markdown a run wrote - and names what is wrong with a bad file") {
  const Outcome report = labrun_with({"report", golden("day48-fusion-nvidia-h200.json").string()});
  CHECK(report.status == 0);
  CHECK(report.out == labrun::read_file(golden("day48-fusion-nvidia-h200.md")));

  const fs::path bad = fs::temp_directory_path() / "labrun-cli-test-bad.json";
  std::ofstream(bad) << "{\"schema_version\": \"1.0.0\"}";
  const Outcome broken = labrun_with({"report", bad.string()});
  CHECK(broken.status == labrun::exit_code::kFailure);
  CHECK_THAT(broken.err, StartsWith("labrun: error: " + bad.string() + ": /"));
  CHECK_THAT(broken.err, ContainsSubstring(": missing"));
  fs::remove(bad);

  const Outcome missing = labrun_with({"report", "/nonexistent/t.json"});
  CHECK(missing.status == labrun::exit_code::kFailure);
  CHECK_THAT(missing.err, ContainsSubstring("/nonexistent/t.json"));
}

TEST_CASE("run without a usable GPU exits 3 with one line naming the CUDA error") {
  const labrun::DeviceAvailability availability = labrun::probe_devices();
  if (availability.usable) {
    SKIP("a CUDA device is present; this test is about machines without one");
  }
  const fs::path out = fs::temp_directory_path() / "labrun-cli-test-nogpu";
  const Outcome o = labrun_with({"run", "day48-fusion", "--out", out.string()});
  CHECK(o.status == labrun::exit_code::kNoDevice);
  CHECK_THAT(o.err, StartsWith("labrun: error: no usable CUDA device: cudaError"));
  CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(out));  // nothing written
}

TEST_CASE("validate reports each file and exits 1 when one is invalid") {
  const fs::path valid = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "valid" / "measured-1.1.0.json";
  const fs::path invalid = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "invalid" / "missing-run-seed.json";
  const Outcome ok =
      labrun_with({"validate", valid.string(), golden("day48-fusion-nvidia-h200.json").string()});
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, ContainsSubstring("valid (schema 1.1.0, measured)"));
  CHECK_THAT(ok.out, ContainsSubstring("valid (schema 1.0.0, measured)"));
  const Outcome bad = labrun_with({"validate", valid.string(), invalid.string()});
  CHECK(bad.status == labrun::exit_code::kFailure);
  CHECK(bad.err == "labrun: " + invalid.string() + ": /run/seed: missing (1 more)\n");
  CHECK(labrun_with({"validate"}).status == labrun::exit_code::kUsage);
}

TEST_CASE("compare prints the shared cases and claims and fails on a regression beyond the limit") {
  const fs::path t4 = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence" / "day48-fusion" /
                      "tesla-t4-lesson" / "cuda-12.6-original.json";
  const std::string h200 = golden("day48-fusion-nvidia-h200.json").string();
  const Outcome md = labrun_with({"compare", t4.string(), h200});
  CHECK(md.status == 0);
  CHECK_THAT(md.out, ContainsSubstring("baseline: Tesla T4 (transcribed"));
  CHECK_THAT(md.out, ContainsSubstring("| day48-fusion/part2/staged-chain"));
  CHECK_THAT(md.out, ContainsSubstring("## Claims whose verdict differs"));
  const Outcome json = labrun_with({"compare", t4.string(), h200, "--format", "json"});
  CHECK(json.status == 0);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["cases"].size() > 10);
  // The H200 is up to 65% slower than the T4 at launch-bound sizes and ten times faster elsewhere.
  CHECK(labrun_with({"compare", t4.string(), h200, "--fail-on-regression", "70"}).status == 0);
  CHECK(labrun_with({"compare", t4.string(), h200, "--fail-on-regression", "60"}).status ==
        labrun::exit_code::kRegression);
  const Outcome regressed = labrun_with({"compare", h200, t4.string(), "--fail-on-regression", "50"});
  CHECK(regressed.status == labrun::exit_code::kRegression);
  CHECK_THAT(regressed.err, ContainsSubstring("labrun: regression: day48-fusion/part2/staged-chain"));
  CHECK(labrun_with({"compare", t4.string(), h200, "--format", "xml"}).status == labrun::exit_code::kUsage);
  const fs::path broken = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "invalid" / "truncated.json";
  CHECK(labrun_with({"compare", broken.string(), h200}).status == labrun::exit_code::kFailure);
}
