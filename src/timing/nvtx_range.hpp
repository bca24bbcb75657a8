#pragma once
// An NVTX range for a scope, named after what runs in it (a case's name), so that Nsight Compute
// (`ncu --nvtx`) and Nsight Systems show labrun's case names. Without a tool attached, NVTX calls
// return at once.

#include <nvtx3/nvToolsExt.h>

#include <string>

namespace labrun {

class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace labrun
