#pragma once
// compute-sanitizer's replica of a timed call (ChildSession::sanitize_runs) runs in a grading's
// buffers, each given to the call in part: the call's n elements (an output's at the call's slot)
// lie inside an allocation that also holds guards, the output's other slots and the capacity past
// n. memcheck knows allocations, not the parts a call is given, so a read past n there was unseen
// (a store there changes a guard word, which every graded call counts). SanitizerBounds tells it:
// through NVTX's memory API, which compute-sanitizer reads (by default since CUDA 12.0; the grader
// passes --nvtx yes), each allocation the child owns becomes a sub-allocator heap and each range the
// call is given a region of one, so memcheck reports an access anywhere else in the child's
// allocations, read or write, as it reports one past the end of a buffer of exactly n elements.
// Without a tool attached, the NVTX calls return at once.

#include <nvtx3/nvToolsExtMem.h>

#include <vector>

#include "exercise/owned_region.hpp"

namespace labrun {

//! For each of `allocations`, the ranges of `given` that lie in it, in the order given. Throws
//! std::logic_error where a range of `given` is empty or does not lie wholly inside one allocation
//! (an exercise's call_ranges naming memory the child does not own), or where two allocations
//! overlap. Host logic only.
[[nodiscard]] std::vector<std::vector<OwnedRegion>> ranges_by_allocation(
    const std::vector<OwnedRegion>& allocations, const std::vector<OwnedRegion>& given);

//! Marks `allocations` as heaps whose only accessible parts are `given` (ranges_by_allocation's
//! checks first) while it lives; an allocation holding none of them is wholly off-limits. Create it
//! once the work the child queued on those allocations has finished (compute-sanitizer applies the
//! bounds to every kernel that runs after, the child's own included), and destroy it once the
//! call's kernels have, before the child touches the allocations again or frees them.
class SanitizerBounds {
 public:
  SanitizerBounds(const std::vector<OwnedRegion>& allocations, const std::vector<OwnedRegion>& given);
  ~SanitizerBounds();
  SanitizerBounds(const SanitizerBounds&) = delete;
  SanitizerBounds& operator=(const SanitizerBounds&) = delete;
  SanitizerBounds(SanitizerBounds&&) = delete;
  SanitizerBounds& operator=(SanitizerBounds&&) = delete;

 private:
  nvtxDomainHandle_t domain_ = nullptr;
  std::vector<nvtxMemHeapHandle_t> heaps_;  // one an allocation
};

}  // namespace labrun
