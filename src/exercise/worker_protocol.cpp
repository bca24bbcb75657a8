#include "exercise/worker_protocol.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <system_error>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "base/json_parse.hpp"

namespace labrun {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kControlFileMaxBytes = std::size_t{64} * 1024;

// Runs `grade` on `request` with the working folder set to the request's folder, and back.
int grade_in_folder(const fs::path& request, const GradeRequestFile& grade) {
  const fs::path home = fs::current_path();
  if (::chdir(request.parent_path().c_str()) != 0) {
    return 1;
  }
  int status = 1;
  try {
    status = grade(request.filename());
  } catch (const std::exception&) {
    status = 1;
  }
  if (::chdir(home.c_str()) != 0) {
    return 1;
  }
  return status;
}

std::optional<WorkerJob> take_job(const fs::path& control) {
  std::error_code missing;
  if (!fs::exists(control / kWorkerJobFile, missing)) {
    return std::nullopt;
  }
  WorkerJob job;
  try {
    const nlohmann::ordered_json document = read_json_file(control / kWorkerJobFile, kControlFileMaxBytes);
    job.number = document.at("number").get<std::uint64_t>();
    job.folder = document.at("folder").get<std::string>();
    job.request = document.at("request").get<std::string>();
  } catch (const std::exception&) {
    return std::nullopt;  // being written: written atomically, so read again
  }
  fs::remove(control / kWorkerJobFile, missing);
  return job;
}

}  // namespace

void say_timed(const fs::path& folder, const TurnSpent& spent) {
  const nlohmann::ordered_json document{{"sampling_seconds", spent.sampling_seconds},
                                        {"preparing_seconds", spent.preparing_seconds},
                                        {"checking_seconds", spent.checking_seconds},
                                        {"clearing_seconds", spent.clearing_seconds},
                                        {"freeing_seconds", spent.freeing_seconds}};
  write_file_whole_unsynced(folder / kTimedFile, document.dump() + "\n");
}

std::optional<TurnSpent> turn_spent(const fs::path& path) {
  constexpr double kDaySeconds = 86400.0;
  try {
    const nlohmann::ordered_json document = read_json_file(path, kControlFileMaxBytes);
    TurnSpent spent;
    spent.sampling_seconds = document.at("sampling_seconds").get<double>();
    spent.preparing_seconds = document.at("preparing_seconds").get<double>();
    spent.checking_seconds = document.at("checking_seconds").get<double>();
    spent.clearing_seconds = document.at("clearing_seconds").get<double>();
    spent.freeing_seconds = document.at("freeing_seconds").get<double>();
    for (const double seconds : {spent.sampling_seconds, spent.preparing_seconds, spent.checking_seconds,
                                 spent.clearing_seconds, spent.freeing_seconds}) {
      if (!std::isfinite(seconds) || seconds < 0.0 || seconds > kDaySeconds) {
        return std::nullopt;
      }
    }
    return spent;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void hand_job(const fs::path& control, const WorkerJob& job) {
  const nlohmann::ordered_json document{
      {"number", job.number}, {"folder", job.folder.string()}, {"request", job.request}};
  write_file_whole_unsynced(control / kWorkerJobFile, document.dump() + "\n");
}

std::optional<WorkerDone> job_done(const fs::path& control, std::uint64_t number) {
  std::error_code missing;
  if (!fs::exists(control / kWorkerDoneFile, missing)) {
    return std::nullopt;
  }
  try {
    const nlohmann::ordered_json document = read_json_file(control / kWorkerDoneFile, kControlFileMaxBytes);
    WorkerDone done;
    done.number = document.at("number").get<std::uint64_t>();
    done.status = document.at("status").get<int>();
    done.problem = document.at("problem").get<std::string>();
    if (done.number != number) {
      return std::nullopt;
    }
    return done;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

int serve_grading_jobs(const fs::path& control, const GradeRequestFile& grade, const ContextCheck& check,
                       double poll_seconds) {
  write_file_whole_unsynced(control / kWorkerReadyFile, "\n");
  const auto poll = std::chrono::duration<double>(poll_seconds);
  std::error_code missing;
  while (!fs::exists(control / kWorkerStopFile, missing)) {
    const std::optional<WorkerJob> job = take_job(control);
    if (!job) {
      std::this_thread::sleep_for(poll);
      continue;
    }
    WorkerDone done;
    done.number = job->number;
    done.status = grade_in_folder(job->folder / job->request, grade);
    done.problem = done.status == 0 ? check() : std::string();
    const nlohmann::ordered_json document{
        {"number", done.number}, {"status", done.status}, {"problem", done.problem}};
    write_file_whole_unsynced(control / kWorkerDoneFile, document.dump() + "\n");
    if (done.status != 0) {
      return done.status;
    }
    if (!done.problem.empty()) {
      return 1;
    }
  }
  return 0;
}

}  // namespace labrun
