#include "grading/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

namespace labrun {

std::string ProcessResult::describe() const {
  std::ostringstream text;
  if (!started) {
    text << "could not start: " << output;
  } else if (timed_out) {
    text << "timed out after " << std::lround(wall_seconds) << " s and was killed";
  } else if (signal != 0) {
    text << "killed by signal " << signal << " (" << strsignal(signal) << ")";
  } else {
    text << "exit status " << exit_code;
  }
  return text.str();
}

std::filesystem::path current_executable() {
  std::error_code error;
  return std::filesystem::read_symlink("/proc/self/exe", error);
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

ProcessResult run_with_limit(const std::vector<std::string>& argv, double limit_seconds,
                             const std::filesystem::path& working_directory, std::size_t output_cap) {
  ProcessResult result;
  int pipe_fds[2];
  if (argv.empty() || ::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.output = argv.empty() ? "no program given" : std::strerror(errno);
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.output = std::strerror(errno);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return result;
  }
  if (pid == 0) {
    // Child: its own process group, output into the pipe, input from /dev/null.
    ::setpgid(0, 0);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) {
      ::dup2(null_fd, STDIN_FILENO);
    }
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    if (!working_directory.empty() && ::chdir(working_directory.c_str()) != 0) {
      ::_exit(127);
    }
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& arg : argv) {
      args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    const std::string message = std::string("cannot execute ") + argv[0] + ": " + std::strerror(errno) + "\n";
    if (::write(STDOUT_FILENO, message.data(), message.size()) < 0) {
      ::_exit(126);  // nowhere left to report to
    }
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  ::close(pipe_fds[1]);
  ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  result.started = true;
  bool cut = false;
  int status = 0;
  const auto drain = [&] {
    char buffer[4096];
    ssize_t got = 0;
    while ((got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) {
      const std::size_t room = output_cap > result.output.size() ? output_cap - result.output.size() : 0;
      result.output.append(buffer, std::min(room, static_cast<std::size_t>(got)));
      cut = cut || static_cast<std::size_t>(got) > room;
    }
  };
  while (true) {
    drain();
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      break;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > limit_seconds) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  drain();
  ::close(pipe_fds[0]);
  ::kill(-pid, SIGKILL);  // anything the child left running in its group
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  if (cut) {
    result.output += "\n[output cut at " + std::to_string(output_cap) + " bytes]\n";
  }
  return result;
}

}  // namespace labrun
