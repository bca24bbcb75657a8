#pragma once
// Writing evidence files: atomically (temporary file, then rename or link) and never over an
// existing file unless asked.

#include <filesystem>
#include <stdexcept>
#include <string>

namespace labrun {

//! The target exists and overwriting was not asked for.
class FileExistsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! Writes `content` to `path` through a temporary file in the same directory. Without
//! `overwrite`, an existing `path` is left untouched and FileExistsError is thrown (the final
//! step is link(2), which refuses an existing name atomically). Other failures throw
//! std::runtime_error naming the path and the system error.
void write_file_atomically(const std::filesystem::path& path, const std::string& content, bool overwrite);

//! Reads a whole file; throws std::runtime_error naming the path when it cannot.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

}  // namespace labrun
