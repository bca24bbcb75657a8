#pragma once
// A private folder under the system's temporary directory for one test, removed with everything
// in it when the test ends.

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <stdexcept>
#include <string>

namespace labrun::testing {

struct TemporaryDirectory {
  std::filesystem::path path;
  explicit TemporaryDirectory(const std::string& prefix = "labrun-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary folder from " + pattern);
    }
    path = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
};

}  // namespace labrun::testing
