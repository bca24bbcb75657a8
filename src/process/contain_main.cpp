// labrun-contain: starts one program under the containment labrun promises (process.hpp) and
// stays beside it as its keeper.
//
//   labrun-contain --parent PID [--file-size BYTES] [--processes N] [--address-space BYTES]
//                  [--cpu-seconds S] [--tree-cpu-seconds S] [--no-core] -- PROGRAM [ARGS...]
//
// It dies with labrun: PR_SET_PDEATHSIG delivers SIGTERM when labrun ends, however it ends.
// It is the child subreaper of everything PROGRAM starts, so a descendant that calls setsid or
// loses its parent comes back to it rather than to init. When PROGRAM ends, or on SIGTERM,
// SIGINT or SIGHUP (a time-out or an interrupted labrun), it kills every descendant, reaps them,
// and exits as PROGRAM did: the same exit status, or the same signal.
// --cpu-seconds limits each process (RLIMIT_CPU); --tree-cpu-seconds limits PROGRAM and everything it
// starts together: past it (read from /proc every 50 ms once the tree could have reached it, so it may
// be passed by that much per running process) the keeper kills every descendant and ends with SIGXCPU, as a
// process past its own RLIMIT_CPU does. A compiler's stages each get their own RLIMIT_CPU, so only the sum
// bounds a compile. Exit status 125: labrun-contain's own usage error or labrun already gone; 127: PROGRAM
// could not be executed (a line on standard error says why).

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "process/process_tree.hpp"

namespace {

constexpr int kUsage = 125;

struct Request {
  pid_t parent = 0;
  std::uint64_t file_size = 0;
  std::uint64_t processes = 0;
  std::uint64_t address_space = 0;
  std::uint64_t cpu_seconds = 0;
  std::uint64_t tree_cpu_seconds = 0;
  bool no_core = false;
  std::vector<char*> program;  // null-terminated
};

bool parse_number(const char* text, std::uint64_t& value) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long parsed = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') {
    return false;
  }
  value = parsed;
  return true;
}

bool parse(int argc, char** argv, Request& request) {
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--no-core") {
      request.no_core = true;
      continue;
    }
    if (i + 1 >= argc) {
      return false;
    }
    std::uint64_t value = 0;
    if (!parse_number(argv[++i], value)) {
      return false;
    }
    if (arg == "--parent") {
      request.parent = static_cast<pid_t>(value);
    } else if (arg == "--file-size") {
      request.file_size = value;
    } else if (arg == "--processes") {
      request.processes = value;
    } else if (arg == "--address-space") {
      request.address_space = value;
    } else if (arg == "--cpu-seconds") {
      request.cpu_seconds = value;
    } else if (arg == "--tree-cpu-seconds") {
      request.tree_cpu_seconds = value;
    } else {
      return false;
    }
  }
  for (; i < argc; ++i) {
    request.program.push_back(argv[i]);
  }
  request.program.push_back(nullptr);
  return request.parent > 0 && request.program.size() > 1;
}

void set_limit(int resource, std::uint64_t value) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0) {
    return;
  }
  // Never above the hard limit: an unprivileged user may only lower it.
  const rlim_t wanted = static_cast<rlim_t>(value);
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
  limit.rlim_max = limit.rlim_cur;
  ::setrlimit(resource, &limit);
}

void say(const std::string& line) {
  const std::string text = "labrun-contain: " + line + "\n";
  if (::write(STDERR_FILENO, text.data(), text.size()) < 0) {
    // nowhere else to say it
  }
}

// Seconds between two reads of the tree's CPU time, once it could be near its limit.
constexpr double kTreeScanSeconds = 0.05;

double monotonic_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

timespec duration_of(double seconds) {
  timespec duration{};
  duration.tv_sec = static_cast<time_t>(seconds);
  duration.tv_nsec = static_cast<long>((seconds - static_cast<double>(duration.tv_sec)) * 1e9);
  return duration;
}

