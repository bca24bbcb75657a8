#pragma once
// Writing evidence files: atomically (temporary file, then rename or link), a set of files whole
// or not at all, and never over an existing file unless asked.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/temporary_files.hpp"

namespace labrun {

//! The target exists and overwriting was not asked for.
class FileExistsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! A file could not be written (a full disk, a file-size limit, a folder that cannot be written):
//! what() names the file and the system's reason.
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! Files written as one set: each is written to a temporary file beside its target
//! (`<target>.tmp-XXXXXX`, the target's name cut short where the whole would be longer than a file
//! name may be) and fsynced as it is added; commit() then gives every one its name, at
//! once, and fsyncs their folders. A failure anywhere leaves none of the set in place and every
//! earlier file as it was, and removes the temporaries; so does a catchable signal
//! (base/temporary_files.hpp), which waits while commit() places the files. Only SIGKILL or a
//! crash can leave a temporary behind, never a target half written.
class FileSet {
 public:
  FileSet() = default;
  //! Removes the temporaries of a set that was not committed.
  ~FileSet();
  FileSet(const FileSet&) = delete;
  FileSet& operator=(const FileSet&) = delete;

  //! Writes `content` to a new temporary file beside `path` and fsyncs it. Throws WriteError naming
  //! `path` when it cannot (nothing of it is left); std::invalid_argument for a path added twice.
  void add(const std::filesystem::path& path, const std::string& content);
  //! An earlier file of the set that this set does not write again (an earlier run's file for a lab
  //! the new run lacks): commit(true) removes it with the others placed, kept under a second name
  //! until the whole set is in place, so that a failure puts it back. Ignored by commit(false), which
  //! replaces nothing. Not a target of the set, and not a folder.
  void retire(const std::filesystem::path& path);
  //! The targets added, in order.
  [[nodiscard]] std::vector<std::filesystem::path> targets() const;
  //! Places every file under its name. Without `overwrite`, a target that exists (checked first,
  //! and refused atomically by link(2) as each is placed) throws FileExistsError naming it; with
  //! it, each earlier file is replaced (rename(2)), kept under a second name until the whole set
  //! is in place, so that a failure puts it back. Other failures throw WriteError. At most once.
  void commit(bool overwrite);

 private:
  struct Staged {
    std::filesystem::path target;
    std::filesystem::path temporary;
    RegisteredTemporary registered;
  };
  void discard() noexcept;
  std::vector<Staged> staged_;
  std::vector<std::filesystem::path> retired_;
};

//! The first of `paths` that exists (a link counts, even to nothing), or nullopt.
[[nodiscard]] std::optional<std::filesystem::path> first_existing(
    const std::vector<std::filesystem::path>& paths);

//! "PATH exists; refusing to overwrite it (pass --force to replace it)": what FileExistsError says.
[[nodiscard]] std::string exists_message(const std::filesystem::path& path);

//! A FileSet of one file: `content` to `path` through a temporary file in the same directory,
//! fsynced before it takes the name and the directory fsynced after, so that a crash or a full
//! disk leaves either the old file or the whole new one, never part of one. Without `overwrite`,
//! an existing `path` is left untouched and FileExistsError is thrown. Other failures throw
//! WriteError naming the path and the system error.
void write_file_atomically(const std::filesystem::path& path, const std::string& content, bool overwrite);

//! `content` to `path` whole (a temporary file beside it, then rename(2) over any earlier file), as
//! write_file_atomically does, but with no fsync: for the files by which labrun and the programs it
//! starts signal each other inside a grading's private scratch or control folder ("may-time",
//! "timed", the phase, a worker's job), which are removed with their folder and mean nothing after a
//! crash. A reader never sees part of one; an fsync would add milliseconds to every hand-over of the
//! GPU. Throws WriteError naming the path and the system error (nothing of it is left then).
void write_file_whole_unsynced(const std::filesystem::path& path, const std::string& content);

//! The longest file name (one path component) labrun writes, in bytes: Linux's NAME_MAX.
inline constexpr std::size_t kFileNameMaxBytes = 255;

//! "PATH: a file name of N bytes, longer than the 255 a file name may have" when the last component
//! of `path` is longer than kFileNameMaxBytes; nullopt otherwise. For names a command derives from one
//! it was given (`<stem>.roofline.svg`), checked before anything is written.
[[nodiscard]] std::optional<std::string> file_name_too_long(const std::filesystem::path& path);

//! The largest file labrun reads as evidence (a transcript, a schema, a Markdown file): 64 MiB. The
//! largest committed transcript is under 2 MB.
inline constexpr std::size_t kEvidenceFileMaxBytes = std::size_t{64} << 20;

//! Reads a whole regular file (a link to one is followed) of at most kEvidenceFileMaxBytes; throws
//! std::runtime_error naming the path when it cannot, and at once for a FIFO, a device or a folder.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

//! read_file, then decompressed when the file is gzip (base/gzip.hpp; by its first bytes, not its
//! name): the text of a transcript stored as NAME.json or NAME.json.gz. At most kEvidenceFileMaxBytes
//! read and, decompressed, at most kEvidenceFileMaxBytes of text; throws std::runtime_error naming
//! the path when it cannot.
[[nodiscard]] std::string read_evidence_text(const std::filesystem::path& path);

}  // namespace labrun
