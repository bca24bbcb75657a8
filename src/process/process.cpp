#include "process/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>

#include "base/temporary_files.hpp"
#include "core/wall_clock.hpp"
#include "process/output_capture.hpp"

extern char** environ;

namespace labrun {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds a keeper has to clean up its tree after SIGTERM before it is killed itself.
constexpr double kKeeperGraceSeconds = 5.0;

// SIGINT and SIGTERM while children run: the handler only records the signal; each run loop
// forwards it to its keeper, waits for the tree to go, then ends labrun with the same signal.
std::atomic<int> pending_signal{0};
std::mutex forwarding_mutex;
int children_running = 0;
struct sigaction previous_int {};
struct sigaction previous_term {};

extern "C" void record_signal(int signal_number) {
  pending_signal.store(signal_number);
}

class SignalForwarding {
 public:
  SignalForwarding() {
    const std::lock_guard<std::mutex> lock(forwarding_mutex);
    if (children_running++ == 0) {
      struct sigaction action {};
      action.sa_handler = record_signal;
      sigemptyset(&action.sa_mask);
      ::sigaction(SIGINT, &action, &previous_int);
      ::sigaction(SIGTERM, &action, &previous_term);
    }
  }
  ~SignalForwarding() {
    const std::lock_guard<std::mutex> lock(forwarding_mutex);
    if (--children_running == 0) {
      ::sigaction(SIGINT, &previous_int, nullptr);
      ::sigaction(SIGTERM, &previous_term, nullptr);
    }
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;
};

// Ends labrun with a forwarded signal, as it would have ended without the forwarding: its
// temporary files and scratch folders removed first (base/temporary_files.hpp), as labrun's own
// handlers do.
[[noreturn]] void end_with_signal(int signal_number) {
  end_labrun_with_signal(signal_number);  // after the regions other threads are in (a set placed)
}

class SpawnActions {
 public:
  SpawnActions() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attributes_);
  }
  ~SpawnActions() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attributes_);
  }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t actions_{};
  posix_spawnattr_t attributes_{};
};

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (std::string& s : strings) {
    pointers.push_back(s.data());
  }
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

std::string ProcessResult::describe() const {
  std::ostringstream text;
  if (!started) {
    text << "could not start: " << output;
  } else if (timed_out) {
    text << "timed out after " << std::lround(limit_seconds_spent > 0.0 ? limit_seconds_spent : wall_seconds)
         << " s and was killed";
  } else if (signal != 0) {
    text << "killed by signal " << signal << " (" << strsignal(signal) << ")";
  } else {
    text << "exit status " << exit_code;
  }
  return text.str();
}

RunBudget::RunBudget(double seconds) : limit_(seconds), working_since_(Clock::now()) {}

void RunBudget::pause() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (working_since_) {
    spent_before_ += std::chrono::duration<double>(Clock::now() - *working_since_).count();
    working_since_.reset();
  }
}

void RunBudget::resume() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!working_since_) {
    working_since_ = Clock::now();
  }
}

void RunBudget::cap_remaining(double seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  limit_ = std::min(limit_, spent_locked() + seconds);
}

void RunBudget::set_remaining(double seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  limit_ = spent_locked() + seconds;
}

double RunBudget::spent_locked() const {
  return spent_before_ +
         (working_since_ ? std::chrono::duration<double>(Clock::now() - *working_since_).count() : 0.0);
}

double RunBudget::spent() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return spent_locked();
}

bool RunBudget::exhausted() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return spent_locked() > limit_;
}

double RunBudget::limit() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

std::filesystem::path current_executable() {
  std::error_code error;
  return std::filesystem::read_symlink("/proc/self/exe", error);
}

std::string last_output_line(const std::string& output) {
  const std::size_t end = output.find_last_not_of(" \r\n\t");
  if (end == std::string::npos) {
    return "";
  }
  const std::size_t newline = output.rfind('\n', end);
  const std::size_t start = newline == std::string::npos ? 0 : newline + 1;
  const std::size_t text = output.find_first_not_of(" \t", start);
  return output.substr(text, end - text + 1);
}

std::filesystem::path find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) {
    return {};
  }
  std::istringstream folders(path);
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    std::filesystem::path candidate = std::filesystem::path(folder.empty() ? "." : folder) / program;
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

std::vector<std::string> minimal_environment(const std::vector<std::string>& extra) {
  static constexpr std::array<const char*, 10> kPassed = {"PATH",
                                                          "LD_LIBRARY_PATH",
                                                          "HOME",
                                                          "TMPDIR",
                                                          "LANG",
                                                          "LC_ALL",
                                                          "CUDA_VISIBLE_DEVICES",
                                                          "CUDA_DEVICE_ORDER",
                                                          "PYTHONPATH",
                                                          "MPLCONFIGDIR"};
  std::vector<std::string> environment;
  const auto overridden = [&](const std::string& name) {
    for (const std::string& e : extra) {
      if (e.compare(0, name.size() + 1, name + "=") == 0) {
        return true;
      }
    }
    return false;
  };
  for (const char* name : kPassed) {
    if (const char* value = std::getenv(name); value != nullptr && !overridden(name)) {
      environment.push_back(std::string(name) + "=" + value);
    }
  }
  environment.insert(environment.end(), extra.begin(), extra.end());
  return environment;
}

