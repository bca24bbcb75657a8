#pragma once
// The process tree under a process, read from /proc (Linux): what labrun-contain kills so that
// nothing a child started outlives it.

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! The parent pid in the text of /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold
//! spaces and parentheses, so the last ')' ends it); nullopt when the text is not of that form.
[[nodiscard]] std::optional<pid_t> parent_in_stat(const std::string& stat_text);

//! Every live process whose chain of parents reaches `ancestor`, nearest first.
[[nodiscard]] std::vector<pid_t> descendants_of(pid_t ancestor);

//! The CPU seconds (user and system) in the text of /proc/PID/stat of a process and of the children
//! it has waited for (fields utime, stime, cutime and cstime, in clock ticks of `ticks_per_second`);
//! nullopt when the text is not of that form.
[[nodiscard]] std::optional<double> cpu_seconds_in_stat(const std::string& stat_text, long ticks_per_second);

//! The CPU seconds every descendant of the calling process has used so far, together: those it has
//! reaped (with everything they reaped: getrusage's RUSAGE_CHILDREN) and those not reaped yet, alive
//! or ended, each with the children it has reaped. A process reaped by a parent that is itself a
//! descendant is counted once, in that parent. The caller should be a child subreaper (orphans then
//! come back to it, and their time with them). Exact to /proc's clock tick (10 ms).
[[nodiscard]] double descendants_cpu_seconds();

//! Sends SIGKILL to every descendant of the calling process and reaps those that are (or become)
//! its children, until none is left. The caller should be a child subreaper, so that orphans
//! come back to it rather than to init. Returns how many processes it killed.
int kill_all_descendants();

}  // namespace labrun
