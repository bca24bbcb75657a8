// The grading workers' pool on a machine with no GPU: a shell script speaks the worker protocol
// as labrun-grade-child --serve does (support/script_worker.hpp).

#include "exercise/worker_pool.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <future>
#include <regex>
#include <sstream>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "support/script_worker.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;

namespace {

struct Fixture {
  labrun::testing::TemporaryDirectory work{"labrun-worker-pool"};
  fs::path program = work.path / "worker.sh";
  Fixture() { labrun::testing::write_script_worker(program); }
  fs::path job(const std::string& name, const std::string& behaviour = "") const {
    const fs::path folder = work.path / name;
    fs::create_directories(folder);
    if (!behaviour.empty()) {
      labrun::write_file_atomically(folder / "behaviour", behaviour, false);
    }
    return folder;
  }
};

// A pool of script workers (with `turns`, as in a batch) and the phases its runs append to.
struct Pool : Fixture {
  explicit Pool(labrun::GpuTurns* turns = nullptr) : workers(program, "", turns) {}
  std::unique_ptr<labrun::GradingWorker> take() {
    auto worker = workers.take(phases);
    REQUIRE(worker != nullptr);
    return worker;
  }
  labrun::GradingWorkers workers;
  std::vector<std::pair<std::string, double>> phases;
};

std::string worker_of(const fs::path& job) {
  return labrun::read_regular_file(job / "worker-pid", 64);
}

}  // namespace

TEST_CASE("a worker given back after a clean grading grades the next submission; a retired one does not") {
  Pool pool;
  auto worker = pool.take();
  const fs::path first = pool.job("first");
  const labrun::WorkerRun run = pool.workers.run(*worker, first, 30.0, 15.0, pool.phases);
  CHECK(run.answered);
  CHECK(run.child.succeeded());
  pool.workers.give_back(std::move(worker), std::nullopt);

  auto again = pool.take();
  const fs::path second = pool.job("second");
  CHECK(pool.workers.run(*again, second, 30.0, 15.0, pool.phases).answered);
  CHECK(worker_of(first) == worker_of(second));
  pool.workers.give_back(std::move(again), std::string("the image calls the driver's malloc"));

  auto fresh = pool.take();
  const fs::path third = pool.job("third");
  CHECK(pool.workers.run(*fresh, third, 30.0, 15.0, pool.phases).answered);
  CHECK(worker_of(third) != worker_of(second));
  pool.workers.give_back(std::move(fresh), std::nullopt);
  CHECK_THAT(pool.workers.describe(), ContainsSubstring("3 gradings in 2 workers"));
  CHECK_THAT(pool.workers.describe(), ContainsSubstring("1 retired: the image calls the driver's malloc"));
}

