#include "base/bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace labrun {

std::string read_regular_file(const std::filesystem::path& path, std::size_t max_bytes, Links links) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: a link is refused.
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (links == Links::kRefuse ? O_NOFOLLOW : 0));
  if (fd < 0) {
    throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
  }
  struct stat info {};
  std::string content;
  std::string problem;
  if (::fstat(fd, &info) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    problem = "not a regular file";
  } else if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    problem =
        std::to_string(info.st_size) + " bytes, more than the " + std::to_string(max_bytes) + " allowed";
  } else {
    char buffer[65536];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) != 0) {
      if (got < 0) {
        if (errno == EINTR) {
          continue;
        }
        problem = std::strerror(errno);
        break;
      }
      content.append(buffer, static_cast<std::size_t>(got));
      if (content.size() > max_bytes) {  // it grew while being read
        problem = "more than the " + std::to_string(max_bytes) + " bytes allowed";
        break;
      }
    }
  }
  ::close(fd);
  if (!problem.empty()) {
    throw std::runtime_error("cannot read " + path.string() + ": " + problem);
  }
  return content;
}

}  // namespace labrun
