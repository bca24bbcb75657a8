// The grader on its corpus of submissions (tests/grading/corpus), each with its expected verdict,
// graded the way course staff do it: `labrun grade --batch`. Skips without a GPU. Reports go to
// $LABRUN_GRADE_OUT when set, else to a temporary folder.

#include <unistd.h>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/app.hpp"
#include "evidence/atomic_file.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;

TEST_CASE("labrun grade --batch names what is wrong with every submission of the corpus") {
  labrun::testing::require_gpu();
  fs::path out;
  if (const char* folder = std::getenv("LABRUN_GRADE_OUT")) {
    out = folder;
  } else {
    std::string pattern = (fs::temp_directory_path() / "labrun-corpus-XXXXXX").string();
    out = mkdtemp(pattern.data());
  }
  const fs::path corpus = fs::path(LABRUN_TEST_DATA_DIR) / "grading" / "corpus";
  ::setenv("LABRUN_GRADE_CHILD", LABRUN_GRADE_CHILD_PATH, 1);
  const std::vector<std::string> args{"labrun",     "grade",        "--batch", corpus.string(), "--out",
                                      out.string(), "--time-limit", "20",      "--force"};
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
  }
  std::ostringstream printed;
  std::ostringstream progress;
  REQUIRE(labrun::run_cli(static_cast<int>(argv.size()), argv.data(), printed, progress) == 0);
  std::cout << printed.str();
  CHECK(fs::exists(out / "summary.md"));
  CHECK(fs::exists(out / "summary.json"));

  int graded = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    const auto expected = nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
    const auto report = nlohmann::json::parse(labrun::read_file(out / name / "report.json"));
    CHECK(fs::exists(out / name / "results.json"));
    CHECK(fs::exists(out / name / "report.md"));
    std::vector<std::string> named;
    for (const auto& m : report.at("mistakes")) {
      named.push_back(m.at("id").get<std::string>());
    }
    const auto passed = [&](std::size_t test) {
      return report.at("tests").at(test).at("status") == "passed";
    };
    CHECK(passed(0) == expected.at("compiles").get<bool>());
    CHECK((passed(1) && passed(2) && passed(3)) == expected.at("passes_correctness").get<bool>());
    for (const auto& id : expected.at("mistakes")) {
      CHECK(std::find(named.begin(), named.end(), id.get<std::string>()) != named.end());
    }
    if (expected.at("mistakes").empty()) {
      CHECK(named.empty());
    }
    ++graded;
  }
  CHECK(graded >= 14);
}
