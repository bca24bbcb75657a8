#include "grading/submission_build.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "base/atomic_file.hpp"
#include "core/wall_clock.hpp"
#include "grading/compiler_messages.hpp"

namespace day48::grading {
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kProcessLimit = 4096;  // processes and threads of this user, per child tree

std::vector<std::string> child_environment(const fs::path& scratch, const std::string& visible_devices) {
  // HOME and TMPDIR point into the scratch folder, so nothing is written anywhere else; no JIT cache.
  std::vector<std::string> extra{"HOME=" + scratch.string(), "TMPDIR=" + scratch.string(),
                                 "CUDA_CACHE_DISABLE=1", "LC_ALL=C"};
  if (!visible_devices.empty()) {
    extra.push_back("CUDA_VISIBLE_DEVICES=" + visible_devices);
  }
  return labrun::minimal_environment(extra);
}

}  // namespace

ScratchFolder::ScratchFolder() {
  std::string pattern = (fs::temp_directory_path() / "labrun-grade-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary folder for grading");
  }
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

labrun::SpawnOptions contained(std::vector<std::string> argv, double limit_seconds, const fs::path& scratch,
                               std::uint64_t file_size_limit, const std::string& visible_devices) {
  labrun::SpawnOptions options;
  options.argv = std::move(argv);
  options.limit_seconds = limit_seconds;
  options.working_directory = scratch;
  options.environment = child_environment(scratch, visible_devices);
  options.limits.file_size_bytes = file_size_limit;
  options.limits.processes = kProcessLimit;
  return options;
}

DeviceCompile compile_to_cubin(const std::string& source, const fs::path& scratch, const fs::path& headers,
                               const std::string& arch, double limit_seconds) {
  labrun::write_file_atomically(scratch / kSourceName, source, true);
  const auto since = std::chrono::steady_clock::now();
  // Device code only (-cubin): no host code of the submission is compiled into anything that runs.
  const labrun::ProcessResult compile =
      labrun::run_contained(contained({LABRUN_NVCC, "-cubin", "-std=c++17", "-O3", "-arch=" + arch, "-I",
                                       headers.string(), "-o", kImageName, kSourceName},
                                      limit_seconds, scratch, kCompilerFileSizeLimit));
  DeviceCompile result;
  result.seconds = labrun::seconds_since(since);
  result.compiled = compile.succeeded() && fs::is_regular_file(scratch / kImageName);
  result.messages = compile.timed_out ? "the compiler " + compile.describe()
                                      : labrun::messages_about(compile.output, kSourceName);
  if (!result.compiled && result.messages.empty()) {
    result.messages = "the compiler " + compile.describe();
  }
  return result;
}

}  // namespace day48::grading
