// compute-sanitizer's screening of a group on a machine with no GPU: a shell script stands in for
// compute-sanitizer (it runs the program it is given and writes a clean summary to its log), and
// the group's program is the script worker (support/script_worker.hpp), which speaks the protocol
// labrun-grade-child --serve does.

#include "exercise/sanitizer_screen.hpp"

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "grading/gpu_turns.hpp"
#include "support/script_worker.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;

namespace {

// compute-sanitizer's options as the screen passes them, then the program and its arguments; the
// program's status is the run's, and the log's summary says no error.
constexpr const char* kScriptSanitizer = R"script(#!/bin/sh
log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --log-file) log="$2"; shift 2 ;;
    --tool|--error-exitcode|--nvtx|--report-api-errors|--print-limit) shift 2 ;;
    *) break ;;
  esac
done
"$@"
status=$?
echo "========= ERROR SUMMARY: 0 errors" > "$log"
exit $status
)script";

struct Group {
  labrun::testing::TemporaryDirectory work{"labrun-sanitizer-screen"};
  labrun::GpuTurns turns{4};
  std::unique_ptr<labrun::SanitizerScreen> screen;

  // Long enough a window, by default, that a group closes only once full (or told no more come).
  explicit Group(std::size_t members, double window_seconds = 60.0) {
    labrun::testing::write_script_worker(work.path / "worker.sh");
    labrun::write_file_atomically(work.path / "sanitizer.sh", kScriptSanitizer, false);
    fs::permissions(work.path / "sanitizer.sh", fs::perms::owner_all);
    screen = std::make_unique<labrun::SanitizerScreen>(work.path / "sanitizer.sh", work.path / "worker.sh",
                                                       "", &turns, members, window_seconds);
  }
  fs::path member(const std::string& name, const std::string& behaviour) const {
    const fs::path folder = work.path / name;
    fs::create_directories(folder);
    labrun::write_file_atomically(folder / "behaviour", behaviour, false);
    labrun::write_file_atomically(folder / "request-memcheck.json", "{}\n", false);
    return folder / "request-memcheck.json";
  }
  std::future<labrun::ScreenVerdict> screen_member(const fs::path& request, double limit_seconds = 30.0) {
    return std::async(std::launch::async, [this, request, limit_seconds] {
      std::vector<std::pair<std::string, double>> phases;
      return screen->screen("memcheck", request, limit_seconds, phases);
    });
  }
};

bool ran(const fs::path& request) {
  return fs::exists(request.parent_path() / "worker-pid");
}

// The process id of the group's process that ran the member.
std::string process_of(const fs::path& request) {
  return labrun::read_regular_file(request.parent_path() / "worker-pid", 64);
}

