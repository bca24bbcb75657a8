#include "exercise/launch_plan.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;
using labrun::plan_launch;

TEST_CASE("a fixed number of elements per thread covers n with whole blocks") {
  const auto plan = plan_launch({256, 1, false}, 1049187, 1024, 0);
  CHECK(plan.problem.empty());
  CHECK(plan.blocks == 4099);
  CHECK(plan.threads == 256);
  CHECK(plan.describe() == "4099 blocks of 256 threads");
  CHECK(plan_launch({256, 4, false}, 1049187, 1024, 0).blocks == 1025);
  CHECK(plan_launch({128, 4, false}, 1, 1024, 0).blocks == 1);
}

TEST_CASE("a grid-stride shape fills the card once, never more blocks than elements need") {
  CHECK(plan_launch({512, 1, true}, 134217728, 1024, std::uint64_t{132} * 4).blocks == 528);
  CHECK(plan_launch({512, 1, true}, 1000, 1024, 528).blocks == 2);
}

TEST_CASE("a shape the kernel cannot run is refused with a reason") {
  CHECK_THAT(plan_launch({1024, 1, false}, 100, 768, 0).problem,
             ContainsSubstring("more than this kernel can run (768"));
  CHECK_THAT(plan_launch({256, 1, true}, 100, 1024, 0).problem, ContainsSubstring("occupancy is zero"));
  CHECK_THAT(plan_launch({32, 1, false}, 1ull << 40, 1024, 0).problem,
             ContainsSubstring("more than a grid may have"));
}

TEST_CASE("a finishing step is one block of the shape's threads, whatever n") {
  const auto plan = labrun::plan_one_block({512, 4, false}, 1024);
  CHECK(plan.problem.empty());
  CHECK(plan.blocks == 1);
  CHECK(plan.threads == 512);
  CHECK(plan.describe() == "1 block of 512 threads");
  CHECK_THAT(labrun::plan_one_block({1024, 1, true}, 512).problem,
             ContainsSubstring("more than this kernel can run"));
}

TEST_CASE("an image kernel's 2-D shape covers width and height with whole blocks") {
  const labrun::LaunchShape shape{32, 1, false, 8, 4, true};
  const auto plan = labrun::plan_image_launch(shape, 1001, 1047, 1024);
  CHECK(plan.problem.empty());
  CHECK(plan.blocks == 32);    // ceil(1001 / 32)
  CHECK(plan.blocks_y == 33);  // ceil(1047 / (8 * 4))
  CHECK(plan.threads == 32);
  CHECK(plan.threads_y == 8);
  CHECK(plan.describe() == "32 x 33 blocks of 32 x 8 threads");
  CHECK_THAT(labrun::plan_image_launch({256, 1, false}, 1001, 1047, 1024).problem,
             ContainsSubstring("[x, y]"));
  CHECK_THAT(labrun::plan_image_launch({64, 1, false, 16, 1, true}, 100, 100, 768).problem,
             ContainsSubstring("1024 threads per block is more than this kernel can run"));
  CHECK_THAT(plan_launch(shape, 1000, 1024, 0).problem, ContainsSubstring("as numbers"));
}
