// What a declaration records without a device; the session it opens is covered by the GPU tests
// (every registered lab, tests/gpu/registered_labs_smoke_test.cpp).

#include "cases/declared_lab.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "cases/reference_cases.hpp"
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

TEST_CASE("a lab's sizes, its correctness image and its card cases are declared once, in the declaration") {
  labrun::LabDeclaration lab("grid-lab");
  lab.correctness_image({7, 5});
  lab.sizes({labrun::image_size("small", 64, 32), labrun::card_scaled_image()});
  const labrun::BufferId grid = lab.input("grid", 1, 0.0f, 1.0f);
  const labrun::BufferId out = lab.output("out");
  const labrun::RegionBuilder region =
      labrun::image_region([](const float*, float*, std::size_t, std::size_t, cudaStream_t) {}, grid, out);
  const labrun::CheckId check = lab.check(
      {"step", region, out, [](const labrun::HostInputs&, std::uint64_t n) { return std::vector<double>(n); },
       labrun::Tolerance{}});
  lab.add_case({labrun::case_spec("grid-lab/part/step", "step", labrun::ByteModel{4, 4, 1}),
                check,
                region,
                {},
                {labrun::declared_figure("global loads", "per cell", 5.0, "counted")}});
  const labrun::CardCases card = labrun::add_card_cases(lab, "card", grid);

  const labrun::Lab declared = labrun::declared(lab);
  CHECK(declared.name == "grid-lab");
  CHECK(declared.correctness_elements == 35);
  CHECK(declared.correctness_shape == labrun::Shape{7, 5});
  // A case that names no sizes runs at the lab's; its figures travel with its spec.
  const labrun::CaseSpec* step = declared.find_case("grid-lab/part/step");
  REQUIRE(step != nullptr);
  CHECK(step->describe_sizes() == "small 64x32, card-scaled image");
  REQUIRE(step->figures.size() == 1);
  CHECK(*step->figures[0].value == 5.0);
  // The card's cases: the copies at the lab's sizes as 1-D sizes, the roofline and card figures named.
  const labrun::CaseSpec* copy = declared.find_case(card.copies.copy);
  REQUIRE(copy != nullptr);
  CHECK(copy->describe_sizes() == "small 2048, card-scaled");
  CHECK(declared.find_case(card.peak_fma) != nullptr);
  CHECK(declared.find_case(card.empty_launch) != nullptr);
  CHECK(declared.roofline.memory_ceiling_cases ==
        std::vector<std::string>{card.copies.copy, card.copies.memcpy});
  CHECK(declared.roofline.compute_ceiling_case == card.peak_fma);
  CHECK(declared.card_figures.copy_floor_case == card.copies.copy);
  CHECK(declared.card_figures.ceiling_cases == std::vector<std::string>{card.copies.memcpy});
  CHECK(declared.card_figures.launch_case == card.empty_launch);
  // What a lab sets itself stands.
  labrun::Lab own;
  own.name = "grid-lab";
  own.card_figures.launch_case = "grid-lab/part/step";
  CHECK(labrun::declared(own, lab).card_figures.launch_case == "grid-lab/part/step");
  // Card cases need the lab's sizes first.
  labrun::LabDeclaration sizeless("sizeless");
  const labrun::BufferId x = sizeless.input("x", 1, 0.0f, 1.0f);
  CHECK_THROWS_AS(labrun::add_card_cases(sizeless, "card", x), std::invalid_argument);
}

TEST_CASE("an image reference is given the correctness image's width and height") {
  labrun::LabDeclaration lab("example");
  const labrun::BufferId image = lab.input("image", 1, 0.0f, 1.0f);
  const auto reference = labrun::image_reference(
      [](const std::vector<float>& pixels, std::size_t width, std::size_t height) {
        return std::vector<double>{static_cast<double>(pixels.size()), static_cast<double>(width),
                                   static_cast<double>(height)};
      },
      image);
  std::map<std::size_t, std::vector<float>> inputs{{image.index(), std::vector<float>(15)}};
  const labrun::HostInputs on_image(inputs, labrun::Shape{5, 3});
  CHECK(reference(on_image, 15) == std::vector<double>{15.0, 5.0, 3.0});
  CHECK_THROWS_AS(reference(on_image, 16), std::invalid_argument);
  const labrun::HostInputs linear(inputs);
  CHECK_THROWS_AS(reference(linear, 15), std::invalid_argument);
}