// Waits until the member has run (at most `seconds`); says whether it did.
bool runs_within(const fs::path& request, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (ran(request)) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace

TEST_CASE(
    "a group's members run one at a time in one process, and a timer waits for one member, not the group") {
  Group group(3);
  const fs::path a = group.member("a", "slow");
  const fs::path b = group.member("b", "slow");
  const fs::path c = group.member("c", "slow");
  auto first = group.screen_member(a);
  auto second = group.screen_member(b);
  auto third = group.screen_member(c);
  // Once a member runs, a timer asks for the GPU: it gets it before the group's next member starts.
  const fs::path* started = nullptr;
  while (started == nullptr) {
    for (const fs::path* request : {&a, &b, &c}) {
      if (ran(*request)) {
        started = request;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  int ran_while_timing = 0;
  {
    const labrun::ExclusiveTurn timing(&group.turns);
    for (const fs::path* request : {&a, &b, &c}) {
      ran_while_timing += ran(*request) ? 1 : 0;
    }
  }
  CHECK(ran_while_timing == 1);
  for (auto* verdict : {&first, &second, &third}) {
    const labrun::ScreenVerdict got = verdict->get();
    CHECK(got.clean);
    CHECK(got.members == 3);
  }
  CHECK(labrun::read_regular_file(a.parent_path() / "worker-pid", 64) ==
        labrun::read_regular_file(c.parent_path() / "worker-pid", 64));
}

TEST_CASE(
    "a member that stops its group's run clears no one in it, and the members after it go to a new group") {
  Group group(2);
  group.screen->no_more_gradings();  // b's group closes once no one else comes
  const fs::path a = group.member("a", "fail");
  const fs::path b = group.member("b", "");
  auto first = group.screen_member(a);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a joins the queue first
  auto second = group.screen_member(b);
  CHECK_FALSE(first.get().clean);
  const labrun::ScreenVerdict after = second.get();
  CHECK(after.clean);
  CHECK(after.members == 1);
  REQUIRE(ran(a));
  REQUIRE(ran(b));
  CHECK(process_of(a) != process_of(b));
}

TEST_CASE(
    "a group's process starts with its first member, members that ask while it is open join it, "
    "and after the batch's last submission it closes once no member has come for a while") {
  // Eight members at most, open for a minute: only the batch's end closes this group early. A
  // group that gathered its members before starting would not run the first for a minute.
  Group group(8);
  const fs::path a = group.member("a", "");
  const fs::path b = group.member("b", "");
  const auto asked = std::chrono::steady_clock::now();
  auto first = group.screen_member(a);
  CHECK(runs_within(a, 5.0));
  auto second = group.screen_member(b);  // a has run: b joins the open group
  CHECK(runs_within(b, 5.0));
  group.screen->no_more_gradings();
  const labrun::ScreenVerdict got = first.get();
  CHECK(got.clean);
  CHECK(got.members == 2);
  CHECK(second.get().clean);
  CHECK(process_of(a) == process_of(b));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
  CHECK(waited < 10.0 + labrun::SanitizerScreen::kQuietSeconds);
  CHECK(group.screen->describe() ==
        "2 sanitizer runs in 1 groups (at most 2 in one), 0 not clean (their "
        "members checked alone)");
}

TEST_CASE("a group closes at the end of its window: a member that asks later opens the next") {
  Group group(8, 0.5);
  const fs::path a = group.member("a", "");
  const fs::path b = group.member("b", "");
  auto first = group.screen_member(a);
  CHECK(first.get().clean);  // the window closes the group: a's verdict needs no other member
  auto second = group.screen_member(b);
  CHECK(second.get().clean);
  CHECK(process_of(a) != process_of(b));
}

TEST_CASE("after a group that was not clean the tool's next group holds half as many members") {
  Group group(4);
  const fs::path a = group.member("a", "fail");
  CHECK_FALSE(group.screen_member(a).get().clean);
  // Four members now make two groups of two (each slow enough that the others queue behind it).
  std::vector<fs::path> requests;
  std::vector<std::future<labrun::ScreenVerdict>> verdicts;
  for (const char* name : {"c", "d", "e", "f"}) {
    requests.push_back(group.member(name, "slow"));
    verdicts.push_back(group.screen_member(requests.back()));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // they queue in this order
  }
  for (auto& verdict : verdicts) {
    const labrun::ScreenVerdict got = verdict.get();
    CHECK(got.clean);
    CHECK(got.members == 2);
  }
  CHECK(process_of(requests[0]) == process_of(requests[1]));
  CHECK(process_of(requests[2]) == process_of(requests[3]));
  CHECK(process_of(requests[1]) != process_of(requests[2]));
}

TEST_CASE("a member that hangs ends its group at the members' limits, and clears no one") {
  Group group(2);
  const fs::path a = group.member("a", "");
  const fs::path b = group.member("b", "hang");
  auto first = group.screen_member(a, 1.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto second = group.screen_member(b, 1.0);
  const labrun::ScreenVerdict got = second.get();
  CHECK_FALSE(got.clean);
  CHECK_FALSE(first.get().clean);
  CHECK(got.seconds < 2.0 + 5.0);  // the members' two 1 s limits, not a hang's forever
  CHECK(got.members == 2);
}

TEST_CASE(
    "a member that never ends holds its shared turn for its own limit at most, not for the limits of "
    "every member its group took before it") {
  // Five quick members, then one that hangs, each with a limit of 1 s: the group's process has
  // spent almost nothing of the first five's limits when the sixth starts. A timer that asks for
  // the GPU while the sixth runs must wait for the sixth's own limit, never for the unspent time
  // of the members before it (on the H200 a group of 32 members of 60 s could hold up every
  // grading on the GPU for half an hour).
  Group group(8);
  std::vector<fs::path> requests;
  std::vector<std::future<labrun::ScreenVerdict>> verdicts;
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    requests.push_back(group.member(name, ""));
    verdicts.push_back(group.screen_member(requests.back(), 1.0));
    REQUIRE(runs_within(requests.back(), 5.0));
  }
  const fs::path hangs = group.member("h", "hang");
  verdicts.push_back(group.screen_member(hangs, 1.0));
  REQUIRE(runs_within(hangs, 5.0));
  const auto asked = std::chrono::steady_clock::now();
  auto timer = std::async(std::launch::async, [&] { const labrun::ExclusiveTurn timing(&group.turns); });
  // A bounded wait: a timer held up past its bound fails here, whatever the group does after.
  const bool timed = timer.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
  REQUIRE(timed);
  CHECK(waited < 1.0 + 1.5);  // its own 1 s, and the time to end its process
  for (auto& verdict : verdicts) {
    REQUIRE(verdict.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    CHECK_FALSE(verdict.get().clean);
  }
}

// Screens `request` on a thread the test never joins, so that a member that waits for ever fails
// the test at its bounded wait instead of holding it up (its group is then leaked on purpose).
std::future<labrun::ScreenVerdict> screen_detached(labrun::SanitizerScreen& screen, const fs::path& request) {
  auto promise = std::make_shared<std::promise<labrun::ScreenVerdict>>();
  std::future<labrun::ScreenVerdict> verdict = promise->get_future();
  std::thread([&screen, request, promise] {
    try {
      std::vector<std::pair<std::string, double>> phases;
      promise->set_value(screen.screen("memcheck", request, 30.0, phases));
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  }).detach();
  return verdict;
}

TEST_CASE(
    "a group whose run fails inside labrun gives each member a verdict that is not clean, and the next "
    "member opens a new group") {
  // The group's scratch folder cannot be made (TMPDIR names a file): its run fails before its
  // process starts. Its member is then checked alone (not clean), and the tool's queue is free for
  // the next group; no member waits for ever.
  auto group = std::make_unique<Group>(4);
  group->screen->no_more_gradings();
  const fs::path a = group->member("a", "");
  const fs::path b = group->member("b", "");
  const char* before = std::getenv("TMPDIR");
  const std::string saved = before != nullptr ? before : "";
  const fs::path not_a_folder = group->work.path / "not-a-folder";
  labrun::write_file_atomically(not_a_folder, "\n", false);
  ::setenv("TMPDIR", not_a_folder.c_str(), 1);
  auto first = screen_detached(*group->screen, a);
  const bool first_ended = first.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (before != nullptr) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  REQUIRE(first_ended);
  bool threw = false;
  labrun::ScreenVerdict failed;
  try {
    failed = first.get();
  } catch (const std::exception&) {
    threw = true;  // the member's grading would fail with the grader's error
  }
  CHECK_FALSE(threw);
  CHECK_FALSE(failed.clean);
  CHECK(failed.summary.find("cannot create a temporary folder") != std::string::npos);
  auto second = screen_detached(*group->screen, b);
  const bool second_ended = second.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (!second_ended) {
    static_cast<void>(group.release());  // its member waits for ever: leave it alive
  }
  REQUIRE(second_ended);
  CHECK(second.get().clean);
  CHECK(ran(b));
}
