#include "exercise/outside_watch.hpp"

#include <stdexcept>

namespace labrun {

void OutsideWatch::before_call(std::uint64_t rest, std::optional<std::uint64_t> untouched) {
  if (in_call_) {
    throw std::logic_error("OutsideWatch: a call began before the last one was checked");
  }
  if (needs_untouched_before()) {
    if (!untouched) {
      throw std::logic_error("OutsideWatch: the first call needs its own digest of the untouched part");
    }
    untouched_before_ = *untouched;
  }
  rest_before_ = rest;
  in_call_ = true;
}

bool OutsideWatch::changed_by_call(std::uint64_t rest, std::uint64_t untouched) {
  if (!in_call_) {
    throw std::logic_error("OutsideWatch: a call was checked that had not begun");
  }
  in_call_ = false;
  const bool changed = rest != rest_before_ || untouched != *untouched_before_;
  untouched_before_ = untouched;
  return changed;
}

}  // namespace labrun
