#include "base/temporary_files.hpp"

#include <dirent.h>  // getdents64, struct dirent64 (glibc 2.30 and later)
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace labrun {
namespace {

// A slot is free (0), being filled or emptied (1: the handler skips it) or registered (2).
constexpr int kFree = 0;
constexpr int kBusy = 1;
constexpr int kRegistered = 2;
constexpr std::size_t kSlots = 128;
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

constinit std::atomic<int> deferring{0};
constinit std::atomic<int> deferred_signal{0};

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
void end_with(int signal_number) noexcept {
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

extern "C" void on_ending_signal(int signal_number) {
  const int saved_errno = errno;
  if (deferring.load() > 0) {
    deferred_signal.store(signal_number);
    errno = saved_errno;
    return;
  }
  remove_registered_temporaries();
  end_with(signal_number);
}

// SIGXFSZ: nothing to do; write(2) then fails with EFBIG, and the writer reports it.
extern "C" void on_file_size_limit(int /*signal_number*/) {}

}  // namespace

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
  deferring.fetch_add(1);
}

SignalsDeferred::~SignalsDeferred() {
  if (deferring.fetch_sub(1) == 1) {
    if (const int signal_number = deferred_signal.exchange(0); signal_number != 0) {
      on_ending_signal(signal_number);
    }
  }
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
