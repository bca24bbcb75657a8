#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/bounded_read.hpp"

namespace labrun {
namespace {

std::string system_error(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// A new name in a folder survives a crash once the folder itself is fsynced.
void sync_folder_of(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    throw std::runtime_error(system_error("cannot open the folder", folder));
  }
  const bool synced = ::fsync(fd) == 0;
  const std::string message = synced ? "" : system_error("cannot fsync the folder", folder);
  ::close(fd);
  if (!synced) {
    throw std::runtime_error(message);
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, const std::string& content, bool overwrite) {
  if (!overwrite && std::filesystem::exists(path)) {
    throw FileExistsError(path.string() + " exists; refusing to overwrite it (pass --force to replace it)");
  }
  std::string temporary = path.string() + ".tmp-XXXXXX";
  const int fd = mkstemp(temporary.data());
  if (fd < 0) {
    throw std::runtime_error(system_error("cannot create a temporary file beside", path));
  }
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      const std::string message = system_error("cannot write", temporary);
      ::close(fd);
      ::unlink(temporary.c_str());
      throw std::runtime_error(message);
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0 || ::close(fd) != 0) {
    const std::string message = system_error("cannot finish writing", temporary);
    ::unlink(temporary.c_str());
    throw std::runtime_error(message);
  }
  if (overwrite) {
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
      const std::string message = system_error("cannot rename a temporary file onto", path);
      ::unlink(temporary.c_str());
      throw std::runtime_error(message);
    }
    sync_folder_of(path);
    return;
  }
  if (::link(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    if (error == EEXIST) {
      throw FileExistsError(path.string() + " exists; refusing to overwrite it (pass --force to replace it)");
    }
    errno = error;
    throw std::runtime_error(system_error("cannot create", path));
  }
  ::unlink(temporary.c_str());
  sync_folder_of(path);
}

std::string read_file(const std::filesystem::path& path) {
  return read_regular_file(path, kEvidenceFileMaxBytes, Links::kFollow);
}

}  // namespace labrun
