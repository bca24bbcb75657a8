#pragma once
// An environment variable set (or unset, with nullopt) for one scope, then restored to what it was:
// a value the test process was started with (a lease's CUDA_DEVICE_MAX_CONNECTIONS=1, say) survives
// the test, also when the test fails part-way.

#include <stdlib.h>  // setenv, unsetenv

#include <cstdlib>
#include <optional>
#include <string>

namespace labrun::testing {

class ScopedEnvironment {
 public:
  ScopedEnvironment(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) {
      old_value_ = old;
    }
    if (value) {
      ::setenv(name_.c_str(), value->c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }
  ~ScopedEnvironment() {
    if (old_value_) {
      ::setenv(name_.c_str(), old_value_->c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_value_;
};

}  // namespace labrun::testing
