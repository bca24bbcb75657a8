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
// run at most, never a whole group's. Each member's run has that member's limit (the opening
// counts toward the first's, the end toward the last's): a member whose run never ends holds its
// turn for its own limit, never for what the members before it left unspent. Waiting for a turn
// counts toward no limit. Whatever happens to a group's run, an exception in labrun included,
// every member it took gets a verdict (not clean where the run failed) and the next group opens.
//
// A group streams: its process starts as soon as its first member asks, and every member that
// asks while the group is open joins it, up to the group's size, until `window_seconds` after it
// opened; so one sanitizer context serves the members of a whole window, not only those that
// happened to wait at once. Once the batch has handed out every submission (no_more_gradings), a
// group whose queue has been empty for a second closes, so the batch's last gradings do not wait
// out a window. A member that stops the group's run (a failure, a hang, its limit) ends the group:
// members still queued go to the next one. Each member's verdict comes when its group's run has
// ended. A group that was not
// clean halves the size of the tool's next group (at least 2), and a clean one doubles it again
// (at most `members`): where many submissions have errors, fewer clean ones are checked twice.

#include <chrono>
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
  double seconds = 0.0;     //!< wall seconds of this member's own run in the group, under its turn
};

//! Groups of at most `members` (`members` 1 screens nothing: each member's group is itself), one
//! open group per tool at a time, each open for at most `window_seconds` (above). Thread-safe.
class SanitizerScreen {
 public:
  SanitizerScreen(std::filesystem::path sanitizer, std::filesystem::path child_program,
                  std::string visible_devices, GpuTurns* turns, std::size_t members, double window_seconds);

  //! Runs `tool` on the sanitize request at `request` (an absolute path in its scratch folder) as a
  //! member of a group, and says how the group fared. `limit_seconds` is the limit of the member's own
  //! run in the group. Appends "screening" (this member's own run in the group's process, under its
  //! turn) and "waiting to sanitize" (the rest: the group opening, the other members' runs, the
  //! window, waiting for turns, the group's end) to `phases`.
  [[nodiscard]] ScreenVerdict screen(const std::string& tool, const std::filesystem::path& request,
                                     double limit_seconds,
                                     std::vector<std::pair<std::string, double>>& phases);

  //! The batch has handed out its last submission: no member joins after those now in flight, and
  //! an open group closes once its queue has been empty for `kQuietSeconds`.
  void no_more_gradings();

  //! "N sanitizer runs in G groups (at most M in one), K not clean (their members checked alone)"
  [[nodiscard]] std::string describe() const;

  //! Seconds an open group waits for another member once the batch has no more submissions.
  static constexpr double kQuietSeconds = 1.0;

 private:
  struct Member {
    std::filesystem::path request;
    double limit_seconds = 0.0;
    bool taken = false;  // a group took it from the queue
    bool done = false;
    double own_seconds = 0.0;  // its own run in the group's process, under its turn
    ScreenVerdict verdict;
  };
  struct Queue {
    std::deque<Member*> waiting;
    bool open = false;  // a group takes members from this queue
    std::chrono::steady_clock::time_point last_arrival;
    std::size_t group_size = 0;  // the next group's size (0: `members`)
  };
  // Runs the group `first` opens (no lock held), taking members as they come while it is open, and
  // gives each member it served its verdict, whatever happens (an exception in labrun is a verdict
  // that is not clean); the tool's queue is free again when it returns.
  void run_group(const std::string& tool, Member* first);
  // The group's process: serves served.front() and the members it takes (appended to `served`),
  // and says how the run fared. `open` is cleared once the tool's queue is no longer this group's.
  [[nodiscard]] ScreenVerdict run_group_process(const std::string& tool, std::vector<Member*>& served,
                                                bool& open);
  // With the lock held: the open group's next member, waiting for one while the group is open; null
  // once it closes (the queue is then free for the next group).
  Member* next_member(std::unique_lock<std::mutex>& lock, Queue& queue,
                      std::chrono::steady_clock::time_point opened, std::size_t served);

  std::filesystem::path sanitizer_;
  std::filesystem::path program_;
  std::string visible_devices_;
  GpuTurns* turns_;
  std::size_t members_;
  double window_seconds_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Queue> queues_;
  std::size_t groups_ = 0;
  std::size_t screened_ = 0;
  std::size_t unclean_groups_ = 0;
  std::size_t largest_group_ = 0;
  bool no_more_ = false;
};

}  // namespace labrun
