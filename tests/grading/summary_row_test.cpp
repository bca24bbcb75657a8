#include "grading/summary_row.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <string>

#include "base/atomic_file.hpp"
#include "support/temporary_directory.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

TEST_CASE("a summary row is read from a report.json, and every unreadable one is refused naming the file") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path folder = dir.path / "alice";
  fs::create_directories(folder);
  const auto read_with = [&](const std::string& text) {
    labrun::write_file_atomically(folder / "report.json", text, true);
    return labrun::read_summary_row(folder);
  };
  const labrun::SummaryRowRead good =
      read_with(R"({"student_id": "a1", "score": 70, "max_score": 100, "mistakes": [{"id": "slow"}],
                  "execution_time": 2.5, "environment": {"device": "NVIDIA H200", "host": "n1"}})");
  REQUIRE(good.row.has_value());
  CHECK(good.row->submission == "alice");
  CHECK(good.row->score == 70);
  CHECK(good.row->mistakes == std::vector<std::string>{"slow"});
  CHECK(good.row->device == "NVIDIA H200");

  const std::string file = (folder / "report.json").string();
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {std::string(100000, '[') + std::string(100000, ']'), "nested more than 64 levels deep"},
           {R"({"score": 1, "score": 2, "max_score": 100, "mistakes": []})",
            "the key \"score\" is given twice"},
           {R"({"score": "a lot", "max_score": 100, "mistakes": []})", "not a grade report"},
           {R"({"score": 1, "max_score": 100, "mistakes": [[[]]]})", "not a grade report"},
           {"{", "not JSON"}}) {
    const labrun::SummaryRowRead bad = read_with(text);
    CHECK_FALSE(bad.row.has_value());
    CHECK_THAT(bad.problem, ContainsSubstring(file));
    CHECK_THAT(bad.problem, ContainsSubstring(why));
    CHECK(bad.problem.find('\n') == std::string::npos);
  }
  // A link is not followed: a report is a file the batch wrote there.
  fs::remove(folder / "report.json");
  fs::create_symlink("/etc/hostname", folder / "report.json");
  CHECK_FALSE(labrun::read_summary_row(folder).row.has_value());
}
