#include "cli/version.hpp"

#include "core/install_layout.hpp"
#include "device/build_info.hpp"
#include "device/device_info.hpp"

namespace labrun {

std::string version_text() {
  std::string text = "labrun " + std::string(build_info::labrun_version()) + "\n";
  const build_info::Item commit = build_info::git_commit();
  const build_info::Item dirty = build_info::git_dirty();
  if (*commit.value != '\0') {
    const std::string state = std::string(dirty.value) == "true"    ? " (with uncommitted changes)"
                              : std::string(dirty.value) == "false" ? ""
                                                                    : " (changes unknown)";
    text += "git commit " + std::string(commit.value) + state + "\n";
  } else {
    text += "git commit unknown (" + std::string(commit.reason) + ")\n";
  }
  const CudaVersions cuda = read_cuda_versions();
  text += "CUDA " + std::string(build_info::nvcc_version()) + " (nvcc), for architectures " +
          build_info::cuda_architectures() + "; runtime " + cuda.runtime + "; driver " + cuda.driver + "\n";
  try {
    text += "data files in " + find_data_file("schema").parent_path().string() + "\n";
  } catch (const DataFileNotFound& error) {
    text += std::string("data files not found: ") + error.what() + "\n";
  }
  return text;
}

}  // namespace labrun
