#include "process/output_capture.hpp"

#include <algorithm>

namespace labrun {

HeadTailBuffer::HeadTailBuffer(std::size_t cap) : head_cap_(cap - cap / 2), tail_cap_(cap / 2) {}

void HeadTailBuffer::append(std::string_view bytes) {
  total_ += bytes.size();
  const std::size_t to_head = std::min(bytes.size(), head_cap_ - head_.size());
  head_.append(bytes.substr(0, to_head));
  bytes.remove_prefix(to_head);
  if (tail_cap_ == 0 || bytes.empty()) {
    return;
  }
  if (bytes.size() >= tail_cap_) {
    tail_.assign(bytes.substr(bytes.size() - tail_cap_));
    tail_start_ = 0;
    return;
  }
  for (const char c : bytes) {
    if (tail_.size() < tail_cap_) {
      tail_.push_back(c);
    } else {
      tail_[tail_start_] = c;
      tail_start_ = (tail_start_ + 1) % tail_cap_;
    }
  }
}

std::string HeadTailBuffer::text() const {
  std::string ordered_tail = tail_.substr(tail_start_) + tail_.substr(0, tail_start_);
  const std::uint64_t kept = head_.size() + ordered_tail.size();
  if (kept == total_) {
    return head_ + ordered_tail;
  }
  return head_ + "\n[... " + std::to_string(total_ - kept) + " bytes left out ...]\n" + ordered_tail;
}

}  // namespace labrun
