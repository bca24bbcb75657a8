#pragma once
// Running another program as a contained child process, with a wall-clock limit.
//
// Every child is started with posix_spawn (never fork, which is unsafe once CUDA is initialised)
// through `labrun-contain`, a small trusted program built beside labrun (contain_main.cpp). It
// sets the resource limits, dies with labrun (PR_SET_PDEATHSIG), is the child subreaper of
// everything the program starts, and kills every descendant when the program ends, at a
// time-out, or when labrun is interrupted; so no process labrun started outlives it. While a
// child runs, SIGINT and SIGTERM sent to labrun are forwarded to it: the child's whole tree is
// killed, then labrun ends with the signal.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace labrun {

struct ProcessResult {
  bool started = false;    //!< false when the program could not be executed
  bool timed_out = false;  //!< killed at the limit
  int exit_code = -1;      //!< when it exited normally
  int signal = 0;          //!< when a signal ended it (SIGKILL after a time-out)
  double wall_seconds = 0.0;
  //! Standard output and error together: its first and last bytes when it was longer than the cap
  //! (see SpawnOptions::output_cap), with a line saying how much was left out between them.
  std::string output;
  std::uint64_t output_bytes = 0;  //!< everything the child wrote, kept or not
  //! At a time-out: the seconds of its limit it had spent (less than wall_seconds where it was
  //! paused); 0 otherwise.
  double limit_seconds_spent = 0.0;
  [[nodiscard]] bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  //! "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 30 s and was
  //! killed", "could not start: ..."
  [[nodiscard]] std::string describe() const;
};

//! Resource limits set in the child before the program starts (0: leave the inherited limit).
struct ChildLimits {
  std::uint64_t file_size_bytes = 0;      //!< RLIMIT_FSIZE: the largest file it may write
  std::uint64_t processes = 0;            //!< RLIMIT_NPROC: processes (and threads) of this user
  std::uint64_t address_space_bytes = 0;  //!< RLIMIT_AS (0 for CUDA programs: the driver maps a lot)
  std::uint64_t cpu_seconds = 0;          //!< RLIMIT_CPU: CPU seconds of each process (SIGXCPU ends it)
  //! CPU seconds of the program and everything it starts, together (labrun-contain reads /proc every
  //! 50 ms and ends the whole tree with SIGXCPU past it)
  std::uint64_t tree_cpu_seconds = 0;
  bool no_core_dumps = true;  //!< RLIMIT_CORE = 0
};

//! A wall-clock budget a child spends only while it works: the time it waits for something outside
//! its control (a turn on the GPU, held by other submissions) is not spent. Thread-safe; shared
//! between the thread that runs the child (run_contained) and the one that makes it wait.
class RunBudget {
 public:
  explicit RunBudget(double seconds);
  //! Stops spending (idempotent); resume() starts again.
  void pause();
  void resume();
  //! From now on at most `seconds` more may be spent (a phase with a tighter limit of its own).
  void cap_remaining(double seconds);
  //! From now on exactly `seconds` more may be spent, whatever was left or overspent before (work
  //! that joins a run already under way with a limit of its own: a screening group's next member).
  void set_remaining(double seconds);
  //! Seconds spent so far.
  [[nodiscard]] double spent() const;
  //! Whether the budget is used up.
  [[nodiscard]] bool exhausted() const;
  //! The seconds the child may spend in all (its limit, lowered by cap_remaining).
  [[nodiscard]] double limit() const;

 private:
  using Clock = std::chrono::steady_clock;
  [[nodiscard]] double spent_locked() const;
  mutable std::mutex mutex_;
  double limit_;
  double spent_before_ = 0.0;  // in earlier stretches of work
  std::optional<Clock::time_point> working_since_;
};

struct SpawnOptions {
  std::vector<std::string> argv;  //!< argv[0] is searched on the child's PATH
  double limit_seconds = 60.0;    //!< wall clock; the whole tree is killed at the limit
  //! When given, it replaces limit_seconds: the tree is killed once the budget is exhausted, and
  //! the time it was paused does not count. It must outlive run_contained.
  RunBudget* budget = nullptr;
  std::filesystem::path working_directory;  //!< empty: labrun's own
  //! The child's whole environment, "NAME=value" each; nullopt: minimal_environment().
  std::optional<std::vector<std::string>> environment;
  std::size_t output_cap = 16384;  //!< bytes of output kept: half from the start, half from the end
  ChildLimits limits;
};

//! Runs a program as SpawnOptions says. Standard input is /dev/null; descriptors other than 0, 1
//! and 2 are closed in the child; it runs in its own process group. Never throws for a failure of
//! the child: ProcessResult says what happened.
[[nodiscard]] ProcessResult run_contained(const SpawnOptions& options);

//! run_contained with the default environment and limits.
[[nodiscard]] ProcessResult run_with_limit(const std::vector<std::string>& argv, double limit_seconds,
                                           const std::filesystem::path& working_directory = {},
                                           std::size_t output_cap = 16384);

//! The variables of labrun's own environment that programs need to run and find the GPU (PATH,
//! LD_LIBRARY_PATH, HOME, TMPDIR, LANG, LC_ALL, CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER,
//! PYTHONPATH, MPLCONFIGDIR), each where it is set, plus `extra` ("NAME=value", replacing any of
//! the same name). Nothing else passes.
[[nodiscard]] std::vector<std::string> minimal_environment(const std::vector<std::string>& extra = {});

//! The containment program: $LABRUN_CONTAIN when set, else `labrun-contain` beside the running
//! executable; empty when neither exists.
[[nodiscard]] std::filesystem::path containment_program();

//! The path of the running executable (/proc/self/exe).
[[nodiscard]] std::filesystem::path current_executable();

//! The last non-empty line of a program's output, trimmed (where a tool says why it failed, and
//! where a Python traceback names its error); empty when there is none.
[[nodiscard]] std::string last_output_line(const std::string& output);

//! Finds a program on PATH; empty when absent.
[[nodiscard]] std::filesystem::path find_on_path(const std::string& program);

}  // namespace labrun
