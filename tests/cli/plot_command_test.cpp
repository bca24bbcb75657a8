#include "cli/plot_command.hpp"

#include <signal.h>
#include <spawn.h>
#include <stdlib.h>  // setenv, unsetenv
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "base/atomic_file.hpp"
#include "cli/exit_codes.hpp"
#include "process/process.hpp"
#include "support/child_labrun.hpp"
#include "support/cli_run.hpp"
#include "support/scoped_environment.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// A committed day-48 H200 run, copied into `dir` without the Markdown and plots beside it.
fs::path copied_day48_run(const fs::path& dir) {
  const fs::path source =
      labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-11-30T04-52-52Z.json.gz";
  const fs::path copy = dir / "run.json.gz";
  fs::copy_file(source, copy);
  return copy;
}

bool python3_exists() {
  return !labrun::find_on_path("python3").empty() || fs::exists("/usr/bin/python3");
}

std::vector<std::string> scratch_folders(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("labrun-plots-", 0) == 0) {
      found.push_back(entry.path().string());
    }
  }
  return found;
}

// Starts `labrun plot FILE` with a stand-in Python that says it started and then waits, sends
// `signal_number` once it has started, and returns labrun's wait status. `temporary` is labrun's
// TMPDIR, where the scratch folder goes.
int signal_while_rendering(int signal_number, const fs::path& transcript, const fs::path& temporary) {
  const fs::path python = temporary.parent_path() / "slow-python3";
  const fs::path started = temporary.parent_path() / "renderer-started";
  labrun::write_file_atomically(python, "#!/bin/sh\ntouch '" + started.string() + "'\nexec sleep 60\n", true);
  fs::permissions(python, fs::perms::owner_all);
  std::vector<std::string> environment{"PATH=" + std::string(std::getenv("PATH") ? std::getenv("PATH") : ""),
                                       "TMPDIR=" + temporary.string(), "LABRUN_PYTHON=" + python.string()};
  std::vector<std::string> arguments{labrun::testing::labrun_program().string(), "plot", transcript.string(),
                                     "--force"};
  const auto pointers = [](std::vector<std::string>& strings) {
    std::vector<char*> list;
    for (std::string& s : strings) {
      list.push_back(s.data());
    }
    list.push_back(nullptr);
    return list;
  };
  std::vector<char*> argv = pointers(arguments);
  std::vector<char*> envp = pointers(environment);
  pid_t child = 0;
  REQUIRE(::posix_spawn(&child, argv[0], nullptr, nullptr, argv.data(), envp.data()) == 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(started) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(fs::exists(started));
  CHECK(scratch_folders(temporary).size() == 1);  // it is there while the renderer runs
  ::kill(child, signal_number);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return status;
}

// signal_while_rendering, then labrun must have ended with the signal, leaving no scratch folder
// and no Markdown.
void check_no_scratch_folder_after(int signal_number) {
  INFO("signal " << signal_number);
  const labrun::testing::TemporaryDirectory dir;
  const fs::path temporary = dir.path / "tmp";
  fs::create_directories(temporary);
  const int status = signal_while_rendering(signal_number, copied_day48_run(dir.path), temporary);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == signal_number);
  CHECK(scratch_folders(temporary).empty());
  CHECK_FALSE(fs::exists(dir.path / "run.md"));
}

}  // namespace

TEST_CASE("plot never writes the Markdown without --force, even when it is missing") {
  if (!python3_exists()) {
    SKIP("no python3 to run a stand-in renderer");
  }
  const labrun::testing::TemporaryDirectory dir;
  labrun::testing::write_stand_in_renderer(dir.path / "scripts", 16);
  const labrun::testing::ScopedEnvironment scripts("LABRUN_SCRIPTS_DIR", (dir.path / "scripts").string());
  const fs::path transcript = copied_day48_run(dir.path);
  const fs::path markdown = dir.path / "run.md";
  const labrun::testing::CliOutcome plotted = labrun::testing::run_labrun({"plot", transcript.string()});
  CHECK(plotted.status == 0);
  CHECK_THAT(plotted.out, ContainsSubstring("run.sweep.svg"));
  CHECK_FALSE(fs::exists(markdown));
  CHECK_THAT(plotted.err,
             ContainsSubstring(markdown.string() + " does not exist; pass --force to render it"));
  const labrun::testing::CliOutcome forced =
      labrun::testing::run_labrun({"plot", transcript.string(), "--force"});
  CHECK(forced.status == 0);
  REQUIRE(fs::exists(markdown));
  CHECK_THAT(labrun::read_file(markdown), ContainsSubstring("](run.sweep.svg)"));
  CHECK(labrun::testing::run_labrun({"report", transcript.string()}).out == labrun::read_file(markdown));
  // Without --force, the plots that exist now are refused before anything is drawn.
  CHECK(labrun::testing::run_labrun({"plot", transcript.string()}).status == labrun::exit_code::kFileExists);
}

TEST_CASE("a signal while labrun waits for the plot renderer leaves no scratch folder") {
  // SIGINT and SIGTERM are taken over by the forwarding of process/ while a child runs: see the
  // hidden test below.
  for (const int signal_number : {SIGHUP, SIGALRM}) {
    check_no_scratch_folder_after(signal_number);
  }
}

// process/'s forwarding takes SIGINT and SIGTERM over while a child runs; it removes the temporaries
// before it ends labrun with the signal it forwarded.
TEST_CASE("SIGINT and SIGTERM while labrun waits for the plot renderer leave no scratch folder") {
  for (const int signal_number : {SIGINT, SIGTERM}) {
    check_no_scratch_folder_after(signal_number);
  }
}
