#include "base/temporary_files.hpp"

#include <dirent.h>  // getdents64, struct dirent64 (glibc 2.30 and later)
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>

namespace labrun {
namespace {

// A slot is free (0), being filled or emptied (1: the handler skips it) or registered (2).
constexpr int kFree = 0;
constexpr int kBusy = 1;
constexpr int kRegistered = 2;
constexpr std::size_t kSlots = kRegisteredTemporariesMax;
// Folders below a registered folder are removed this deep; a scratch folder has none.
constexpr int kMaxFolderDepth = 8;

struct Slot {
  std::atomic<int> state{kFree};
  std::array<char, PATH_MAX> path{};
};

// Constant-initialised (no guard a signal handler could wait on).
constinit std::array<Slot, kSlots> registered_slots{};

std::array<Slot, kSlots>& slots() {
  return registered_slots;
}

constinit std::atomic<FileStepObserver> step_observer{nullptr};

// Regions that must not be cut by a signal (SignalsDeferred: a set being placed, a temporary's name
// registered and the file created). Several threads may be in one (grade --batch): a signal acts only
// once every region open anywhere has ended, and no region starts once it acts.
constinit std::atomic<int> regions_open{0};  // in every thread
constinit thread_local int regions_of_this_thread = 0;
constinit std::atomic<bool> ending{false};      // a signal is being acted on
constinit std::atomic<int> deferred_signal{0};  // caught inside a region of the thread it interrupted
// How long a signal waits for the regions of other threads to end: 10 s, in 1 ms steps.
constexpr int kRegionWaitSteps = 10000;

constexpr std::array<int, 10> kEndingSignals{SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGPIPE,
                                             SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM};

// Removes everything inside the open folder `folder` (its descriptor is closed here), then
// nothing else: the caller removes the folder's own name.
void empty_folder(int folder, int depth) noexcept {
  alignas(struct dirent64) char buffer[4096];
  for (;;) {
    const ssize_t got = ::getdents64(folder, buffer, sizeof buffer);
    if (got <= 0) {
      break;
    }
    for (ssize_t at = 0; at < got;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + at);
      at += entry->d_reclen;
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) {
        continue;
      }
      if (::unlinkat(folder, name, 0) == 0 || errno != EISDIR || depth >= kMaxFolderDepth) {
        continue;
      }
      const int inner = ::openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (inner >= 0) {
        empty_folder(inner, depth + 1);
        ::unlinkat(folder, name, AT_REMOVEDIR);
      }
    }
  }
  ::close(folder);
}

void remove_path(const char* path) noexcept {
  if (::unlink(path) == 0 || errno != EISDIR) {
    return;
  }
  const int folder = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder >= 0) {
    empty_folder(folder, 0);
    ::rmdir(path);
  }
}

// Ends labrun with `signal_number`, as its default action would have.
[[noreturn]] void end_with(int signal_number) noexcept {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal_number, &default_action, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  ::raise(signal_number);
  ::_exit(128 + signal_number);
}

// Acts on a signal: no region starts from now on, the regions other threads are in end, then every
// registered temporary is removed and labrun ends with the signal. Async-signal-safe.
[[noreturn]] void act_on_signal(int signal_number) noexcept {
  ending.store(true);
  const struct timespec step { 0, 1000000 };
  for (int waited = 0; waited < kRegionWaitSteps && regions_open.load() > 0; ++waited) {
    ::nanosleep(&step, nullptr);
  }
  remove_registered_temporaries();
  end_with(signal_number);
}

extern "C" void on_ending_signal(int signal_number) {
  const int saved_errno = errno;
  if (regions_of_this_thread > 0) {
    // The thread it interrupted is in a region: it acts on the signal when the region ends.
    deferred_signal.store(signal_number);
    errno = saved_errno;
    return;
  }
  act_on_signal(signal_number);
}

// SIGXFSZ: nothing to do; write(2) then fails with EFBIG, and the writer reports it.
extern "C" void on_file_size_limit(int /*signal_number*/) {}

// Six letters and digits for a temporary's name, from getrandom(2).
std::string random_suffix() {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::array<unsigned char, 6> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
    got += n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  std::string suffix;
  for (const unsigned char byte : bytes) {
    suffix += kAlphabet[byte % (sizeof kAlphabet - 1)];
  }
  return suffix;
}

