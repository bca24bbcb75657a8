#pragma once
// Whether each timed call changed memory the child owns outside the call's own buffers, from keyed
// digests of that memory taken before and after the call (ChildSession::time_at). The memory is
// digested in two parts:
//   - the part nothing of the child's writes between one call's "after" digest and the next call
//     (the lab's buffers, the L2 flush buffer): its "after" digest of one call is the next call's
//     "before", since only the next call itself could change it in between;
//   - the rest (the checks' own counters, a reference computed before each call): digested before
//     every call, after the child's own code has written it.
// A call changed memory outside when either part's digest after it differs from the one before it:
// the same calls, and as many, as with one digest of both parts taken before and after every call.
// Host logic only.

#include <cstdint>
#include <optional>

namespace labrun {

class OutsideWatch {
 public:
  //! Whether the next call's "before" needs its own digest of the part untouched between calls:
  //! only before the first call (there is no earlier call's "after" to stand for it).
  [[nodiscard]] bool needs_untouched_before() const { return !untouched_before_.has_value(); }
  //! Before a call: the rest's digest, and the untouched part's where needs_untouched_before() (it
  //! is ignored otherwise). Throws std::logic_error where it is needed and not given, or where the
  //! last call has no "after" yet.
  void before_call(std::uint64_t rest, std::optional<std::uint64_t> untouched);
  //! After the call: whether memory outside the call's buffers changed during it. The untouched
  //! part's digest becomes the next call's "before". Throws std::logic_error with no "before".
  [[nodiscard]] bool changed_by_call(std::uint64_t rest, std::uint64_t untouched);

 private:
  std::uint64_t rest_before_ = 0;
  std::optional<std::uint64_t> untouched_before_;
  bool in_call_ = false;
};

}  // namespace labrun
