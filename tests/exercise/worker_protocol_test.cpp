#include "exercise/worker_protocol.hpp"

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;

namespace {

// Waits (at most 10 s) for the worker's record of job `number`.
std::optional<labrun::WorkerDone> wait_done(const fs::path& control, std::uint64_t number) {
  for (int i = 0; i < 10000; ++i) {
    if (auto done = labrun::job_done(control, number)) {
      return done;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("a worker grades each job in its own folder, one after another, until told to stop") {
  const labrun::testing::TemporaryDirectory work("labrun-worker-protocol");
  const fs::path control = work.path / "control";
  fs::create_directories(control);
  for (const char* job : {"one", "two"}) {
    fs::create_directories(work.path / job);
    labrun::write_file_atomically(work.path / job / "request.json", job, false);
  }
  std::vector<std::string> graded;  // what each job read, from the working folder it ran in
  int checks = 0;
  auto serving = std::async(std::launch::async, [&] {
    return labrun::serve_grading_jobs(
        control,
        [&](const fs::path& request) {
          graded.push_back(labrun::read_regular_file(request, 64) + " in " +
                           fs::current_path().filename().string());
          return 0;
        },
        [&] {
          ++checks;
          return std::string();
        });
  });
  const fs::path before = fs::current_path();
  labrun::hand_job(control, {1, work.path / "one", "request.json"});
  const auto first = wait_done(control, 1);
  REQUIRE(first);
  CHECK(first->status == 0);
  CHECK(first->problem.empty());
  CHECK_FALSE(labrun::job_done(control, 2));  // the record of job 1 is not job 2's
  labrun::hand_job(control, {2, work.path / "two", "request.json"});
  REQUIRE(wait_done(control, 2));
  labrun::write_file_atomically(control / labrun::kWorkerStopFile, "\n", true);
  CHECK(serving.get() == 0);
  CHECK(fs::exists(control / labrun::kWorkerReadyFile));
  CHECK(graded == std::vector<std::string>{"one in one", "two in two"});
  CHECK(checks == 2);
  CHECK(fs::current_path() == before);
}

TEST_CASE("a worker ends after a job that stopped, or after which its context is unfit") {
  const labrun::testing::TemporaryDirectory work("labrun-worker-protocol");
  const fs::path control = work.path / "control";
  fs::create_directories(control);
  fs::create_directories(work.path / "job");
  SECTION("a job that stopped") {
    auto serving = std::async(std::launch::async, [&] {
      return labrun::serve_grading_jobs(
          control, [](const fs::path&) { return 3; }, [] { return std::string("never asked"); });
    });
    labrun::hand_job(control, {1, work.path / "job", "request.json"});
    CHECK(serving.get() == 3);
    const auto done = labrun::job_done(control, 1);
    REQUIRE(done);
    CHECK(done->status == 3);
    CHECK(done->problem.empty());  // not asked: the worker ends anyway
  }
  SECTION("a context left unfit") {
    auto serving = std::async(std::launch::async, [&] {
      return labrun::serve_grading_jobs(
          control, [](const fs::path&) { return 0; }, [] { return std::string("an error pending"); });
    });
    labrun::hand_job(control, {1, work.path / "job", "request.json"});
    CHECK(serving.get() == 1);
    const auto done = labrun::job_done(control, 1);
    REQUIRE(done);
    CHECK(done->status == 0);
    CHECK(done->problem == "an error pending");
  }
}

TEST_CASE("the child's word that it has timed is read back, and anything else is no such word") {
  const labrun::testing::TemporaryDirectory work("labrun-worker-protocol");
  labrun::say_timed(work.path, labrun::TurnSpent{0.25, 0.05, 0.12, 0.004, 0.03});
  const std::optional<labrun::TurnSpent> spent = labrun::turn_spent(work.path / labrun::kTimedFile);
  REQUIRE(spent);
  CHECK(spent->sampling_seconds == 0.25);
  CHECK(spent->preparing_seconds == 0.05);
  CHECK(spent->checking_seconds == 0.12);
  CHECK(spent->clearing_seconds == 0.004);
  CHECK(spent->freeing_seconds == 0.03);
  CHECK_FALSE(labrun::turn_spent(work.path / "absent"));
  const auto record_with = [](const char* sampling, const char* preparing, const char* clearing) {
    return std::string(R"({"sampling_seconds": )") + sampling + R"(, "preparing_seconds": )" + preparing +
           R"(, "checking_seconds": 0, "clearing_seconds": )" + clearing + R"(, "freeing_seconds": 0})";
  };
  CHECK(labrun::turn_spent([&] {
    labrun::write_file_atomically(work.path / "record", record_with("0.1", "0", "0"), true);
    return work.path / "record";
  }()));
  for (const std::string& record :
       {std::string(), std::string("{}"), std::string("not json"), record_with("-1", "0", "0"),
        record_with("0.1", "0", R"("nan")"), record_with("1e300", "0", "0"), record_with("0.1", "-0.5", "0"),
        std::string(R"({"sampling_seconds": 0.1, "clearing_seconds": 0, "freeing_seconds": 0})"),
        std::string("[0.1, 0.0]")}) {
    INFO(record);
    labrun::write_file_atomically(work.path / "record", record, true);
    CHECK_FALSE(labrun::turn_spent(work.path / "record"));
  }
}
