#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/bounded_read.hpp"

namespace labrun {
namespace {

std::string system_error(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// A new name in a folder survives a crash once the folder itself is fsynced.
void sync_folder(const std::filesystem::path& parent) {
  const std::filesystem::path folder = parent.empty() ? "." : parent;
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    throw WriteError(system_error("cannot open the folder", folder));
  }
  const bool synced = ::fsync(fd) == 0;
  const std::string message = synced ? "" : system_error("cannot fsync the folder", folder);
  ::close(fd);
  if (!synced) {
    throw WriteError(message);
  }
}

}  // namespace

FileSet::~FileSet() {
  discard();
}

void FileSet::discard() noexcept {
  for (const Staged& file : staged_) {
    ::unlink(file.temporary.c_str());
  }
  staged_.clear();
}

void FileSet::add(const std::filesystem::path& path, const std::string& content) {
  for (const Staged& file : staged_) {
    if (file.target == path) {
      throw std::invalid_argument(path.string() + " is added twice to one set of files");
    }
  }
  std::string temporary = path.string() + ".tmp-XXXXXX";
  const int fd = mkstemp(temporary.data());
  if (fd < 0) {
    throw WriteError(system_error("cannot write", path) + " (creating a temporary file beside it)");
  }
  // Registered at once, so that a signal from here on removes it.
  staged_.push_back({path, temporary, RegisteredTemporary(temporary)});
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      const std::string message = system_error("cannot write", path);
      ::close(fd);
      ::unlink(temporary.c_str());
      staged_.pop_back();
      throw WriteError(message);
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0 || ::close(fd) != 0) {
    const std::string message = system_error("cannot finish writing", path);
    ::unlink(temporary.c_str());
    staged_.pop_back();
    throw WriteError(message);
  }
}

std::vector<std::filesystem::path> FileSet::targets() const {
  std::vector<std::filesystem::path> paths;
  paths.reserve(staged_.size());
  for (const Staged& file : staged_) {
    paths.push_back(file.target);
  }
  return paths;
}

void FileSet::commit(bool overwrite) {
  if (!overwrite) {
    if (const std::optional<std::filesystem::path> existing = first_existing(targets())) {
      discard();
      throw FileExistsError(exists_message(*existing));
    }
  }
  // From the first name taken to the last, a catchable signal waits: the set is placed whole.
  const SignalsDeferred whole;
  // What has been placed, to be undone on a failure: a target new to the folder is removed; an
  // earlier file replaced (with --force) is put back from its second name.
  struct Placed {
    std::filesystem::path target;
    std::filesystem::path earlier;  // empty: there was no earlier file
  };
  std::vector<Placed> placed;
  const auto undo = [&placed]() noexcept {
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
      if (it->earlier.empty()) {
        ::unlink(it->target.c_str());
      } else {
        ::rename(it->earlier.c_str(), it->target.c_str());
      }
    }
  };
  for (const Staged& file : staged_) {
    const std::filesystem::path& target = file.target;
    if (!overwrite) {
      if (::link(file.temporary.c_str(), target.c_str()) != 0) {
        const int error = errno;
        undo();
        discard();
        if (error == EEXIST) {
          throw FileExistsError(exists_message(target));
        }
        errno = error;
        throw WriteError(system_error("cannot create", target));
      }
      placed.push_back({target, {}});
      continue;
    }
    // The earlier file keeps a second name until the whole set is in place.
    std::filesystem::path earlier;
    struct stat status {};
    if (::lstat(target.c_str(), &status) == 0) {
      earlier = file.temporary.string() + ".earlier";
      if (::link(target.c_str(), earlier.c_str()) != 0) {
        const std::string message = system_error("cannot keep the earlier", target) + " while replacing it";
        undo();
        discard();
        throw WriteError(message);
      }
    }
    if (std::rename(file.temporary.c_str(), target.c_str()) != 0) {
      const std::string message = system_error("cannot rename a temporary file onto", target);
      if (!earlier.empty()) {
        ::unlink(earlier.c_str());
      }
      undo();
      discard();
      throw WriteError(message);
    }
    placed.push_back({target, earlier});
  }
  for (const Placed& file : placed) {
    if (!file.earlier.empty()) {
      ::unlink(file.earlier.c_str());
    }
  }
  discard();  // the linked temporaries' own names (renamed ones are gone already)
  std::vector<std::filesystem::path> folders;
  for (const Placed& file : placed) {
    const std::filesystem::path folder = file.target.parent_path();
    if (std::find(folders.begin(), folders.end(), folder) == folders.end()) {
      folders.push_back(folder);
    }
  }
  for (const std::filesystem::path& folder : folders) {
    sync_folder(folder);
  }
}

std::optional<std::filesystem::path> first_existing(const std::vector<std::filesystem::path>& paths) {
  for (const std::filesystem::path& path : paths) {
    std::error_code error;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, error))) {
      return path;
    }
  }
  return std::nullopt;
}

std::string exists_message(const std::filesystem::path& path) {
  return path.string() + " exists; refusing to overwrite it (pass --force to replace it)";
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content, bool overwrite) {
  if (!overwrite && first_existing({path})) {
    throw FileExistsError(exists_message(path));
  }
  FileSet set;
  set.add(path, content);
  set.commit(overwrite);
}

std::string read_file(const std::filesystem::path& path) {
  return read_regular_file(path, kEvidenceFileMaxBytes, Links::kFollow);
}

}  // namespace labrun