std::filesystem::path containment_program() {
  if (const char* configured = std::getenv("LABRUN_CONTAIN"); configured != nullptr && *configured != '\0') {
    return configured;
  }
  std::filesystem::path beside = current_executable().parent_path() / "labrun-contain";
  std::error_code error;
  return std::filesystem::exists(beside, error) ? beside : std::filesystem::path();
}

ProcessResult run_contained(const SpawnOptions& options) {
  ProcessResult result;
  if (options.argv.empty()) {
    result.output = "no program given";
    return result;
  }
  const std::filesystem::path keeper_program = containment_program();
  if (keeper_program.empty()) {
    result.output = "labrun-contain, which every child process runs under, is not beside " +
                    current_executable().string() + " (build or install the labrun target set)";
    return result;
  }
  std::vector<std::string> arguments{keeper_program.string(), "--parent", std::to_string(::getpid())};
  const ChildLimits& limits = options.limits;
  if (limits.no_core_dumps) {
    arguments.emplace_back("--no-core");
  }
  for (const auto& [flag, value] :
       {std::pair{"--file-size", limits.file_size_bytes}, std::pair{"--processes", limits.processes},
        std::pair{"--address-space", limits.address_space_bytes},
        std::pair{"--cpu-seconds", limits.cpu_seconds},
        std::pair{"--tree-cpu-seconds", limits.tree_cpu_seconds}}) {
    if (value > 0) {
      arguments.emplace_back(flag);
      arguments.push_back(std::to_string(value));
    }
  }
  arguments.emplace_back("--");
  arguments.insert(arguments.end(), options.argv.begin(), options.argv.end());
  std::vector<std::string> environment = options.environment ? *options.environment : minimal_environment();

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.output = std::strerror(errno);
    return result;
  }
  SpawnActions spawn;
  posix_spawn_file_actions_addopen(&spawn.actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&spawn.actions_, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&spawn.actions_, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclosefrom_np(&spawn.actions_, 3);
  if (!options.working_directory.empty()) {
    posix_spawn_file_actions_addchdir_np(&spawn.actions_, options.working_directory.c_str());
  }
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM}) {
    sigaddset(&defaults, s);
  }
  posix_spawnattr_setsigmask(&spawn.attributes_, &none);
  posix_spawnattr_setsigdefault(&spawn.attributes_, &defaults);
  posix_spawnattr_setpgroup(&spawn.attributes_, 0);
  posix_spawnattr_setflags(&spawn.attributes_,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

  const SignalForwarding forwarding;
  std::vector<char*> argv_pointers = pointers_to(arguments);
  std::vector<char*> environment_pointers = pointers_to(environment);
  const Clock::time_point start = Clock::now();
  pid_t keeper = 0;
  const int spawned = ::posix_spawn(&keeper, keeper_program.c_str(), &spawn.actions_, &spawn.attributes_,
                                    argv_pointers.data(), environment_pointers.data());
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    result.output = "cannot execute " + keeper_program.string() + ": " + std::strerror(spawned);
    return result;
  }
  result.started = true;
  HeadTailBuffer captured(options.output_cap);
  bool pipe_open = true;
  const auto drain = [&](int wait_ms) {
    pollfd readable{pipe_fds[0], POLLIN, 0};
    if (!pipe_open || ::poll(&readable, 1, wait_ms) <= 0) {
      return;
    }
    char buffer[8192];
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got > 0) {
      captured.append(std::string_view(buffer, static_cast<std::size_t>(got)));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      pipe_open = false;
    }
  };

  int status = 0;
  bool ended = false;
  int forwarded = 0;
  std::optional<Clock::time_point> terminated_at;
  while (!ended) {
    drain(20);
    const pid_t done = ::waitpid(keeper, &status, WNOHANG);
    if (done == keeper) {
      ended = true;
      break;
    }
    if (forwarded == 0 && !terminated_at) {
      if (const int s = pending_signal.load(); s != 0) {
        forwarded = s;
        ::kill(keeper, SIGTERM);
        terminated_at = Clock::now();
      } else if (options.budget != nullptr ? options.budget->exhausted()
                                           : seconds_since(start) > options.limit_seconds) {
        result.timed_out = true;
        result.limit_seconds_spent =
            options.budget != nullptr ? options.budget->spent() : seconds_since(start);
        ::kill(keeper, SIGTERM);
        terminated_at = Clock::now();
      }
    }
    if (terminated_at && seconds_since(*terminated_at) > kKeeperGraceSeconds) {
      ::kill(-keeper, SIGKILL);
      ::waitpid(keeper, &status, 0);
      ended = true;
    }
  }
  // The keeper has killed everything below it, so the pipe's last writers are gone.
  const Clock::time_point closing = Clock::now();
  while (pipe_open && seconds_since(closing) < 2.0) {
    drain(50);
  }
  ::close(pipe_fds[0]);
  result.wall_seconds = seconds_since(start);
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.output = captured.text();
  result.output_bytes = captured.total_bytes();
  if (forwarded != 0) {
    end_with_signal(forwarded);
  }
  return result;
}

ProcessResult run_with_limit(const std::vector<std::string>& argv, double limit_seconds,
                             const std::filesystem::path& working_directory, std::size_t output_cap) {
  SpawnOptions options;
  options.argv = argv;
  options.limit_seconds = limit_seconds;
  options.working_directory = working_directory;
  options.output_cap = output_cap;
  return run_contained(options);
}

}  // namespace labrun
