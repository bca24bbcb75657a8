#pragma once
// What `labrun --version` prints.

#include <string>

namespace labrun {

//! "labrun 0.1.0", then the git commit, the CUDA toolkit it was built with and the architectures,
//! the CUDA runtime and driver versions (the driver: "none" without one), and where its data files
//! are found. Needs no GPU.
[[nodiscard]] std::string version_text();

}  // namespace labrun
