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

#include <cstddef>
#include <filesystem>

namespace labrun {

//! Temporaries registered at once, at most: a batch's gradings each hold a scratch folder (and a
//! worker its control folder) for as long as they work or wait, so `labrun grade --batch` bounds
//! --jobs to fit (cli/grade_command.cpp). Each slot keeps a path of up to PATH_MAX bytes, in memory
//! a signal handler can read: 4 MiB, untouched until used.
inline constexpr std::size_t kRegisteredTemporariesMax = 1024;

//! Registers `path` (a file, or a folder removed with everything in it) for removal by the signal
//! handlers while this object lives. It removes nothing itself: the owner removes the temporary
//! on every ordinary path, and this object only covers the signals. A path longer than PATH_MAX,
//! or more than kRegisteredTemporariesMax temporaries at once, are not covered (nothing else
//! changes).
class RegisteredTemporary {
 public:
  explicit RegisteredTemporary(const std::filesystem::path& path);
  ~RegisteredTemporary();
  RegisteredTemporary(const RegisteredTemporary&) = delete;
  RegisteredTemporary& operator=(const RegisteredTemporary&) = delete;
  RegisteredTemporary(RegisteredTemporary&& other) noexcept;
  RegisteredTemporary& operator=(RegisteredTemporary&& other) noexcept;
  //! Whether the signal handlers cover the path (false: too long, or no slot was free).
  [[nodiscard]] bool covered() const { return slot_ >= 0; }

 private:
  int slot_ = -1;
};

//! A temporary created under a name registered before it exists: a signal at any moment finds every
//! temporary that exists registered (mkstemp(3) then registering left a window in which a signal
//! left the file behind). A signal between the registration and the creation removes a name nothing
//! has yet, which is harmless.
struct CreatedTemporary {
  std::filesystem::path path;
  int fd = -1;  //!< a file's descriptor, open for writing (O_CLOEXEC; the caller closes it); -1 for a folder
  RegisteredTemporary registered{std::filesystem::path()};
};

//! Creates a new file `stem` + 6 random letters and digits (mode 0600, O_EXCL), registered first.
//! When every slot is taken it waits up to 10 s for one. Throws std::system_error (its errno) when the
//! file cannot be created or no slot frees; nothing is left then.
[[nodiscard]] CreatedTemporary create_registered_file(const std::string& stem);

//! The same for a new folder (mode 0700), as mkdtemp(3) makes one.
[[nodiscard]] CreatedTemporary create_registered_folder(const std::string& stem);

//! A region no catchable signal cuts: the few renames that place a set of files, a temporary's name
//! registered and the file created. A signal caught in the thread of a region is acted on when that
//! thread's last region ends; a signal caught elsewhere waits (up to 10 s) until every region open in
//! any thread has ended; and once a signal is acted on, no region starts (its thread waits to be
//! ended). So no catchable signal leaves half a set in place, or a temporary no one registered, even
//! while other threads write (grade --batch).
class SignalsDeferred {
 public:
  SignalsDeferred();
  ~SignalsDeferred();
  SignalsDeferred(const SignalsDeferred&) = delete;
  SignalsDeferred& operator=(const SignalsDeferred&) = delete;
};

//! A test's window on the life of a file labrun writes: called with the name of each step as it is
//! passed ("name registered", "temporary created", "temporary written", "set placing", "target
//! placed", "set placed"), so that a test can raise a signal at every one of them and see what is
//! left. nullptr (the default) calls nothing.
using FileStepObserver = void (*)(const char* step);
void observe_file_steps(FileStepObserver observer);
//! Calls the observer, if any, with `step`.
void note_file_step(const char* step);

//! Installs the handlers described above. Idempotent; call it before any thread starts.
void remove_temporaries_on_signals();

//! Ends labrun with `signal_number` as the handlers do: once the regions open in other threads have
//! ended, every registered temporary is removed, then the signal's default action ends labrun. For
//! code that caught the signal itself (process/'s forwarding while a child runs). Never returns.
[[noreturn]] void end_labrun_with_signal(int signal_number) noexcept;

//! Removes every registered temporary now. Async-signal-safe (only open, getdents64, unlink,
//! unlinkat, rmdir and close), for a signal handler of another folder: process/'s forwarding of
//! SIGINT and SIGTERM while a child runs ends labrun with the signal itself, and calls this first.
void remove_registered_temporaries() noexcept;

}  // namespace labrun
