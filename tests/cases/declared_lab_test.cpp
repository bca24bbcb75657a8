// What a declaration records without a device; the session it opens is covered by the GPU tests
// (every registered lab, tests/gpu/registered_labs_smoke_test.cpp).

#include "cases/declared_lab.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

TEST_CASE("an output of its own element count keeps the count; a plain output holds max_elements") {
  labrun::LabDeclaration lab("example");
  const labrun::BufferId x = lab.input("x", 1, -1.0f, 1.0f);
  const labrun::BufferId y = lab.output("y");
  const labrun::BufferId sum = lab.output("sum", [] { return std::size_t{1}; });
  REQUIRE(lab.buffers().size() == 3);
  CHECK_FALSE(lab.buffers()[x.index()].elements);
  CHECK_FALSE(lab.buffers()[y.index()].elements);
  REQUIRE(lab.buffers()[sum.index()].elements);
  CHECK(lab.buffers()[sum.index()].elements() == 1);
  CHECK_FALSE(lab.buffers()[sum.index()].input);
  CHECK(lab.buffers()[sum.index()].name == "sum");
}

TEST_CASE("an output declared with no element count is refused") {
  labrun::LabDeclaration lab("example");
  CHECK_THROWS_AS(lab.output("partials", nullptr), std::invalid_argument);
}

TEST_CASE("the compiled kernels' facts: versions as major.minor and the block size") {
  const std::vector<labrun::Fact> facts = labrun::compiled_kernel_facts(90, 75, 256);
  REQUIRE(facts.size() == 3);
  CHECK(facts[0].key == "kernel_binary_version");
  CHECK(std::get<std::string>(*facts[0].value) == "9.0");
  CHECK(facts[1].key == "kernel_ptx_version");
  CHECK(std::get<std::string>(*facts[1].value) == "7.5");
  CHECK(facts[2].key == "threads_per_block");
  CHECK(std::get<std::int64_t>(*facts[2].value) == 256);
}
