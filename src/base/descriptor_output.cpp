#include "base/descriptor_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace labrun {
namespace {

constexpr std::size_t kStandardOutputBufferBytes = std::size_t{64} * 1024;

}  // namespace

DescriptorOutput::DescriptorOutput(int fd)
    : fd_(fd), line_buffered_(::isatty(fd) == 1), buffer_(kStandardOutputBufferBytes) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

DescriptorOutput::~DescriptorOutput() {
  static_cast<void>(flush_buffer());
}

bool DescriptorOutput::write_all(const char* data, std::size_t size) {
  while (size > 0 && error_ == 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      error_ = errno;
    } else if (written == 0) {
      error_ = EIO;  // a write that takes nothing: never retried forever
    } else {
      data += written;
      size -= static_cast<std::size_t>(written);
    }
  }
  return error_ == 0;
}

bool DescriptorOutput::flush_buffer() {
  const auto pending = static_cast<std::size_t>(pptr() - pbase());
  const bool written = write_all(pbase(), pending);
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return written;
}

DescriptorOutput::int_type DescriptorOutput::overflow(int_type c) {
  if (!flush_buffer()) {
    return traits_type::eof();
  }
  if (traits_type::eq_int_type(c, traits_type::eof())) {
    return traits_type::not_eof(c);
  }
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  if (line_buffered_ && traits_type::to_char_type(c) == '\n' && !flush_buffer()) {
    return traits_type::eof();
  }
  return c;
}

std::streamsize DescriptorOutput::xsputn(const char* text, std::streamsize count) {
  if (error_ != 0 || count <= 0) {
    return 0;
  }
  const auto size = static_cast<std::size_t>(count);
  const auto room = static_cast<std::size_t>(epptr() - pptr());
  if (size <= room) {
    std::memcpy(pptr(), text, size);
    pbump(static_cast<int>(size));
  } else if (!flush_buffer() || !write_all(text, size)) {
    return 0;
  }
  if (line_buffered_ && std::memchr(text, '\n', size) != nullptr && !flush_buffer()) {
    return 0;
  }
  return count;
}

int DescriptorOutput::sync() {
  return flush_buffer() ? 0 : -1;
}

std::string output_failure(const std::streambuf* buffer, const std::string& what) {
  const auto* descriptor = dynamic_cast<const DescriptorOutput*>(buffer);
  if (descriptor != nullptr && descriptor->error() != 0) {
    return "cannot write " + what + ": " + std::strerror(descriptor->error());
  }
  return "cannot write " + what;
}

}  // namespace labrun
