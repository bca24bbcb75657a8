#pragma once
// gzip-compressed text, read without trusting it: committed transcripts are stored as NAME.json.gz
// (docs/transcript-fields.md, "Compressed transcripts"), and every reader takes them as it takes
// NAME.json. Recognised by content (the gzip magic bytes), never by name.

#include <cstddef>
#include <string>
#include <string_view>

namespace labrun {

//! Whether `bytes` begin with gzip's magic bytes (1f 8b).
[[nodiscard]] bool looks_gzip(std::string_view bytes);

//! Whether this build can decompress gzip (it was built with zlib; CMake finds it where it is
//! installed, and scripts/install-deps.sh installs it).
[[nodiscard]] bool gzip_supported();

//! The decompressed content of `compressed`, one gzip member and nothing after it. Throws
//! std::runtime_error beginning with `name` when the data is damaged or truncated, holds more than
//! one member or anything after it, would decompress to more than `max_bytes` (decompression stops
//! there, so a small file cannot claim large memory), or when this build has no zlib.
[[nodiscard]] std::string gunzip(std::string_view compressed, std::size_t max_bytes, const std::string& name);

//! `text` compressed as one gzip member (level 9, no name, no time: the same text gives the same
//! bytes). Throws std::runtime_error when this build has no zlib. For tests and tools; labrun's own
//! outputs are written plain.
[[nodiscard]] std::string gzip_compress(std::string_view text);

}  // namespace labrun
