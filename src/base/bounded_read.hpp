#pragma once
// Reading what another process wrote, without trusting it: only a regular file (never a link, a
// FIFO or a device), and never more than a stated size.

#include <cstddef>
#include <filesystem>
#include <string>

namespace labrun {

//! Whether a symbolic link at `path` itself is followed (a file a user names) or refused (a file
//! another, untrusted process wrote).
enum class Links { kRefuse, kFollow };

//! The whole content of `path`. Throws std::runtime_error naming the path when it is not a regular
//! file (a FIFO, a device, a folder; a link too, unless `links` is kFollow), is larger than
//! `max_bytes`, or cannot be read. Opening never blocks, and no more than `max_bytes` + 1 bytes are
//! ever read, so a FIFO or /dev/zero is refused at once.
[[nodiscard]] std::string read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                            Links links = Links::kRefuse);

}  // namespace labrun
