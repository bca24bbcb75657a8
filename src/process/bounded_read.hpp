#pragma once
// Reading what another process wrote, without trusting it: only a regular file (never a link, a
// FIFO or a device), and never more than a stated size.

#include <cstddef>
#include <filesystem>
#include <string>

namespace labrun {

//! The whole content of `path`. Throws std::runtime_error naming the path when it is not a regular
//! file (links are not followed), is larger than `max_bytes`, or cannot be read.
[[nodiscard]] std::string read_regular_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace labrun
