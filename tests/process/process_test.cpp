#include "process/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "base/atomic_file.hpp"
#include "process/process_tree.hpp"

using Catch::Matchers::ContainsSubstring;

namespace {

namespace fs = std::filesystem;

fs::path scratch_folder() {
  std::string pattern = (fs::temp_directory_path() / "labrun-process-test-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

bool alive(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

// Waits up to two seconds for a process to be gone (reaped by whoever is its parent now).
// Within 10 s: generous, so that a loaded machine (CI's two cores, a parallel build) passes too.
bool gone_soon(pid_t pid) {
  for (int i = 0; i < 1000 && alive(pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return !alive(pid);
}

// The pid a shell wrote with `echo $$ > file`: waits until the line is whole (the shell creates the
// file before it writes to it, so an existing file may still be empty).
pid_t read_pid(const fs::path& file) {
  std::string text;
  for (int i = 0; i < 1000; ++i) {
    std::error_code missing;
    if (fs::exists(file, missing)) {
      text = labrun::read_file(file);
      if (!text.empty() && text.back() == '\n') {
        break;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return static_cast<pid_t>(std::stol(text));
}

}  // namespace

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

TEST_CASE("a descendant that leaves the child's session does not outlive the time-out") {
  const fs::path folder = scratch_folder();
  // setsid puts the sleeper in a session and process group of its own, out of reach of a group kill.
  const labrun::ProcessResult r = labrun::run_with_limit(
      {"sh", "-c",
       "setsid sh -c 'echo $$ > " + (folder / "escaped").string() + "; exec sleep 60' & sleep 60"},
      1.0);
  CHECK(r.timed_out);
  const pid_t escaped = read_pid(folder / "escaped");
  CHECK(gone_soon(escaped));
  fs::remove_all(folder);
}

TEST_CASE("a descendant left running when the child exits is killed too") {
  const fs::path folder = scratch_folder();
  const labrun::ProcessResult r = labrun::run_with_limit(
      {"sh", "-c",
       "setsid sh -c 'echo $$ > " + (folder / "daemon").string() + "; exec sleep 60' & sleep 0.2; exit 0"},
      10.0);
  CHECK(r.succeeded());
  CHECK(r.wall_seconds < 5.0);
  CHECK(gone_soon(read_pid(folder / "daemon")));
  fs::remove_all(folder);
}

TEST_CASE("a child gets a clean environment, only descriptors 0 to 2, and its limits") {
  ::setenv("LABRUN_TEST_SECRET", "do-not-pass", 1);
  // Without O_CLOEXEC on purpose, and far above 3: the shell's glob below opens the lowest free
  // descriptor itself while it lists them, so a leaked 3 could not be told from its own.
  const int opened = ::open("/dev/null", O_RDONLY);
  REQUIRE(opened >= 0);
  const int leaked = ::fcntl(opened, F_DUPFD, 100);
  ::close(opened);
  REQUIRE(leaked >= 100);
  labrun::SpawnOptions options;
  // The shell lists its own descriptors (a glob, no program that would open one of its own).
  options.argv = {"sh", "-c", "env; for f in /proc/$$/fd/*; do echo ${f##*/}; done; ulimit -c; ulimit -f"};
  options.limit_seconds = 10.0;
  options.environment = labrun::minimal_environment({"LABRUN_CHILD_MARK=1"});
  options.limits.file_size_bytes = std::uint64_t{1024} * 1024;
  const labrun::ProcessResult r = labrun::run_contained(options);
  ::close(leaked);
  ::unsetenv("LABRUN_TEST_SECRET");
  REQUIRE(r.succeeded());
  CHECK_THAT(r.output, ContainsSubstring("LABRUN_CHILD_MARK=1"));
  CHECK(r.output.find("LABRUN_TEST_SECRET") == std::string::npos);
  const std::string leaked_line = std::string("\n").append(std::to_string(leaked)).append("\n");
  CHECK(r.output.find(leaked_line) == std::string::npos);
  CHECK_THAT(r.output, ContainsSubstring("\n0\n"));     // core dumps off
  CHECK_THAT(r.output, ContainsSubstring("\n2048\n"));  // 1 MiB in 512-byte blocks
}

TEST_CASE("a file larger than the child's limit cannot be written") {
  const fs::path folder = scratch_folder();
  labrun::SpawnOptions options;
  options.argv = {"sh", "-c", "head -c 200000 /dev/zero > big"};
  options.working_directory = folder;
  options.limits.file_size_bytes = 65536;
  const labrun::ProcessResult r = labrun::run_contained(options);
  CHECK_FALSE(r.succeeded());
  CHECK(fs::file_size(folder / "big") <= 65536);
  fs::remove_all(folder);
}

TEST_CASE("a program that cannot start says why, and long output keeps its head and tail") {
  const labrun::ProcessResult missing = labrun::run_with_limit({"/nonexistent/program"}, 5.0);
  CHECK(missing.exit_code == 127);
  CHECK_THAT(missing.output, ContainsSubstring("cannot execute /nonexistent/program"));
  const labrun::ProcessResult chatty = labrun::run_with_limit(
      {"sh", "-c", "echo FIRST; yes | head -c 100000; echo; echo LAST"}, 10.0, {}, 1000);
  CHECK(chatty.output.size() < 1100);
  CHECK_THAT(chatty.output, ContainsSubstring("FIRST"));
  CHECK_THAT(chatty.output, ContainsSubstring("LAST"));
  CHECK_THAT(chatty.output, ContainsSubstring("bytes left out"));
  CHECK(chatty.output_bytes > 100000);
  const labrun::ProcessResult crash = labrun::run_with_limit({"sh", "-c", "kill -SEGV $$"}, 5.0);
  CHECK(crash.signal == 11);
  CHECK_THAT(crash.describe(), ContainsSubstring("killed by signal 11"));
}

TEST_CASE("SIGTERM to the process running a child ends the child's whole tree, then the process") {
  const fs::path folder = scratch_folder();
  const pid_t runner = ::fork();  // this test program has no CUDA context and no other threads
  REQUIRE(runner >= 0);
  if (runner == 0) {
    static_cast<void>(
        labrun::run_with_limit({"sh", "-c",
                                "echo $$ > " + (folder / "child").string() + "; sleep 60 & echo $! > " +
                                    (folder / "grandchild").string() + "; wait"},
                               60.0));
    ::_exit(0);  // not reached: the forwarded signal ends this process
  }
  const pid_t child = read_pid(folder / "child");
  const pid_t grandchild = read_pid(folder / "grandchild");
  ::kill(runner, SIGTERM);
  int status = 0;
  REQUIRE(::waitpid(runner, &status, 0) == runner);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(gone_soon(child));
  CHECK(gone_soon(grandchild));
  fs::remove_all(folder);
}

TEST_CASE("the parent in /proc/PID/stat is read past a command name with spaces and parentheses") {
  CHECK(labrun::parent_in_stat("123 (a b) c) S 77 123 123 0") == 77);
  CHECK(labrun::parent_in_stat("123 (sh) R 1 1 1") == 1);
  CHECK_FALSE(labrun::parent_in_stat("garbage").has_value());
  CHECK_FALSE(labrun::parent_in_stat("").has_value());
}

TEST_CASE("the CPU seconds in /proc/PID/stat are read past a command name with spaces and parentheses") {
  // utime 150, stime 50, cutime 20, cstime 30 ticks of 100 a second.
  const std::string stat = "42 (a b) c) S 1 42 42 0 -1 4194304 10 0 0 0 150 50 20 30 20 0 1 0";
  REQUIRE(labrun::cpu_seconds_in_stat(stat, 100).has_value());
  CHECK(*labrun::cpu_seconds_in_stat(stat, 100) == Catch::Approx(2.5));
  CHECK_FALSE(labrun::cpu_seconds_in_stat("42 (sh) S 1 42", 100).has_value());
  CHECK_FALSE(labrun::cpu_seconds_in_stat("garbage", 100).has_value());
}

TEST_CASE("programs are found on PATH") {
  CHECK_FALSE(labrun::find_on_path("sh").empty());
  CHECK(labrun::find_on_path("no-such-program-labrun").empty());
  CHECK(labrun::current_executable().filename() == "labrun_host_tests");
  CHECK_FALSE(labrun::containment_program().empty());
}

TEST_CASE("a run budget is spent only while the child works, and can be capped") {
  labrun::RunBudget budget(10.0);
  budget.pause();
  const double paused_at = budget.spent();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(budget.spent() == paused_at);
  budget.resume();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(budget.spent() > paused_at);
  CHECK_FALSE(budget.exhausted());
  budget.cap_remaining(0.05);
  CHECK(budget.limit() < 1.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(budget.exhausted());
  // A screening group's next member: exactly its own limit from now, though the last one overspent.
  budget.set_remaining(5.0);
  CHECK_FALSE(budget.exhausted());
  CHECK(budget.limit() - budget.spent() == Catch::Approx(5.0).margin(0.01));
  budget.set_remaining(0.0);
  CHECK(budget.exhausted());
}

TEST_CASE("a child waiting while its budget is paused is not killed for the wait") {
  labrun::RunBudget budget(0.5);
  labrun::SpawnOptions options;
  options.argv = {"sh", "-c", "sleep 1.2; exit 0"};
  options.budget = &budget;
  std::thread pauser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    budget.pause();
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    budget.resume();
  });
  const labrun::ProcessResult waited = labrun::run_contained(options);
  pauser.join();
  CHECK(waited.succeeded());
  // The same wait with the budget running is past the limit.
  labrun::RunBudget running(0.5);
  options.budget = &running;
  const labrun::ProcessResult killed = labrun::run_contained(options);
  CHECK(killed.timed_out);
  CHECK_THAT(killed.describe(), ContainsSubstring("timed out after 1 s"));
}

TEST_CASE("a child's processes past their CPU seconds together are ended, though none passes its own") {
  // Five processes one after another, each ended by its own 1 s of CPU: 5 s in all without the
  // tree's limit of 2 s.
  labrun::SpawnOptions options;
  options.argv = {"sh", "-c", "for i in 1 2 3 4 5; do sh -c 'while :; do :; done'; done; echo all-five-ran"};
  options.limit_seconds = 60.0;
  options.limits.cpu_seconds = 1;
  options.limits.tree_cpu_seconds = 2;
  const labrun::ProcessResult r = labrun::run_contained(options);
  CHECK_FALSE(r.timed_out);
  CHECK(r.signal == SIGXCPU);
  CHECK_THAT(r.output, ContainsSubstring("used 2 s of CPU together"));
  CHECK_THAT(r.output, !ContainsSubstring("all-five-ran"));
}

TEST_CASE("a child past its CPU seconds is ended, however long its wall clock") {
  labrun::SpawnOptions options;
  options.argv = {"sh", "-c", "while :; do :; done"};
  options.limit_seconds = 30.0;
  options.limits.cpu_seconds = 1;
  const labrun::ProcessResult r = labrun::run_contained(options);
  CHECK_FALSE(r.timed_out);
  CHECK(r.signal != 0);
  CHECK(r.wall_seconds < 20.0);
}
