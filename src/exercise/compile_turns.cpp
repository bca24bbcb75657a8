#include "exercise/compile_turns.hpp"

namespace labrun {

void CompileTurns::acquire_shared() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !alone_ && waiting_alone_ == 0; });
  ++sharers_;
}

void CompileTurns::release_shared() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    --sharers_;
  }
  changed_.notify_all();
}

void CompileTurns::acquire_alone() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_alone_;
  changed_.wait(lock, [&] { return !alone_ && sharers_ == 0; });
  --waiting_alone_;
  alone_ = true;
  ++compiled_again_;
}

void CompileTurns::release_alone() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    alone_ = false;
  }
  changed_.notify_all();
}

std::size_t CompileTurns::sharers() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return sharers_;
}

bool CompileTurns::alone_held() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return alone_;
}

std::size_t CompileTurns::waiting_alone() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return waiting_alone_;
}

std::size_t CompileTurns::compiled_again() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return compiled_again_;
}

namespace {

// A turn of one kind held for a scope.
template <void (CompileTurns::*Acquire)(), void (CompileTurns::*Release)()>
class Held {
 public:
  explicit Held(CompileTurns& turns) : turns_(turns) { (turns_.*Acquire)(); }
  ~Held() { (turns_.*Release)(); }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;

 private:
  CompileTurns& turns_;
};

}  // namespace

ProcessResult run_compiler_in_turn(CompileTurns* turns, const std::function<ProcessResult()>& run,
                                   const std::function<void()>& before_again, bool& again) {
  again = false;
  if (turns == nullptr) {
    return run();
  }
  {
    const Held<&CompileTurns::acquire_shared, &CompileTurns::release_shared> shared(*turns);
    ProcessResult first = run();
    if (!first.timed_out) {
      return first;
    }
  }
  before_again();
  again = true;
  const Held<&CompileTurns::acquire_alone, &CompileTurns::release_alone> alone(*turns);
  return run();
}

}  // namespace labrun
