#include "grading/process.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;

TEST_CASE("a child's exit status and output are captured") {
  const labrun::ProcessResult r =
      labrun::run_with_limit({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10.0);
  CHECK(r.started);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK_FALSE(r.succeeded());
  CHECK_THAT(r.output, ContainsSubstring("out"));
  CHECK_THAT(r.output, ContainsSubstring("err"));
  CHECK(r.describe() == "exit status 3");
  CHECK(labrun::run_with_limit({"true"}, 10.0).succeeded());
}

TEST_CASE("a child past its limit is killed with everything it started") {
  const labrun::ProcessResult r =
      labrun::run_with_limit({"sh", "-c", "sleep 30 & sleep 30; echo never"}, 0.3);
  CHECK(r.timed_out);
  CHECK(r.wall_seconds < 5.0);
  CHECK_THAT(r.describe(), ContainsSubstring("timed out"));
  CHECK_FALSE(r.succeeded());
}

TEST_CASE("a program that cannot start says why, and output is capped") {
  const labrun::ProcessResult missing = labrun::run_with_limit({"/nonexistent/program"}, 5.0);
  CHECK(missing.exit_code == 127);
  CHECK_THAT(missing.output, ContainsSubstring("cannot execute /nonexistent/program"));
  const labrun::ProcessResult chatty =
      labrun::run_with_limit({"sh", "-c", "yes | head -c 100000"}, 10.0, {}, 1000);
  CHECK(chatty.output.size() < 1100);
  CHECK_THAT(chatty.output, ContainsSubstring("[output cut at 1000 bytes]"));
  const labrun::ProcessResult crash = labrun::run_with_limit({"sh", "-c", "kill -SEGV $$"}, 5.0);
  CHECK(crash.signal == 11);
  CHECK_THAT(crash.describe(), ContainsSubstring("killed by signal 11"));
}

TEST_CASE("programs are found on PATH") {
  CHECK_FALSE(labrun::find_on_path("sh").empty());
  CHECK(labrun::find_on_path("no-such-program-labrun").empty());
  CHECK(labrun::current_executable().filename() == "labrun_host_tests");
}
