#include "exercise/sanitizer_bounds.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace labrun {

namespace {

std::uintptr_t begin_of(const OwnedRegion& region) {
  return reinterpret_cast<std::uintptr_t>(region.data);
}
std::uintptr_t end_of(const OwnedRegion& region) {
  return begin_of(region) + region.bytes;
}

}  // namespace

std::vector<std::vector<OwnedRegion>> ranges_by_allocation(const std::vector<OwnedRegion>& allocations,
                                                           const std::vector<OwnedRegion>& given) {
  for (std::size_t a = 0; a < allocations.size(); ++a) {
    for (std::size_t b = a + 1; b < allocations.size(); ++b) {
      if (begin_of(allocations[a]) < end_of(allocations[b]) &&
          begin_of(allocations[b]) < end_of(allocations[a])) {
        throw std::logic_error("sanitizer bounds: two of the child's allocations overlap");
      }
    }
  }
  std::vector<std::vector<OwnedRegion>> ranges(allocations.size());
  for (std::size_t g = 0; g < given.size(); ++g) {
    const OwnedRegion& range = given[g];
    const auto holder =
        std::find_if(allocations.begin(), allocations.end(), [&](const OwnedRegion& allocation) {
          return begin_of(allocation) <= begin_of(range) && end_of(range) <= end_of(allocation);
        });
    if (range.bytes == 0 || holder == allocations.end()) {
      throw std::logic_error("sanitizer bounds: range " + std::to_string(g) + " of the call's (" +
                             std::to_string(range.bytes) + " bytes) is " +
                             (range.bytes == 0 ? "empty" : "not inside one allocation the child owns"));
    }
    ranges[static_cast<std::size_t>(holder - allocations.begin())].push_back(range);
  }
  return ranges;
}

SanitizerBounds::SanitizerBounds(const std::vector<OwnedRegion>& allocations,
                                 const std::vector<OwnedRegion>& given) {
  const std::vector<std::vector<OwnedRegion>> ranges = ranges_by_allocation(allocations, given);
  domain_ = nvtxDomainCreateA("labrun grading child");
  heaps_.reserve(allocations.size());
  for (std::size_t a = 0; a < allocations.size(); ++a) {
    const nvtxMemVirtualRangeDesc_t whole{allocations[a].bytes, allocations[a].data};
    nvtxMemHeapDesc_t heap{};
    heap.extCompatID = NVTX_EXT_COMPATID_MEM;
    heap.structSize = sizeof heap;
    heap.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;  // no access until a region is registered
    heap.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    heap.typeSpecificDescSize = sizeof whole;
    heap.typeSpecificDesc = &whole;
    const nvtxMemHeapHandle_t handle = nvtxMemHeapRegister(domain_, &heap);
    heaps_.push_back(handle);
    if (ranges[a].empty()) {
      continue;
    }
    std::vector<nvtxMemVirtualRangeDesc_t> regions;
    regions.reserve(ranges[a].size());
    for (const OwnedRegion& range : ranges[a]) {
      regions.push_back({range.bytes, range.data});
    }
    nvtxMemRegionsRegisterBatch_t batch{};
    batch.extCompatID = NVTX_EXT_COMPATID_MEM;
    batch.structSize = sizeof batch;
    batch.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    batch.heap = handle;
    batch.regionCount = regions.size();
    batch.regionDescElementSize = sizeof(nvtxMemVirtualRangeDesc_t);
    batch.regionDescElements = regions.data();
    batch.regionHandleElementsOut = nullptr;  // virtual-address regions are named by their pointers
    nvtxMemRegionsRegister(domain_, &batch);
  }
}

SanitizerBounds::~SanitizerBounds() {
  for (const nvtxMemHeapHandle_t heap : heaps_) {
    nvtxMemHeapUnregister(domain_, heap);  // its regions with it
  }
  nvtxDomainDestroy(domain_);
}

}  // namespace labrun
