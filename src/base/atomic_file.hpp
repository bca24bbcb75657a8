#pragma once
// Writing evidence files: atomically (temporary file, then rename or link) and never over an
// existing file unless asked.

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace labrun {

//! The target exists and overwriting was not asked for.
class FileExistsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! Writes `content` to `path` through a temporary file in the same directory, fsynced before it
//! takes the name and the directory fsynced after, so that a crash or a full disk leaves either the
//! old file or the whole new one, never part of one (the temporary is removed on failure). Without
//! `overwrite`, an existing `path` is left untouched and FileExistsError is thrown (the final
//! step is link(2), which refuses an existing name atomically). Other failures throw
//! std::runtime_error naming the path and the system error.
void write_file_atomically(const std::filesystem::path& path, const std::string& content, bool overwrite);

//! The largest file labrun reads as evidence (a transcript, a schema, a Markdown file): 64 MiB. The
//! largest committed transcript is well under 1 MiB.
inline constexpr std::size_t kEvidenceFileMaxBytes = std::size_t{64} << 20;

//! Reads a whole regular file (a link to one is followed) of at most kEvidenceFileMaxBytes; throws
//! std::runtime_error naming the path when it cannot, and at once for a FIFO, a device or a folder.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

}  // namespace labrun
