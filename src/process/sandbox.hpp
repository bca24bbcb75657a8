#pragma once
// A sandbox for programs that read text a submission wrote: the compiler, and tools that read what
// it produced. It is bubblewrap (`bwrap`, Debian's and Ubuntu's package `bubblewrap`), not a
// sandbox of labrun's own: bubblewrap is small, widely deployed and reviewed, and does with user
// and mount namespaces exactly what this needs, where code of labrun's own would be one more piece
// of security-critical code to get right (docs/grading.md, "Threat model").
//
// Inside, only the files of the view exist: the system's programs, libraries and headers (/usr,
// with /usr/local hidden), the trees labrun names (the CUDA Toolkit, the lab's headers), read-only,
// and one writable folder, which is also the working directory. There is no network, no other
// process is visible, no capability is held (the programs run as uid 65534 in a user namespace of
// their own, which may not create another), /tmp is a small empty tmpfs, and there is no /proc and
// no device but /dev/null and /dev/tty (which a program of a new session cannot open). Limits on memory,
// processes, CPU time and file sizes are labrun-contain's (process.hpp), which bubblewrap runs
// under and passes on to everything it starts.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! What a sandboxed program sees besides the system (compiler_view).
struct SandboxView {
  //! Folders or files bound read-only at the path they have outside. A path reached through a
  //! symbolic link (/usr/local/cuda) is bound at the path it resolves to, and the link is made
  //! again inside, so both names work.
  std::vector<std::filesystem::path> read_only;
  //! Bound read-write, and the working directory; empty: none (the working directory is /).
  std::filesystem::path writable;
};

//! The bubblewrap program labrun uses: $LABRUN_BWRAP when set, else `bwrap` on PATH; empty when
//! neither exists.
[[nodiscard]] std::filesystem::path sandbox_program();

//! The whole command line that runs `program` in `view`, by `bwrap`: bubblewrap's options, then
//! the program and its arguments. `environment` ("NAME=value" each) is the program's whole
//! environment. Pure: it reads the file system only to resolve links and to see which of /bin,
//! /lib, /lib64 and /sbin are links into /usr.
[[nodiscard]] std::vector<std::string> sandbox_command(const std::filesystem::path& bwrap,
                                                       const SandboxView& view,
                                                       const std::vector<std::string>& environment,
                                                       const std::vector<std::string>& program);

//! Bubblewrap's own complaint in a sandboxed program's output ("bwrap: Can't mount ..."): the
//! sandbox did not start, and nothing ran in it. nullopt when there is none.
[[nodiscard]] std::optional<std::string> sandbox_failure(const std::string& output);

struct SandboxAvailability {
  bool usable = false;
  //! When not usable: one line saying what is missing and what to install or enable.
  std::string problem;
};

//! Whether a sandbox can be started on this machine: bubblewrap is found and starts `true` in an
//! empty view. Checked once per process (the first call starts it; later calls return the answer).
[[nodiscard]] const SandboxAvailability& sandbox_availability();

//! The same check, not cached, with a given bubblewrap (tests).
[[nodiscard]] SandboxAvailability check_sandbox(const std::filesystem::path& bwrap);

}  // namespace labrun
