#include "grading/contract.hpp"

namespace day48::grading {

std::vector<std::string> kernel_names() {
  return {kFirstKernel, kSecondKernel};
}

labrun::LaunchShape default_launch_shape() {
  return labrun::LaunchShape{256, 1, false};
}

labrun::IncludePolicy include_policy(const std::filesystem::path& cuda_include_dir) {
  labrun::IncludePolicy policy;
  policy.quoted = {"grading/submission.cuh", "stages.cuh", "chain_constants.hpp"};
  policy.angled = {"cstddef",     "cstdint", "climits",  "cfloat",   "cmath",
                   "type_traits", "limits",  "stddef.h", "stdint.h", "math.h"};
  policy.angled_root = cuda_include_dir;
  return policy;
}

}  // namespace day48::grading
