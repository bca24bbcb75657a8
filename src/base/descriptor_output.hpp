#pragma once
// Standard output as a stream that knows whether everything written to it arrived. std::cout sets
// badbit on a failed write but keeps no reason, and a program that never checks it exits 0 with its
// output missing (a full disk, /dev/full, a file-size limit). labrun's main() writes through this
// buffer and checks it before it exits (cli/app.hpp).

#include <streambuf>
#include <string>
#include <vector>

namespace labrun {

//! A stream buffer writing to a file descriptor with write(2): buffered, flushed at every line when
//! the descriptor is a terminal, and on sync() and destruction. The first failed or short write is
//! kept (its errno); everything after it is refused, so the stream goes bad and stays bad.
class DescriptorOutput : public std::streambuf {
 public:
  explicit DescriptorOutput(int fd);
  //! Flushes what is buffered; a failure then is only recorded.
  ~DescriptorOutput() override;
  DescriptorOutput(const DescriptorOutput&) = delete;
  DescriptorOutput& operator=(const DescriptorOutput&) = delete;

  //! errno of the first write that failed (ENOSPC, EFBIG, EPIPE, ...); 0 when none has.
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

 private:
  bool flush_buffer();
  bool write_all(const char* data, std::size_t size);

  int fd_;
  bool line_buffered_;
  int error_ = 0;
  std::vector<char> buffer_;
};

//! "cannot write standard output: No space left on device": why `out` failed, when it is a stream
//! over a DescriptorOutput that recorded an errno; "cannot write standard output" otherwise.
[[nodiscard]] std::string output_failure(const std::streambuf* buffer, const std::string& what);

}  // namespace labrun
