#include "grading/sanitizer_log.hpp"

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

TEST_CASE("compute-sanitizer's verdict is its log's summary lines, every count zero") {
  const std::string clean = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
  CHECK(labrun::sanitizer_summary_lines(clean) == "ERROR SUMMARY: 0 errors");
  CHECK(labrun::sanitizer_reports_no_errors(labrun::sanitizer_summary_lines(clean)));
  const std::string errors =
      "========= Invalid __global__ write of size 4 bytes\n========= ERROR SUMMARY: 2 errors\n";
  CHECK_FALSE(labrun::sanitizer_reports_no_errors(labrun::sanitizer_summary_lines(errors)));
  const std::string race = "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n";
  CHECK(labrun::sanitizer_reports_no_errors(labrun::sanitizer_summary_lines(race)));
  const std::string raced = "========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)\n";
  CHECK_FALSE(labrun::sanitizer_reports_no_errors(labrun::sanitizer_summary_lines(raced)));
  // No summary: the run did not finish, and nothing is known.
  CHECK(labrun::sanitizer_summary_lines("========= COMPUTE-SANITIZER\n").empty());
  CHECK_FALSE(labrun::sanitizer_reports_no_errors(""));
}

TEST_CASE("every compute-sanitizer run gets the same options, NVTX's memory API read, the program last") {
  const std::vector<std::string> command =
      labrun::sanitizer_command("/cuda/bin/compute-sanitizer", "memcheck", "m.log");
  const std::vector<std::string> expected = {"/cuda/bin/compute-sanitizer",
                                             "--tool",
                                             "memcheck",
                                             "--log-file",
                                             "m.log",
                                             "--error-exitcode",
                                             "99",
                                             "--nvtx",
                                             "yes",
                                             "--report-api-errors",
                                             "no",
                                             "--print-limit",
                                             "20"};
  CHECK(command == expected);
}
