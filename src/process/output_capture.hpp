#pragma once
// Keeps a child's output within a cap without losing its end: the first half of the cap from the
// start and the second half from the end, so a tool's closing summary (compute-sanitizer's, a
// compiler's error count) always survives a long run of messages before it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace labrun {

class HeadTailBuffer {
 public:
  explicit HeadTailBuffer(std::size_t cap);
  void append(std::string_view bytes);
  //! The head, then (when bytes were dropped) a line "[... N bytes left out ...]", then the tail.
  [[nodiscard]] std::string text() const;
  [[nodiscard]] std::uint64_t total_bytes() const { return total_; }

 private:
  std::size_t head_cap_;
  std::size_t tail_cap_;
  std::string head_;
  std::string tail_;  // a ring: the newest tail_cap_ bytes once full, oldest at tail_start_
  std::size_t tail_start_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace labrun
