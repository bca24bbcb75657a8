#include "process/process_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <map>
#include <thread>

namespace labrun {
namespace {

// Reads a small /proc file with one read(2); empty when it is gone.
std::string read_proc_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return {};
  }
  char buffer[1024];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  return got > 0 ? std::string(buffer, static_cast<std::size_t>(got)) : std::string();
}

// One reading of /proc: each process's stat text, by pid.
std::map<pid_t, std::string> proc_stats() {
  std::map<pid_t, std::string> stats;
  if (DIR* proc = ::opendir("/proc")) {
    while (const dirent* entry = ::readdir(proc)) {
      char* end = nullptr;
      const long pid = std::strtol(entry->d_name, &end, 10);
      if (*end != '\0' || pid <= 0) {
        continue;
      }
      std::string stat = read_proc_file("/proc/" + std::string(entry->d_name) + "/stat");
      if (!stat.empty()) {
        stats.emplace(static_cast<pid_t>(pid), std::move(stat));
      }
    }
    ::closedir(proc);
  }
  return stats;
}

// Reaps every child that has ended, without waiting.
void reap_ended_children() {
  int status = 0;
  while (::waitpid(-1, &status, WNOHANG) > 0) {
  }
}

}  // namespace

std::optional<pid_t> parent_in_stat(const std::string& stat_text) {
  const std::size_t close = stat_text.rfind(')');
  if (close == std::string::npos || close + 4 >= stat_text.size()) {
    return std::nullopt;
  }
  // ") S 1234 ..." : the state, then the parent.
  const std::size_t start = stat_text.find(' ', close + 2);
  if (start == std::string::npos) {
    return std::nullopt;
  }
  char* end = nullptr;
  const long parent = std::strtol(stat_text.c_str() + start + 1, &end, 10);
  if (end == stat_text.c_str() + start + 1 || parent < 0) {
    return std::nullopt;
  }
  return static_cast<pid_t>(parent);
}

std::optional<double> cpu_seconds_in_stat(const std::string& stat_text, long ticks_per_second) {
  const std::size_t close = stat_text.rfind(')');
  if (close == std::string::npos || ticks_per_second <= 0) {
    return std::nullopt;
  }
  // After the command name: state (field 3), then fields 4 to 13, then utime, stime, cutime and
  // cstime (fields 14 to 17).
  const char* cursor = stat_text.c_str() + close + 1;
  const char* const text_end = stat_text.c_str() + stat_text.size();
  double ticks = 0.0;
  for (int field = 3; field <= 17; ++field) {
    while (cursor < text_end && *cursor == ' ') {
      ++cursor;
    }
    if (cursor >= text_end) {
      return std::nullopt;
    }
    if (field >= 14) {
      char* end = nullptr;
      const long long value = std::strtoll(cursor, &end, 10);
      if (end == cursor || value < 0) {
        return std::nullopt;
      }
      ticks += static_cast<double>(value);
      cursor = end;
    } else {
      while (cursor < text_end && *cursor != ' ') {
        ++cursor;
      }
    }
  }
  return ticks / static_cast<double>(ticks_per_second);
}

namespace {

// The descendants of `ancestor` among the processes `stats` holds (one reading of /proc).
std::vector<pid_t> descendants_in(const std::map<pid_t, std::string>& stats, pid_t ancestor) {
  std::multimap<pid_t, pid_t> children;  // parent -> child
  for (const auto& [pid, stat] : stats) {
    if (const auto parent = parent_in_stat(stat)) {
      children.emplace(*parent, pid);
    }
  }
  std::vector<pid_t> found;
  std::vector<pid_t> frontier{ancestor};
  while (!frontier.empty()) {
    const pid_t parent = frontier.back();
    frontier.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      found.push_back(it->second);
      frontier.push_back(it->second);
    }
  }
  return found;
}

}  // namespace

double descendants_cpu_seconds() {
  rusage reaped{};
  double seconds = 0.0;
  if (::getrusage(RUSAGE_CHILDREN, &reaped) == 0) {
    for (const timeval& time : {reaped.ru_utime, reaped.ru_stime}) {
      seconds += static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
    }
  }
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  // Each descendant's CPU time from the same reading of its stat that found it.
  const std::map<pid_t, std::string> stats = proc_stats();
  for (const pid_t pid : descendants_in(stats, ::getpid())) {
    if (const auto used = cpu_seconds_in_stat(stats.at(pid), ticks_per_second)) {
      seconds += *used;
    }
  }
  return seconds;
}

std::vector<pid_t> descendants_of(pid_t ancestor) {
  return descendants_in(proc_stats(), ancestor);
}

int kill_all_descendants() {
  int killed = 0;
  for (int round = 0; round < 1000; ++round) {
    const std::vector<pid_t> alive = descendants_of(::getpid());
    reap_ended_children();
    if (alive.empty()) {
      // Nothing left under us, except zombies already reaped above.
      return killed;
    }
    for (const pid_t pid : alive) {
      if (::kill(pid, SIGKILL) == 0) {
        ++killed;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    reap_ended_children();
  }
  return killed;
}

}  // namespace labrun
