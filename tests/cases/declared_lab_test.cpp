// What a declaration records without a device; the session it opens is covered by the GPU tests
// (every registered lab, tests/gpu/registered_labs_smoke_test.cpp).

#include "cases/declared_lab.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "registry/lab.hpp"

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

namespace {

// A region context with no device: each buffer's "pointer" is a distinct address inside host arrays
// of its own, so a region built from it can be run and what it passes to its launcher checked.
class HostContext final : public labrun::RegionContext {
 public:
  explicit HostContext(std::optional<labrun::Shape> shape) : shape_(shape) {}
  float* operator[](labrun::BufferId buffer) const override { return floats_ + buffer.index(); }
  std::uint8_t* operator[](labrun::ByteBufferId buffer) const override { return bytes_ + buffer.index(); }
  std::optional<labrun::Shape> shape() const override { return shape_; }
  cudaStream_t stream() const override { return nullptr; }
  cudaGraphExec_t graph(const std::string& /*key*/, std::uint64_t /*n*/,
                        const std::function<void(cudaStream_t)>& /*enqueue*/) override {
    throw std::logic_error("no graphs without a device");
  }
  float* floats_ = floats_storage_;
  std::uint8_t* bytes_ = bytes_storage_;

 private:
  std::optional<labrun::Shape> shape_;
  float floats_storage_[8] = {};
  std::uint8_t bytes_storage_[8] = {};
};

}  // namespace

TEST_CASE("the harness's regions pass a case's buffers, its n or its image, and the stream to the launcher") {
  labrun::LabDeclaration lab("example");
  const labrun::BufferId image = lab.input("image", 1, 0.0f, 1.0f);
  const labrun::BufferId magnitude = lab.output("magnitude");
  const labrun::ByteBufferId mask = lab.byte_output("mask");
  REQUIRE(lab.buffers().size() == 3);
  CHECK(lab.buffers()[mask.index()].bytes);
  CHECK_FALSE(lab.buffers()[magnitude.index()].bytes);

  HostContext context(labrun::Shape{8, 4});
  const float* seen_in = nullptr;
  std::uint8_t* seen_out = nullptr;
  std::size_t seen_n = 0;
  const labrun::RegionBuilder linear = labrun::linear_region(
      [&](const float* in, std::uint8_t* out, std::size_t n, cudaStream_t /*stream*/) {
        seen_in = in;
        seen_out = out;
        seen_n = n;
      },
      magnitude, mask);
  linear(context, 32)();
  CHECK(seen_in == context[magnitude]);
  CHECK(seen_out == context[mask]);
  CHECK(seen_n == 32);

  std::size_t seen_width = 0;
  std::size_t seen_height = 0;
  const labrun::RegionBuilder two_d = labrun::image_region(
      [&](const float* in, float* out, std::size_t width, std::size_t height, cudaStream_t /*stream*/) {
        seen_in = in;
        CHECK(out == context[magnitude]);
        seen_width = width;
        seen_height = height;
      },
      image, magnitude);
  two_d(context, 32)();
  CHECK(seen_in == context[image]);
  CHECK(seen_width == 8);
  CHECK(seen_height == 4);
  // Built at a size that is not the context's image, or with no image at all: refused as it is built.
  CHECK_THROWS_AS(two_d(context, 31), std::invalid_argument);
  HostContext linear_only(std::nullopt);
  CHECK_THROWS_AS(two_d(linear_only, 32), std::invalid_argument);
}

TEST_CASE("a declared lab counts its buffers of max_elements; its cases come from the declaration") {
  labrun::LabDeclaration lab("example");
  const labrun::BufferId x = lab.input("x", 1, 0.0f, 1.0f);
  lab.byte_output("mask");
  lab.output("sum", [] { return std::size_t{1}; });
  const labrun::CheckId check =
      lab.check({"copy", labrun::linear_region([](const float*, std::size_t, cudaStream_t) {}, x), x,
                 [](const labrun::HostInputs&, std::uint64_t n) { return std::vector<double>(n); },
                 labrun::Tolerance{}});
  lab.add_case({labrun::case_spec("example/part/copy", "copy", labrun::ByteModel{4, 4, 1}, {{"lesson", 16}}),
                check,
                labrun::linear_region([](const float*, std::size_t, cudaStream_t) {}, x),
                {}});
  const labrun::Lab declared = labrun::declared(labrun::Lab{}, lab);
  CHECK(declared.buffers_at_max_size == 2);  // x and the mask; the sum is one float
  REQUIRE(declared.cases.size() == 1);
  CHECK(declared.cases[0].verified_by == "copy");
  CHECK(declared.open_session);
}
