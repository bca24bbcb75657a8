#pragma once
// Temporary files and scratch folders labrun must not leave behind, even when a signal ends it.
//
// A temporary (a file being written beside its target, a scratch folder for a renderer) is
// registered while it exists. remove_temporaries_on_signals(), called once by labrun's main(),
// installs a handler on every signal whose default is to end the process and that can be caught
// (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM): it
// removes every registered temporary, then ends labrun with the same signal, as it would have
// ended without the handler. SIGXFSZ (a file grew past RLIMIT_FSIZE) gets a handler that does
// nothing, so that write(2) fails with EFBIG and the writer reports it as the write error it is.
// Handlers, unlike an ignored signal, are reset in the programs labrun starts.

#include <filesystem>

namespace labrun {

//! Registers `path` (a file, or a folder removed with everything in it) for removal by the signal
//! handlers while this object lives. It removes nothing itself: the owner removes the temporary
//! on every ordinary path, and this object only covers the signals. A path longer than PATH_MAX,
//! or more than 128 temporaries at once, are not covered (nothing else changes).
class RegisteredTemporary {
 public:
  explicit RegisteredTemporary(const std::filesystem::path& path);
  ~RegisteredTemporary();
  RegisteredTemporary(const RegisteredTemporary&) = delete;
  RegisteredTemporary& operator=(const RegisteredTemporary&) = delete;
  RegisteredTemporary(RegisteredTemporary&& other) noexcept;
  RegisteredTemporary& operator=(RegisteredTemporary&& other) noexcept;

 private:
  int slot_ = -1;
};

//! While one of these lives, a signal the handlers catch waits: it is acted on (temporaries
//! removed, labrun ended) when the last one ends. For the few renames that place a set of files,
//! so that no catchable signal leaves half a set in place.
class SignalsDeferred {
 public:
  SignalsDeferred();
  ~SignalsDeferred();
  SignalsDeferred(const SignalsDeferred&) = delete;
  SignalsDeferred& operator=(const SignalsDeferred&) = delete;
};

//! Installs the handlers described above. Idempotent; call it before any thread starts.
void remove_temporaries_on_signals();

//! Removes every registered temporary now. Async-signal-safe (only open, getdents64, unlink,
//! unlinkat, rmdir and close), for a signal handler of another folder: process/'s forwarding of
//! SIGINT and SIGTERM while a child runs ends labrun with the signal itself, and calls this first.
void remove_registered_temporaries() noexcept;

}  // namespace labrun
