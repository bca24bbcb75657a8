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

//! Sends SIGKILL to every descendant of the calling process and reaps those that are (or become)
//! its children, until none is left. The caller should be a child subreaper, so that orphans
//! come back to it rather than to init. Returns how many processes it killed.
int kill_all_descendants();

}  // namespace labrun
