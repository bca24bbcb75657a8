#pragma once
// compute-sanitizer's screening of a batch: one sanitizer process checks a group of submissions,
// one after another in one CUDA context, where each submission alone would start a sanitizer and a
// context of its own (0.4 s, most of it the context, which the driver creates one at a time).
//
// A group's log cannot say which member an error belongs to, so it decides only one thing: a group
// whose run exits 0 and whose log reports no error at all was clean for every member, and each is
// clean. Anything else (an error reported, a member stopped by a CUDA error or a hang, the run
// ended at its limit, no summary) decides nothing: every member of that group is then checked by a
// run of its own, as a submission graded alone is, and that run is its verdict. So every verdict
// that names an error comes from a run of the submission alone, and a member can change nothing for
// another but make it be checked alone. Only images that call none of the driver's device-side
// functions (grading/device_image.hpp's outside_calls: the device heap, printf, assert keep state
// in the context) are screened; the others are checked alone.
//
// The group's process is a grading worker under compute-sanitizer (labrun-grade-child --serve): it
// opens its context, then grades one member at a time, and each of those steps holds a shared turn
// of its own. Between members it holds none and does no GPU work, so a timer waits for one member's
// run at most, never a whole group's, and waiting for a turn never counts toward the group's limit
// (the sum of its members').

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "grading/gpu_turns.hpp"

namespace labrun {

//! How one member's request fared in its group.
struct ScreenVerdict {
  bool clean = false;       //!< the group was clean: so is this member
  std::size_t members = 0;  //!< members of the group it ran in
  std::string summary;      //!< the group's summary lines, or how its run ended
  double seconds = 0.0;     //!< wall seconds of the group's run under its turns
};

//! Groups of at most `members` (`members` 1 screens nothing: each member's group is itself). Forms
//! each tool's groups from the requests waiting for it: a group starts once `members` wait or the
//! first has waited `gather_seconds`. Thread-safe.
class SanitizerScreen {
 public:
  SanitizerScreen(std::filesystem::path sanitizer, std::filesystem::path child_program,
                  std::string visible_devices, GpuTurns* turns, std::size_t members, double gather_seconds);

  //! Runs `tool` on the sanitize request at `request` (an absolute path in its scratch folder) as a
  //! member of a group, and says how the group fared. `limit_seconds` is the member's share of its
  //! group's limit. Appends "waiting to sanitize" (forming the group, and the group's run while it
  //! waits for turns) and "screening" (the group's run under its turns) to `phases`.
  [[nodiscard]] ScreenVerdict screen(const std::string& tool, const std::filesystem::path& request,
                                     double limit_seconds,
                                     std::vector<std::pair<std::string, double>>& phases);

  //! "N groups of M members on average; K not clean"
  [[nodiscard]] std::string describe() const;

 private:
  struct Member {
    std::filesystem::path request;
    double limit_seconds = 0.0;
    bool done = false;
    ScreenVerdict verdict;
  };
  struct Queue {
    std::deque<Member*> waiting;
    bool forming = false;  // a member gathers the next group
  };
  [[nodiscard]] ScreenVerdict run_group(const std::string& tool, const std::vector<Member*>& group) const;

  std::filesystem::path sanitizer_;
  std::filesystem::path program_;
  std::string visible_devices_;
  GpuTurns* turns_;
  std::size_t members_;
  double gather_seconds_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Queue> queues_;
  std::size_t groups_ = 0;
  std::size_t screened_ = 0;
  std::size_t unclean_groups_ = 0;
};

}  // namespace labrun