// A name `stem` + a random suffix, registered; `make` creates it (returning a descriptor, 0 for a
// folder, or -1 with errno set). A name that exists already is tried again with another suffix.
template <class Make>
CreatedTemporary create_registered(const std::string& stem, Make make) {
  constexpr int kAttempts = 100;
  constexpr auto kWaitForSlot = std::chrono::seconds(10);
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0; attempt < kAttempts;) {
    CreatedTemporary created;
    created.path = stem + random_suffix();
    // Registering and creating are one region: a signal acting meanwhile waits for both.
    const SignalsDeferred registering;
    created.registered = RegisteredTemporary(created.path);
    if (!created.registered.covered()) {
      if (created.path.native().size() >= PATH_MAX) {
        throw std::system_error(ENAMETOOLONG, std::generic_category(), created.path.string());
      }
      if (std::chrono::steady_clock::now() - start > kWaitForSlot) {
        throw std::system_error(
            EAGAIN, std::generic_category(),
            "no free slot to register a temporary file (" + std::to_string(kSlots) + " in use)");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    note_file_step("name registered");
    const int fd = make(created.path.c_str());
    if (fd >= 0) {
      created.fd = fd;
      note_file_step("temporary created");
      return created;
    }
    if (errno != EEXIST) {
      throw std::system_error(errno, std::generic_category(), created.path.string());
    }
    ++attempt;
  }
  throw std::system_error(EEXIST, std::generic_category(), stem + "XXXXXX");
}

}  // namespace

void observe_file_steps(FileStepObserver observer) {
  step_observer.store(observer);
}

void note_file_step(const char* step) {
  if (const FileStepObserver observer = step_observer.load()) {
    observer(step);
  }
}

CreatedTemporary create_registered_file(const std::string& stem) {
  return create_registered(
      stem, [](const char* path) { return ::open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600); });
}

CreatedTemporary create_registered_folder(const std::string& stem) {
  CreatedTemporary created = create_registered(stem, [](const char* path) { return ::mkdir(path, 0700); });
  created.fd = -1;
  return created;
}

RegisteredTemporary::RegisteredTemporary(const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.empty() || text.size() >= PATH_MAX) {
    return;
  }
  for (std::size_t i = 0; i < kSlots; ++i) {
    Slot& slot = slots()[i];
    int expected = kFree;
    if (slot.state.compare_exchange_strong(expected, kBusy)) {
      std::memcpy(slot.path.data(), text.c_str(), text.size() + 1);
      slot.state.store(kRegistered);
      slot_ = static_cast<int>(i);
      return;
    }
  }
}

RegisteredTemporary::~RegisteredTemporary() {
  if (slot_ >= 0) {
    slots()[static_cast<std::size_t>(slot_)].state.store(kFree);
  }
}

RegisteredTemporary::RegisteredTemporary(RegisteredTemporary&& other) noexcept : slot_(other.slot_) {
  other.slot_ = -1;
}

RegisteredTemporary& RegisteredTemporary::operator=(RegisteredTemporary&& other) noexcept {
  if (this != &other) {
    if (slot_ >= 0) {
      slots()[static_cast<std::size_t>(slot_)].state.store(kFree);
    }
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

SignalsDeferred::SignalsDeferred() {
  ++regions_of_this_thread;
  regions_open.fetch_add(1);
  if (ending.load() && regions_of_this_thread == 1) {
    // Another thread acts on a signal and is about to end labrun: this region never starts.
    regions_open.fetch_sub(1);
    for (;;) {
      ::pause();
    }
  }
}

SignalsDeferred::~SignalsDeferred() {
  regions_open.fetch_sub(1);
  if (--regions_of_this_thread == 0) {
    if (const int signal_number = deferred_signal.exchange(0); signal_number != 0) {
      act_on_signal(signal_number);
    }
  }
}

void end_labrun_with_signal(int signal_number) noexcept {
  act_on_signal(signal_number);
}

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_ending_signal;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : kEndingSignals) {
    sigaddset(&action.sa_mask, signal_number);  // one handler at a time
  }
  action.sa_flags = SA_RESTART;
  for (const int signal_number : kEndingSignals) {
    struct sigaction previous {};
    ::sigaction(signal_number, nullptr, &previous);
    if (previous.sa_handler == SIG_IGN) {
      continue;  // ignored by whoever started labrun (nohup's SIGHUP): left ignored
    }
    ::sigaction(signal_number, &action, nullptr);
  }
  struct sigaction file_size {};
  file_size.sa_handler = on_file_size_limit;
  sigemptyset(&file_size.sa_mask);
  file_size.sa_flags = SA_RESTART;
  ::sigaction(SIGXFSZ, &file_size, nullptr);
}

void remove_registered_temporaries() noexcept {
  for (Slot& slot : slots()) {
    if (slot.state.load() == kRegistered) {
      remove_path(slot.path.data());
    }
  }
}

}  // namespace labrun
