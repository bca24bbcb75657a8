#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <system_error>

#include "base/bounded_read.hpp"
#include "base/gzip.hpp"

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

// "<target>.tmp-": the stem of a target's temporary names. The temporary, and the ".earlier" name
// an earlier file keeps while it is replaced, must be names too: a target's name is cut short for them
// where the whole would be longer than a file name may be.
constexpr std::size_t kTemporarySuffixBytes = std::string_view(".tmp-XXXXXX.earlier").size();

std::string temporary_stem(const std::filesystem::path& target) {
  std::string name = target.filename().string();
  if (name.size() + kTemporarySuffixBytes > kFileNameMaxBytes) {
    name.resize(kFileNameMaxBytes - kTemporarySuffixBytes);
  }
  return (target.parent_path() / name).string() + ".tmp-";
}

// A registered temporary file beside `path` (base/temporary_files.hpp: no signal can find it
// unregistered), open for writing; WriteError when the name is too long or it cannot be created.
CreatedTemporary temporary_beside(const std::filesystem::path& path) {
  if (const std::optional<std::string> too_long = file_name_too_long(path)) {
    throw WriteError("cannot write " + *too_long);
  }
  try {
    return create_registered_file(temporary_stem(path));
  } catch (const std::system_error& error) {
    throw WriteError("cannot write " + path.string() + ": " + error.code().message() +
                     " (creating a temporary file beside it)");
  }
}

// Writes all of `content` to `fd`; false, with errno set, when a write fails.
bool write_all(int fd, const std::string& content) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  return true;
}

}  // namespace

std::optional<std::string> file_name_too_long(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (name.size() <= kFileNameMaxBytes) {
    return std::nullopt;
  }
  return path.string() + ": a file name of " + std::to_string(name.size()) + " bytes, longer than the " +
         std::to_string(kFileNameMaxBytes) + " a file name may have";
}

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
  CreatedTemporary created = temporary_beside(path);
  const int fd = created.fd;
  const std::filesystem::path temporary = created.path;
  staged_.push_back({path, temporary, std::move(created.registered)});
  if (!write_all(fd, content)) {
    const std::string message = system_error("cannot write", path);
    ::close(fd);
    ::unlink(temporary.c_str());
    staged_.pop_back();
    throw WriteError(message);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0 || ::close(fd) != 0) {
    const std::string message = system_error("cannot finish writing", path);
    ::unlink(temporary.c_str());
    staged_.pop_back();
    throw WriteError(message);
  }
  note_file_step("temporary written");
}

void FileSet::retire(const std::filesystem::path& path) {
  for (const Staged& file : staged_) {
    if (file.target == path) {
      throw std::invalid_argument(path.string() + " is both written and retired by one set of files");
    }
  }
  if (std::find(retired_.begin(), retired_.end(), path) == retired_.end()) {
    retired_.push_back(path);
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
  note_file_step("set placing");
  // What has been placed, to be undone on a failure: a target new to the folder is removed; an
  // earlier file replaced (with --force) is put back from its second name.
  struct Placed {
    std::filesystem::path target;
    std::filesystem::path earlier;  // empty: there was no earlier file
    bool retired = false;           // an earlier file moved aside, with no new one in its place
  };
  std::vector<Placed> placed;
  std::vector<RegisteredTemporary> earlier_names;  // registered before they exist, as every temporary
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
    // A copy: discard() below clears staged_ before the target is named in an error.
    const std::filesystem::path target = file.target;
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
      placed.push_back({target, {}, false});
      note_file_step("target placed");
      continue;
    }
    // The earlier file keeps a second name until the whole set is in place.
    std::filesystem::path earlier;
    struct stat status {};
    if (::lstat(target.c_str(), &status) == 0) {
      earlier = file.temporary.string() + ".earlier";
      earlier_names.emplace_back(earlier);
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
    placed.push_back({target, earlier, false});
    note_file_step("target placed");
  }
  // An earlier file this set does not write again leaves with the rest (--force): moved to a second
  // name now, removed once all is in place, put back on a failure.
  if (overwrite) {
    for (const std::filesystem::path& path : retired_) {
      struct stat status {};
      if (::lstat(path.c_str(), &status) != 0 || S_ISDIR(status.st_mode)) {
        continue;  // gone already, or a folder (never part of a set)
      }
      CreatedTemporary aside;
      try {
        // Registered before the name exists; a placeholder file reserves it, then takes the file.
        aside = create_registered_file(temporary_stem(path));
        ::close(aside.fd);
      } catch (const std::system_error& error) {
        undo();
        discard();
        throw WriteError("cannot replace " + path.string() + ": " + error.code().message());
      }
      if (std::rename(path.c_str(), aside.path.c_str()) != 0) {
        const std::string message = system_error("cannot remove the earlier", path);
        ::unlink(aside.path.c_str());
        undo();
        discard();
        throw WriteError(message);
      }
      placed.push_back({path, aside.path, true});
      earlier_names.push_back(std::move(aside.registered));
    }
  }
  for (const Placed& file : placed) {
    if (!file.earlier.empty()) {
      ::unlink(file.earlier.c_str());
    }
  }
  discard();  // the linked temporaries' own names (renamed ones are gone already)
  note_file_step("set placed");
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

void write_file_whole_unsynced(const std::filesystem::path& path, const std::string& content) {
  const CreatedTemporary created = temporary_beside(path);
  const auto fail = [&](const std::string& what) {
    const std::string message = system_error(what, path);
    ::unlink(created.path.c_str());
    throw WriteError(message);
  };
  if (!write_all(created.fd, content)) {
    const int error = errno;
    ::close(created.fd);
    errno = error;
    fail("cannot write");
  }
  const bool readable = ::fchmod(created.fd, 0644) == 0;
  const int error = errno;
  if (::close(created.fd) != 0 || !readable) {
    if (!readable) {
      errno = error;
    }
    fail("cannot finish writing");
  }
  if (std::rename(created.path.c_str(), path.c_str()) != 0) {
    fail("cannot rename a temporary file onto");
  }
}

std::string read_file(const std::filesystem::path& path) {
  return read_regular_file(path, kEvidenceFileMaxBytes, Links::kFollow);
}

std::string read_evidence_text(const std::filesystem::path& path) {
  std::string bytes = read_file(path);
  if (!looks_gzip(bytes)) {
    return bytes;
  }
  return gunzip(bytes, kEvidenceFileMaxBytes, path.string());
}

}  // namespace labrun
