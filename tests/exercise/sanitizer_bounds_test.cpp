#include "exercise/sanitizer_bounds.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <vector>

// Names, not the namespace: this file shares a unity file with others.
using labrun::OwnedRegion;
using labrun::ranges_by_allocation;

namespace {

// Host bytes standing in for the child's device allocations: only addresses are compared.
std::vector<unsigned char> sanitizer_bounds_memory(4096);

OwnedRegion sanitizer_bounds_at(std::size_t offset, std::size_t bytes) {
  return {sanitizer_bounds_memory.data() + offset, bytes};
}

}  // namespace

TEST_CASE("sanitizer bounds: each range the call is given goes to the allocation that holds it") {
  const std::vector<OwnedRegion> allocations = {sanitizer_bounds_at(0, 1024), sanitizer_bounds_at(1024, 1024),
                                                sanitizer_bounds_at(2048, 1024)};
  // The first allocation's middle, the second's start and its end at a later slot; none of the third.
  const std::vector<OwnedRegion> given = {sanitizer_bounds_at(256, 512), sanitizer_bounds_at(1024, 64),
                                          sanitizer_bounds_at(2000, 48)};
  const auto ranges = ranges_by_allocation(allocations, given);
  REQUIRE(ranges.size() == 3);
  REQUIRE(ranges[0].size() == 1);
  CHECK(ranges[0][0].data == given[0].data);
  CHECK(ranges[0][0].bytes == 512);
  REQUIRE(ranges[1].size() == 2);
  CHECK(ranges[1][0].data == given[1].data);
  CHECK(ranges[1][1].data == given[2].data);
  CHECK(ranges[2].empty());  // wholly off-limits while the bounds stand
}

TEST_CASE("sanitizer bounds: a range outside every allocation, across two, or empty is the child's error") {
  using Catch::Matchers::ContainsSubstring;
  const std::vector<OwnedRegion> allocations = {sanitizer_bounds_at(0, 1024),
                                                sanitizer_bounds_at(1024, 1024)};
  // Past the last allocation's end by one byte.
  CHECK_THROWS_WITH(ranges_by_allocation(allocations, {sanitizer_bounds_at(1500, 549)}),
                    ContainsSubstring("not inside one allocation"));
  // Across the boundary between two allocations, each byte of it owned.
  CHECK_THROWS_WITH(ranges_by_allocation(allocations, {sanitizer_bounds_at(1000, 48)}),
                    ContainsSubstring("not inside one allocation"));
  CHECK_THROWS_WITH(ranges_by_allocation(allocations, {sanitizer_bounds_at(100, 0)}),
                    ContainsSubstring("empty"));
  // Exactly a whole allocation is inside it.
  CHECK(ranges_by_allocation(allocations, {sanitizer_bounds_at(1024, 1024)})[1].size() == 1);
}

TEST_CASE("sanitizer bounds: overlapping allocations are the child's error") {
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(ranges_by_allocation({sanitizer_bounds_at(0, 1024), sanitizer_bounds_at(512, 1024)}, {}),
                    ContainsSubstring("overlap"));
  CHECK(ranges_by_allocation({sanitizer_bounds_at(0, 1024), sanitizer_bounds_at(1024, 1024)}, {}).size() ==
        2);
}
