#pragma once
// How labrun hands gradings to a grading worker: one `labrun-grade-child --serve CONTROL` process
// that keeps its CUDA context and grades one submission after another (exercise/worker_pool.hpp
// says when it is reused, and docs/grading.md why that keeps submissions apart). Host logic only,
// so the stand-in child of the scheduler's tests serves the same protocol.
//
// Every file is in the worker's private control folder (mode 0700), written atomically:
//   ready      the worker has its context and waits for work (written once, at start);
//   job.json   labrun: grade the request `request` in the scratch folder `folder` (job `number`);
//              the worker removes it when it takes it;
//   done.json  the worker: job `number` ended with exit status `status` (as the one-shot child's),
//              and its check of its context afterwards (`problem`, empty when it passed);
//   stop       labrun: end after the current job.
// The worker grades each job with its working folder set to the job's scratch folder, so that the
// request's relative names (the image, the results, the phase, "ready-to-time" and "may-time") are
// the one-shot child's. It ends after a job whose status is not 0 or whose check found anything.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace labrun {

inline constexpr const char* kWorkerReadyFile = "ready";
inline constexpr const char* kWorkerJobFile = "job.json";
inline constexpr const char* kWorkerDoneFile = "done.json";
inline constexpr const char* kWorkerStopFile = "stop";

//! Files in a grading's scratch folder (the child's working folder) by which a batch's timing turn
//! (grading/gpu_turns.hpp) is asked for, given and given back:
//!   ready-to-time  the child: the checked calls are over, and everything for timing is allocated;
//!   may-time       labrun: this grading holds the GPU alone (labrun removes any "timed" first);
//!   timed          the child: the timing is over and nothing of this grading is left on the GPU:
//!                  every timed call and its check finished, every byte the child allocated cleared
//!                  and freed, the submission's module unloaded, the context synchronised (and, in
//!                  a worker, the stack size set back). The submission has no host code and its
//!                  code is no longer loaded, so nothing of it can run after this. Its content:
//!                  {"sampling_seconds": S, "preparing_seconds": P, "checking_seconds": K,
//!                  "clearing_seconds": C, "freeing_seconds": F}, what the child measured of the
//!                  turn (TurnSpent).
//!                  A grading worker's turn is given back when it appears (exercise/worker_pool.hpp);
//!                  a one-shot child's when its process has ended, since ending a process destroys
//!                  its context, which is work on the GPU.
inline constexpr const char* kReadyToTimeFile = "ready-to-time";
inline constexpr const char* kMayTimeFile = "may-time";
inline constexpr const char* kTimedFile = "timed";

//! Files in a grading's scratch folder (the child's working folder) by which a checking child gives
//! its shared turn up to a drain (grading/gpu_turns.hpp) between its checked calls, so that timers
//! wait for one call of each checking grading, not for its whole check: labrun creates "yield"
//! while gathered timers wait for the shared turns to end; the child, at its next point between
//! calls (nothing of its own on the GPU), removes it, creates "yielded" and waits for "resume",
//! which labrun creates once it holds a shared turn again (exercise/worker_pool.hpp's CheckTurn).
//! A child that never stops there (a stand-in, or one past its last point) keeps its turn.
inline constexpr const char* kYieldFile = "yield";
inline constexpr const char* kYieldedFile = "yielded";
inline constexpr const char* kResumeFile = "resume";

//! What the child measured of its timing turn, seconds: from "may-time" seen to the last timed
//! call's check (sampling), and of that, what preparing the calls took (fresh inputs, outputs
//! poisoned, the digests before each call, read back) and what checking them took (the digests
//! after, the guards, the exercise's checks, read back); the rest of sampling is the calls
//! themselves, each with its L2 flush, until its end was read. Then the clearing of its memory
//! (written, then synchronised), and the freeing (its memory freed, the module unloaded, the context
//! synchronised) (exercise/child_session.hpp). Each part ends where the child waits for the GPU,
//! so no part holds another's GPU work.
struct TurnSpent {
  double sampling_seconds = 0.0;
  double preparing_seconds = 0.0;
  double checking_seconds = 0.0;
  double clearing_seconds = 0.0;
  double freeing_seconds = 0.0;
};

//! The child: writes kTimedFile in `folder` (whole; its existence is the signal).
void say_timed(const std::filesystem::path& folder, const TurnSpent& spent);
//! labrun: what a kTimedFile at `path` says, when it holds its five finite, non-negative numbers
//! below a day; nullopt otherwise (absent, unreadable, or not such a record). Never throws.
[[nodiscard]] std::optional<TurnSpent> turn_spent(const std::filesystem::path& path);

struct WorkerJob {
  std::uint64_t number = 0;
  std::filesystem::path folder;  //!< absolute: the grading's scratch folder
  std::string request = "request.json";
};

struct WorkerDone {
  std::uint64_t number = 0;
  int status = -1;
  std::string problem;  //!< the worker's context after the job; empty: fit for another
};

//! Writes `job` into `control` for the worker (atomically; replaces nothing the worker has not taken).
void hand_job(const std::filesystem::path& control, const WorkerJob& job);
//! The worker's record of job `number` in `control`, when it has written it. Never throws.
[[nodiscard]] std::optional<WorkerDone> job_done(const std::filesystem::path& control, std::uint64_t number);

//! What a worker does with one request: the one-shot child's work (its exit status), run with the
//! working folder set to the request's folder.
using GradeRequestFile = std::function<int(const std::filesystem::path& request)>;
//! The worker's check of its context after a job: empty when another submission may be graded in it.
using ContextCheck = std::function<std::string()>;

//! The worker's loop in the folder `control`: writes "ready", then grades each job handed to it
//! until "stop" or a job after which it may not go on. Returns 0 when stopped, else the status of
//! the last job (or 1 for a problem its check found). Polls every `poll_seconds`.
int serve_grading_jobs(const std::filesystem::path& control, const GradeRequestFile& grade,
                       const ContextCheck& check, double poll_seconds = 0.0005);

}  // namespace labrun
