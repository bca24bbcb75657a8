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

// Synthetic logs, in compute-sanitizer's format (CUDA 12 and 13): a report's first line after
// "========= ", its details indented further, its backtraces last, a bare "=========" between reports.
TEST_CASE("a log's first report is what went wrong and where, without its backtraces") {
  const std::string memcheck =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at fused_chain(const float *, float *, int)+0x90 in submission.cu:12\n"
      "=========     by thread (0,0,0) in block (512,0,0)\n"
      "=========     Address 0x7f0000400000 is out of bounds\n"
      "=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 4194304 bytes\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: cuLaunchKernel [0x2c1b] in libcuda.so.1\n"
      "=========\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at fused_chain(const float *, float *, int)+0x90 in submission.cu:12\n"
      "=========     by thread (1,0,0) in block (512,0,0)\n"
      "=========\n"
      "========= ERROR SUMMARY: 2 errors\n";
  CHECK(labrun::sanitizer_first_error(memcheck) ==
        "Invalid __global__ read of size 4 bytes, at fused_chain(const float *, float *, int)+0x90 in "
        "submission.cu:12, by thread (0,0,0) in block (512,0,0), Address 0x7f0000400000 is out of bounds, "
        "and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 4194304 bytes");

  const std::string synccheck =
      "========= COMPUTE-SANITIZER\n"
      "========= Barrier error detected. Divergent thread(s) in warp\n"
      "=========     at reduce(const float *, float *, int)+0x3f0 in submission.cu:40\n"
      "=========     by thread (32,0,0) in block (0,0,0)\n"
      "=========         Device Frame: reduce(const float *, float *, int)+0x3f0 in submission.cu:40\n"
      "=========\n"
      "========= ERROR SUMMARY: 1 error\n";
  CHECK(labrun::sanitizer_first_error(synccheck) ==
        "Barrier error detected. Divergent thread(s) in warp, at reduce(const float *, float *, int)+0x3f0 "
        "in submission.cu:40, by thread (32,0,0) in block (0,0,0)");

  const std::string racecheck =
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Write access at tile(float *)+0x70 in submission.cu:9\n"
      "=========     and Read access at tile(float *)+0x120 in submission.cu:11 [256 hazards]\n"
      "=========\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
  CHECK(labrun::sanitizer_first_error(racecheck) ==
        "Error: Race reported between Write access at tile(float *)+0x70 in submission.cu:9, and Read access "
        "at tile(float *)+0x120 in submission.cu:11 [256 hazards]");
}

TEST_CASE("a log with no report before its summary has no first report, and a long one is cut") {
  CHECK(labrun::sanitizer_first_error("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n")
            .empty());
  CHECK(labrun::sanitizer_first_error("").empty());
  // A run cut short: the report without a summary is still its first report.
  CHECK(labrun::sanitizer_first_error("========= Invalid __shared__ write of size 4 bytes") ==
        "Invalid __shared__ write of size 4 bytes");

  // A kernel's name is the submission's: a template's can be as long as it likes, and a report's
  // details as many as compute-sanitizer gives. Both are bounded.
  const std::string long_name(5000, 'k');
  std::string log =
      "========= Invalid __global__ write of size 4 bytes\n=========     at " + long_name + "+0x10\n";
  for (int detail = 0; detail < 20; ++detail) {
    log += "=========     detail " + std::to_string(detail) + "\n";
  }
  const std::string first = labrun::sanitizer_first_error(log);
  CHECK(first.rfind("Invalid __global__ write of size 4 bytes, at kkk", 0) == 0);
  CHECK(first.find("+0x10") == std::string::npos);
  CHECK(first.find(std::string(labrun::kSanitizerFirstErrorLineBytes - 3, 'k') + "...") != std::string::npos);
  CHECK(first.find("detail 3") != std::string::npos);
  CHECK(first.find("detail 4") == std::string::npos);  // 6 lines: the report's, "at", details 0 to 3
  CHECK(first.size() <= labrun::kSanitizerFirstErrorLines * (labrun::kSanitizerFirstErrorLineBytes + 5));
}

TEST_CASE("a run's summary adds its first report only where the run was not clean") {
  const std::string clean = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
  CHECK(labrun::read_sanitizer_log(clean, true, "exit status 0").said == "ERROR SUMMARY: 0 errors");
  const std::string errors =
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at fused(const float *)+0x90 in s.cu:12\n"
      "=========\n"
      "========= ERROR SUMMARY: 1 error\n";
  CHECK(labrun::read_sanitizer_log(errors, false, "exit status 99").said ==
        "ERROR SUMMARY: 1 error (exit status 99) (first report: Invalid __global__ read of size 4 bytes, at "
        "fused(const float *)+0x90 in s.cu:12)");
  // Killed at its time limit with a report but no summary: no verdict, and none is made up.
  CHECK(labrun::read_sanitizer_log("========= Invalid __global__ read of size 4 bytes\n", false,
                                   "killed by signal 9 at its 60 s limit")
            .said == "no summary (killed by signal 9 at its 60 s limit)");
  // The reading's verdict parts, from the same single pass.
  const labrun::SanitizerLogReading read = labrun::read_sanitizer_log(errors, false, "exit status 99");
  CHECK(read.summary == "ERROR SUMMARY: 1 error");
  CHECK_FALSE(read.reports_no_errors);
  CHECK(labrun::read_sanitizer_log(clean, true, "exit status 0").reports_no_errors);
  CHECK(labrun::read_sanitizer_log("", false, "exit status 1").summary.empty());
  // A clean log from a run that failed anyway says how it ended; it has no report to add.
  CHECK(labrun::read_sanitizer_log(clean, false, "exit status 1").said ==
        "ERROR SUMMARY: 0 errors (exit status 1)");
}

TEST_CASE("a kernel's name cannot add a summary line, nor pass for one") {
  // The submission names its kernels. One in a namespace called SUMMARY shows in a report's details
  // and in a racecheck report's first line, neither of which is a summary.
  const std::string log =
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Write access at SUMMARY::k(float *)+0x70\n"
      "=========     and Read access at SUMMARY::k(float *)+0x90 [2 hazards]\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at SUMMARY::k(float *)+0x10\n"
      "=========\n"
      "========= ERROR SUMMARY: 1 error\n";
  CHECK(labrun::sanitizer_summary_lines(log) == "ERROR SUMMARY: 1 error");
  // Without its summary (the run was killed), the log has none, whatever its kernels are called.
  CHECK(labrun::sanitizer_summary_lines(log.substr(0, log.find("========= ERROR"))).empty());
}

TEST_CASE("a summary line is found however far compute-sanitizer indents it") {
  // The verdict must not rest on the log's layout: a summary indented as a detail is still one.
  CHECK(labrun::sanitizer_summary_lines("=========     ERROR SUMMARY: 0 errors\n") ==
        "ERROR SUMMARY: 0 errors");
  CHECK(labrun::sanitizer_summary_lines("ERROR SUMMARY: 2 errors\r\n") == "ERROR SUMMARY: 2 errors");
}
