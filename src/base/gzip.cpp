#include "base/gzip.hpp"

#include <stdexcept>

#if LABRUN_HAVE_ZLIB
#include <zlib.h>

#include <climits>
#endif

namespace labrun {

bool looks_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

#if LABRUN_HAVE_ZLIB

namespace {

// windowBits 15 + 16: a gzip header and trailer (not zlib's, not raw deflate).
constexpr int kGzipWindowBits = 15 + 16;

// A z_stream ended whichever way the function leaves.
class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) {
      throw std::runtime_error("zlib could not start decompressing");
    }
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() { inflateEnd(&stream_); }
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

std::runtime_error damaged(const std::string& name, const std::string& reason) {
  return std::runtime_error(name + ": damaged gzip data: " + reason);
}

}  // namespace

bool gzip_supported() {
  return true;
}

std::string gunzip(std::string_view compressed, std::size_t max_bytes, const std::string& name) {
  if (compressed.size() > UINT_MAX) {
    throw std::runtime_error(name + ": gzip data of more than 4 GiB is not read");
  }
  Inflater inflater;
  z_stream& stream = inflater.stream();
  // zlib's interface takes a non-const pointer; it never writes through next_in.
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string text;
  char buffer[65536];
  int result = Z_OK;
  while (result != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    result = inflate(&stream, Z_NO_FLUSH);
    if (result != Z_OK && result != Z_STREAM_END) {
      throw damaged(name, result == Z_BUF_ERROR   ? "it ends before its data does (truncated)"
                          : stream.msg != nullptr ? stream.msg
                                                  : "zlib error " + std::to_string(result));
    }
    const std::size_t produced = sizeof buffer - stream.avail_out;
    if (text.size() + produced > max_bytes) {
      throw std::runtime_error(name + ": decompresses to more than the " + std::to_string(max_bytes) +
                               " bytes allowed");
    }
    text.append(buffer, produced);
    if (result == Z_OK && produced == 0 && stream.avail_in == 0) {
      throw damaged(name, "it ends before its data does (truncated)");
    }
  }
  if (stream.avail_in != 0) {
    throw std::runtime_error(name + ": " + std::to_string(stream.avail_in) +
                             " bytes after the gzip data (one compressed file is read, nothing after it)");
  }
  return text;
}

std::string gzip_compress(std::string_view text) {
  if (text.size() > UINT_MAX) {
    throw std::runtime_error("text of more than 4 GiB is not compressed");
  }
  z_stream stream{};
  if (deflateInit2(&stream, 9, Z_DEFLATED, kGzipWindowBits, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("zlib could not start compressing");
  }
  std::string compressed(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
  stream.avail_out = static_cast<uInt>(compressed.size());
  const int result = deflate(&stream, Z_FINISH);
  compressed.resize(compressed.size() - stream.avail_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END) {
    throw std::runtime_error("zlib could not compress (error " + std::to_string(result) + ")");
  }
  return compressed;
}

#else  // built without zlib

namespace {
const char* const kNoZlib =
    "this labrun was built without zlib (install zlib1g-dev, or zlib's headers, and build again)";
}

bool gzip_supported() {
  return false;
}

std::string gunzip(std::string_view /*compressed*/, std::size_t /*max_bytes*/, const std::string& name) {
  throw std::runtime_error(name + ": gzip-compressed, and " + kNoZlib + "; or decompress it with gunzip -k");
}

std::string gzip_compress(std::string_view /*text*/) {
  throw std::runtime_error(std::string("cannot compress: ") + kNoZlib);
}

#endif

}  // namespace labrun