TEST_CASE("no more workers are alive than the pool may have: a grading waits for one given back or ended") {
  Fixture fixture;
  labrun::GradingWorkers workers(fixture.program, "", nullptr, 1);
  std::vector<std::pair<std::string, double>> phases;
  auto first = workers.take(phases);
  REQUIRE(first != nullptr);
  CHECK(workers.run(*first, fixture.job("first"), 30.0, 15.0, phases).answered);

  // A second grading finds the one place taken: it waits until the worker is given back, and gets it.
  std::vector<std::pair<std::string, double>> second_phases;
  auto second = std::async(std::launch::async, [&] { return workers.take(second_phases); });
  CHECK(second.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
  workers.give_back(std::move(first), std::nullopt);
  auto reused = second.get();
  REQUIRE(reused != nullptr);
  CHECK(workers.run(*reused, fixture.job("second"), 30.0, 15.0, second_phases).answered);
  CHECK(worker_of(fixture.job("first")) == worker_of(fixture.job("second")));
  REQUIRE(second_phases.front().first == "waiting for a worker");
  CHECK(second_phases.front().second >= 0.25);

  // A worker that goes without being given back (an exception on the grading's path) frees its place.
  std::vector<std::pair<std::string, double>> third_phases;
  auto third = std::async(std::launch::async, [&] { return workers.take(third_phases); });
  CHECK(third.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
  reused.reset();
  auto fresh = third.get();
  REQUIRE(fresh != nullptr);
  CHECK(workers.run(*fresh, fixture.job("third"), 30.0, 15.0, third_phases).answered);
  CHECK(worker_of(fixture.job("third")) != worker_of(fixture.job("second")));
  workers.give_back(std::move(fresh), std::nullopt);
  CHECK_THAT(workers.describe(), ContainsSubstring("in 2 workers"));
}

TEST_CASE("a grading past its limit in a worker ends the worker and says it timed out") {
  Pool pool;
  auto worker = pool.take();
  const labrun::WorkerRun run = pool.workers.run(*worker, pool.job("hangs", "hang"), 0.5, 15.0, pool.phases);
  CHECK_FALSE(run.answered);
  CHECK(run.child.timed_out);
  CHECK(run.child.limit_seconds_spent < 5.0);  // the grading's own budget, not the worker's life
  CHECK(worker->ended());
  pool.workers.give_back(std::move(worker), std::string("the worker ended or was ended during the grading"));
}

TEST_CASE("a worker that ends itself gives the grading's status, as a one-shot child would") {
  Pool pool;
  auto worker = pool.take();
  const labrun::WorkerRun run = pool.workers.run(*worker, pool.job("fails", "fail"), 30.0, 15.0, pool.phases);
  CHECK(run.child.exit_code == 3);
  CHECK_FALSE(run.child.succeeded());
  pool.workers.give_back(std::move(worker), std::string("the grading stopped (status 3)"));
}

TEST_CASE("in a batch, a worker's grading times only with the GPU to itself, and waiting is not its time") {
  labrun::GpuTurns turns(2);
  Pool pool(&turns);
  auto worker = pool.take();
  // Another grading holds a shared turn for 0.6 s: the timer waits for it, on no budget of its own.
  std::thread other([&] {
    const labrun::SharedTurn shared(&turns);
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const labrun::WorkerRun run = pool.workers.run(*worker, pool.job("times", "time"), 0.4, 15.0, pool.phases);
  other.join();
  CHECK(run.answered);
  CHECK(run.child.succeeded());
  std::vector<std::string> names;
  for (const auto& [name, seconds] : pool.phases) {
    names.push_back(name);
  }
  CHECK(std::find(names.begin(), names.end(), "waiting to time") != names.end());
  CHECK(names.back() == "timing");
  pool.workers.give_back(std::move(worker), std::nullopt);
}

namespace {

// The seconds of each phase named `name` in `phases`, in order.
std::vector<double> phase_seconds(const std::vector<std::pair<std::string, double>>& phases,
                                  const std::string& name) {
  std::vector<double> seconds;
  for (const auto& [phase, spent] : phases) {
    if (phase == name) {
      seconds.push_back(spent);
    }
  }
  return seconds;
}

// Runs `job` in a fresh worker of `pool` on another thread; once the grading holds its exclusive
// turn, asks for one itself, and returns the seconds from asking to getting it, and whether the
// grading's run had returned by then.
struct NextTimer {
  double waited = 0.0;
  bool run_over_first = false;
};
NextTimer time_behind(Pool& pool, labrun::GpuTurns& turns, const std::string& behaviour, double timing_limit,
                      labrun::WorkerRun& run) {
  auto worker = pool.take();
  const fs::path job = pool.job(behaviour, behaviour);
  std::atomic<bool> over{false};
  std::thread grading([&] {
    run = pool.workers.run(*worker, job, 30.0, timing_limit, pool.phases);
    over = true;
  });
  std::error_code missing;
  while (!fs::exists(job / "may-time", missing)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  NextTimer next;
  const auto asked = std::chrono::steady_clock::now();
  {
    const labrun::ExclusiveTurn timing(&turns);
    next.waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    next.run_over_first = over;
  }
  grading.join();
  pool.workers.give_back(std::move(worker), run.child.succeeded() && run.answered
                                                ? std::nullopt
                                                : std::optional<std::string>("the worker ended"));
  return next;
}

}  // namespace

TEST_CASE("a worker's timing turn is given back when it says it has timed, before its grading is over") {
  labrun::GpuTurns turns(2);
  Pool pool(&turns);
  labrun::WorkerRun run;
  const NextTimer next = time_behind(pool, turns, "time-then-finish", 15.0, run);
  CHECK(run.answered);
  CHECK(run.child.succeeded());
  // The next timer got the GPU once "timed" appeared (0.1 s in), not when the grading ended (0.6 s).
  CHECK(next.waited < 0.45);
  CHECK_FALSE(next.run_over_first);
  REQUIRE(phase_seconds(pool.phases, "timing").size() == 1);
  CHECK(phase_seconds(pool.phases, "timing")[0] < 0.45);
  CHECK(phase_seconds(pool.phases, "timing: sampling") == std::vector<double>{0.1});
  CHECK(phase_seconds(pool.phases, "timing: sampling: preparing the calls") == std::vector<double>{0.03});
  CHECK(phase_seconds(pool.phases, "timing: sampling: checking the calls") == std::vector<double>{0.05});
  CHECK(phase_seconds(pool.phases, "timing: clearing the GPU's memory") == std::vector<double>{0.01});
  CHECK(phase_seconds(pool.phases, "timing: freeing the GPU's memory") == std::vector<double>{0.02});
  REQUIRE(phase_seconds(pool.phases, "finishing after timing").size() == 1);
  CHECK(phase_seconds(pool.phases, "finishing after timing")[0] >= 0.4);
  CHECK(pool.phases.back().first == "finishing after timing");
}

TEST_CASE("a worker that says it has timed and finishes at once is still taken at its word") {
  // The child writes "timed", then its answer: where labrun sees both in one look, the turn's parts
  // are still the child's, and the rest is finishing after timing. Repeated, since labrun sees them
  // apart too.
  for (int attempt = 0; attempt < 5; ++attempt) {
    labrun::GpuTurns turns(2);
    Pool pool(&turns);
    labrun::WorkerRun run;
    static_cast<void>(time_behind(pool, turns, "timed-then-done", 15.0, run));
    INFO("attempt " << attempt);
    CHECK(run.answered);
    CHECK(run.child.succeeded());
    CHECK(phase_seconds(pool.phases, "timing").size() == 1);
    CHECK(phase_seconds(pool.phases, "timing: sampling") == std::vector<double>{0.1});
    CHECK(phase_seconds(pool.phases, "finishing after timing").size() == 1);
    CHECK(pool.phases.back().first == "finishing after timing");
  }
}

TEST_CASE("a \"timed\" written before the timing turn was given does not give it back") {
  labrun::GpuTurns turns(2);
  Pool pool(&turns);
  labrun::WorkerRun run;
  const NextTimer next = time_behind(pool, turns, "timed-early", 15.0, run);
  CHECK(run.child.succeeded());
  // The turn was held until the grading was over (0.3 s of timing after "may-time"). Whether the run
  // had returned when the next timer got the turn is not asked: the turn goes as the run returns,
  // before its thread can say so.
  CHECK(next.waited >= 0.25);
  CHECK(pool.phases.back().first == "timing");
  CHECK(phase_seconds(pool.phases, "finishing after timing").empty());
}

TEST_CASE("a worker that says it has timed and then never ends is ended at the timing turn's limit") {
  labrun::GpuTurns turns(2);
  Pool pool(&turns);
  labrun::WorkerRun run;
  const NextTimer next = time_behind(pool, turns, "timed-then-hang", 0.8, run);
  // The GPU went to the next timer at once; the grading was still held to the turn's limit.
  CHECK_FALSE(next.run_over_first);
  CHECK(next.waited < 0.5);
  CHECK_FALSE(run.answered);
  CHECK(run.child.timed_out);
  CHECK(phase_seconds(pool.phases, "timing").size() == 1);
  REQUIRE(phase_seconds(pool.phases, "finishing after timing").size() == 1);
  CHECK(phase_seconds(pool.phases, "timing")[0] + phase_seconds(pool.phases, "finishing after timing")[0] <
        5.0);
}

TEST_CASE(
    "a checking grading gives its shared turn up to a drain between its calls, and takes it back after") {
  labrun::GpuTurns turns(2);  // a timer starts a drain at once
  Pool pool(&turns);
  auto worker = pool.take();
  const fs::path job = pool.job("checks", "check");
  const auto steps = [&] {
    std::error_code missing;
    return fs::exists(job / "steps", missing) ? labrun::read_regular_file(job / "steps", 4096).size() / 5 : 0;
  };
  auto checking =
      std::async(std::launch::async, [&] { return pool.workers.run(*worker, job, 60.0, 15.0, pool.phases); });
  while (steps() < 5) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // A timer asks for the GPU while the grading checks (150 steps, more than 1.5 s): it waits for
  // one step and the hand-over, and no step runs while it holds the GPU.
  const auto asked = std::chrono::steady_clock::now();
  double waited = 0.0;
  std::size_t steps_at_start = 0;
  std::size_t steps_at_end = 0;
  {
    const labrun::ExclusiveTurn timing(&turns);
    waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    steps_at_start = steps();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    steps_at_end = steps();
  }
  const labrun::WorkerRun run = checking.get();
  CHECK(run.child.succeeded());
  CHECK(waited < 0.75);
  CHECK(steps_at_start < 150);
  CHECK(steps_at_end == steps_at_start);
  CHECK(steps() == 150);
  double yielded = 0.0;
  for (const auto& [name, seconds] : pool.phases) {
    if (name == "waiting while timers time") {
      yielded += seconds;
    }
  }
  CHECK(yielded >= 0.2);
  CHECK(turns.time_by_state().yields >= 1);
  pool.workers.give_back(std::move(worker), std::nullopt);
}

TEST_CASE("the grading child's own device code keeps no variables that could outlive a grading in a worker") {
  // A worker's context outlives each grading, and the child's own modules stay loaded in it: a
  // __device__, __constant__ or __managed__ variable of theirs would be state one submission's
  // kernels could reach and the next grading would read. Every piece of device state the child
  // uses is allocated per grading instead (docs/grading.md, threat model, point 12).
  const std::regex variable(R"(^\s*(static\s+)?(__device__|__constant__|__managed__)[^(]*$)");
  std::vector<std::string> found;
  for (const char* folder : {"src", "labs"}) {
    for (const auto& entry : fs::recursive_directory_iterator(labrun::testing::repository_root() / folder)) {
      const std::string path = entry.path().string();
      const std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".cu" && extension != ".cuh") ||
          path.find("/corpus/") != std::string::npos || path.find("/skeleton") != std::string::npos) {
        continue;
      }
      std::istringstream lines(labrun::read_regular_file(entry.path(), std::size_t{1} << 22));
      std::string line;
      for (int number = 1; std::getline(lines, line); ++number) {
        if (std::regex_search(line, variable)) {
          found.push_back(path + ":" + std::to_string(number) + ": " + line);
        }
      }
    }
  }
  INFO((found.empty() ? std::string() : found.front()));
  CHECK(found.empty());
}
