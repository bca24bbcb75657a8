#include "base/temporary_files.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;

namespace {

// Runs `body` in a forked child that has labrun's signal handlers, and returns its wait status.
// The child only makes system calls and ends with _exit (or a signal): nothing of the test
// program's state is used after the fork.
int in_child_with_handlers(const std::function<void()>& body) {
  const pid_t child = ::fork();
  if (child == 0) {
    labrun::remove_temporaries_on_signals();
    body();
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(child > 0);
  REQUIRE(::waitpid(child, &status, 0) == child);
  return status;
}

void write_small_file(const fs::path& file) {
  std::ofstream(file) << "temporary\n";
}

}  // namespace

TEST_CASE("a signal removes every registered temporary and ends with that signal") {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGPIPE, SIGUSR1}) {
    INFO("signal " << signal_number);
    const labrun::testing::TemporaryDirectory dir;
    const fs::path file = dir.path / "aggregate.json.tmp-AbC123";
    const fs::path scratch = dir.path / "labrun-plots-XyZ789";
    const fs::path kept = dir.path / "aggregate.md";  // not registered: never removed
    const int status = in_child_with_handlers([&] {
      write_small_file(file);
      write_small_file(kept);
      fs::create_directories(scratch / "inner");
      write_small_file(scratch / "plots.json");
      write_small_file(scratch / "run.sweep.svg");
      write_small_file(scratch / "inner" / "deeper.svg");
      const labrun::RegisteredTemporary registered_file(file);
      const labrun::RegisteredTemporary registered_scratch(scratch);
      ::raise(signal_number);
      ::_exit(3);  // not reached: the handler ends the child with the signal
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal_number);
    CHECK_FALSE(fs::exists(file));
    CHECK_FALSE(fs::exists(scratch));
    CHECK(fs::exists(kept));
  }
}

TEST_CASE("a temporary no longer registered is left to its owner") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path file = dir.path / "placed.json";
  const int status = in_child_with_handlers([&] {
    write_small_file(file);
    { const labrun::RegisteredTemporary registered(file); }
    ::raise(SIGTERM);
  });
  CHECK(WIFSIGNALED(status));
  CHECK(fs::exists(file));
}

TEST_CASE("a signal waits while a set is placed, then ends labrun") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path file = dir.path / "t.json.tmp-AbC123";
  const fs::path placed_meanwhile = dir.path / "placed-meanwhile";
  const int status = in_child_with_handlers([&] {
    write_small_file(file);
    const labrun::RegisteredTemporary registered(file);
    {
      const labrun::SignalsDeferred placing;
      ::raise(SIGTERM);
      write_small_file(placed_meanwhile);  // the placing goes on to its end
    }
    ::_exit(3);  // not reached: the signal is acted on when the placing ends
  });
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(fs::exists(placed_meanwhile));
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("past the file-size limit a write fails with EFBIG, reported, instead of SIGXFSZ killing labrun") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path target = dir.path / "aggregate.json";
  const int status = in_child_with_handlers([&] {
    struct rlimit small {};
    small.rlim_cur = 4096;
    small.rlim_max = RLIM_INFINITY;
    if (::setrlimit(RLIMIT_FSIZE, &small) != 0) {
      ::_exit(4);
    }
    try {
      labrun::write_file_atomically(target, std::string(1 << 16, 'x'), false);
    } catch (const labrun::WriteError& error) {
      const std::string message = error.what();
      ::_exit(message.find("cannot write " + target.string() + ": File too large") != std::string::npos ? 0
                                                                                                        : 5);
    }
    ::_exit(6);
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(fs::is_empty(dir.path));
}

namespace {

// The step of a file set's life at which the observer raises a signal (1: the first), and the count.
int signal_at_step = 0;
int steps_seen = 0;
int signal_to_raise = SIGINT;

void raise_at_chosen_step(const char* /*step*/) {
  if (++steps_seen == signal_at_step) {
    ::raise(signal_to_raise);
  }
}

std::vector<std::string> names_left_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string text_of_file(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("a signal at every step of a set's life leaves the whole set or none of it, and no temporary") {
  // Each step (a temporary's name registered, the file created, written, the set placing, each target
  // placed, the set placed) gets a signal in a child of its own, until a child passes every step. The
  // window between creating a temporary and registering it is gone: a name is registered before it
  // exists, so no step finds a temporary that a signal would leave behind.
  for (const bool overwrite : {false, true}) {
    bool finished = false;
    for (int step = 1; !finished && step < 64; ++step) {
      INFO((overwrite ? "--force" : "new") << ", signal at step " << step);
      const labrun::testing::TemporaryDirectory dir;
      if (overwrite) {
        write_small_file(dir.path / "a.json");           // replaced by the set
        write_small_file(dir.path / "a.other-lab.csv");  // retired by the set
      }
      signal_at_step = step;
      steps_seen = 0;
      signal_to_raise = step % 2 == 0 ? SIGTERM : SIGINT;
      const int status = in_child_with_handlers([&] {
        labrun::observe_file_steps(raise_at_chosen_step);
        labrun::FileSet set;
        set.add(dir.path / "a.json", "{\"new\": true}\n");
        set.add(dir.path / "a.md", "# new\n");
        set.add(dir.path / "a.lab.csv", "new\n");
        set.retire(dir.path / "a.other-lab.csv");
        set.commit(overwrite);
      });
      finished = WIFEXITED(status);
      if (finished) {
        CHECK(WEXITSTATUS(status) == 0);
      } else {
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == signal_to_raise);
      }
      const std::vector<std::string> left = names_left_in(dir.path);
      const std::vector<std::string> earlier =
          overwrite ? std::vector<std::string>{"a.json", "a.other-lab.csv"} : std::vector<std::string>{};
      CAPTURE(left);
      // Nothing but the whole new set (the earlier files retired or replaced), or the earlier files.
      const bool whole = left == std::vector<std::string>{"a.json", "a.lab.csv", "a.md"} &&
                         text_of_file(dir.path / "a.json") == "{\"new\": true}\n";
      const bool none = left == earlier;
      CHECK((whole || none));
      if (finished) {
        CHECK(whole);
      }
    }
    CHECK(finished);
  }
}