// Ends this process the way the program ended.
[[noreturn]] void exit_like(int status) {
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    ::signal(signal_number, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
    ::raise(signal_number);
    ::_exit(128 + signal_number);  // a signal that does not end a process by default
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

}  // namespace

int main(int argc, char** argv) {
  Request request;
  if (!parse(argc, argv, request)) {
    say("usage: labrun-contain --parent PID [--file-size B] [--processes N] [--address-space B] "
        "[--cpu-seconds S] [--tree-cpu-seconds S] [--no-core] -- PROGRAM [ARGS...]");
    return kUsage;
  }
  // Signals arrive through sigwaitinfo below, never through handlers.
  sigset_t watched;
  sigemptyset(&watched);
  for (const int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP}) {
    sigaddset(&watched, s);
  }
  ::signal(SIGCHLD, SIG_DFL);  // an inherited SIG_IGN would reap children behind our back
  sigset_t before;
  ::sigprocmask(SIG_BLOCK, &watched, &before);
  if (::prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || ::getppid() != request.parent) {
    say("labrun is gone; not starting " + std::string(request.program[0]));
    return kUsage;
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (request.no_core) {
    set_limit(RLIMIT_CORE, 0);
  }
  if (request.file_size > 0) {
    set_limit(RLIMIT_FSIZE, request.file_size);
  }
  if (request.processes > 0) {
    set_limit(RLIMIT_NPROC, request.processes);
  }

  const pid_t keeper = ::getpid();
  const pid_t program = ::fork();  // no CUDA, no threads here: fork is safe
  if (program < 0) {
    say(std::string("cannot fork: ") + std::strerror(errno));
    return kUsage;
  }
  if (program == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != keeper) {
      ::_exit(kUsage);
    }
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    // The program's own limits, set here and not in the keeper: the keeper must still be able to
    // allocate (under AddressSanitizer it reserves terabytes of address space), and its CPU time
    // is not the program's.
    if (request.address_space > 0) {
      set_limit(RLIMIT_AS, request.address_space);
    }
    if (request.cpu_seconds > 0) {
      set_limit(RLIMIT_CPU, request.cpu_seconds);
    }
    ::execvp(request.program[0], request.program.data());
    say(std::string("cannot execute ") + request.program[0] + ": " + std::strerror(errno));
    ::_exit(127);
  }

  int program_status = 0;
  bool program_ended = false;
  // The tree's CPU seconds are read from /proc only once they could have reached the limit: not
  // before limit / (CPUs online) seconds of wall clock, so a short program costs no scan at all.
  const double tree_limit = static_cast<double>(request.tree_cpu_seconds);
  const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  double next_scan = monotonic_seconds() + tree_limit / static_cast<double>(cpus);
  while (!program_ended) {
    siginfo_t info{};
    int signal_number = 0;
    if (tree_limit > 0.0) {
      const timespec wait = duration_of(std::max(0.0, next_scan - monotonic_seconds()));
      signal_number = ::sigtimedwait(&watched, &info, &wait);
    } else {
      signal_number = ::sigwaitinfo(&watched, &info);
    }
    if (signal_number < 0) {
      if (errno == EAGAIN) {
        if (labrun::descendants_cpu_seconds() >= tree_limit) {
          say("the program's processes used " + std::to_string(request.tree_cpu_seconds) +
              " s of CPU together, its limit: stopped");
          labrun::kill_all_descendants();
          exit_like(SIGXCPU);  // a status that says "killed by SIGXCPU", as RLIMIT_CPU's would
        }
        next_scan = monotonic_seconds() + kTreeScanSeconds;
      }
      continue;  // EINTR, or a scan under the limit
    }
    if (info.si_signo != SIGCHLD) {
      // Time-out, interruption, or labrun gone: nothing below us survives.
      labrun::kill_all_descendants();
      int status = 0;
      while (::waitpid(program, &status, 0) < 0 && errno == EINTR) {
      }
      ::kill(::getpid(), SIGKILL);
    }
    int status = 0;
    pid_t ended = 0;
    while ((ended = ::waitpid(-1, &status, WNOHANG)) > 0) {
      if (ended == program) {
        program_status = status;
        program_ended = true;
      }
    }
  }
  // The program is done; whatever it left running is not.
  labrun::kill_all_descendants();
  exit_like(program_status);
}
