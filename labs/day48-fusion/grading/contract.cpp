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
  // CUDA's own headers, and the C++ libraries it ships under include/cccl (cuda/std, cub, thrust),
  // which nvcc puts on the include path itself.
  policy.angled_roots = {cuda_include_dir, cuda_include_dir / "cccl"};
  return policy;
}

}  // namespace day48::grading
