#include "core/install_layout.hpp"

#include <cstdlib>

namespace labrun {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDataEnvironment = "LABRUN_DATA_DIR";

fs::path first_existing(const std::vector<fs::path>& candidates, const std::string& what) {
  std::string tried;
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (fs::exists(candidate, error)) {
      return candidate;
    }
    tried += (tried.empty() ? "" : ", ") + candidate.string();
  }
  throw DataFileNotFound(what + " not found (looked in " + tried +
                         "); install labrun with `cmake --install BUILD --prefix PREFIX`, run it from its "
                         "build folder, or set " +
                         kDataEnvironment + " to the folder holding its data files");
}

}  // namespace

fs::path running_executable() {
  std::error_code error;
  return fs::read_symlink("/proc/self/exe", error);
}

std::vector<fs::path> data_folders(const fs::path& executable) {
  if (const char* chosen = std::getenv(kDataEnvironment); chosen != nullptr && *chosen != '\0') {
    return {fs::path(chosen)};
  }
  const fs::path dir = executable.parent_path();
  return {dir / "share" / "labrun", (dir.parent_path() / "share" / "labrun").lexically_normal()};
}

fs::path find_data_file(const fs::path& relative) {
  return find_data_file(relative, running_executable());
}

fs::path find_data_file(const fs::path& relative, const fs::path& executable) {
  std::vector<fs::path> candidates;
  for (const fs::path& folder : data_folders(executable)) {
    candidates.push_back(folder / relative);
  }
  return first_existing(candidates, "labrun's data file " + relative.string());
}

fs::path find_helper_program(const std::string& name) {
  return find_helper_program(name, running_executable());
}

fs::path find_helper_program(const std::string& name, const fs::path& executable) {
  const fs::path dir = executable.parent_path();
  return first_existing({dir / name, (dir.parent_path() / "libexec" / "labrun" / name).lexically_normal()},
                        "labrun's helper program " + name);
}

}  // namespace labrun
