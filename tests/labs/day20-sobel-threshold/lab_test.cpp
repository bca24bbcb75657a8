// Day 20 on the host: its declaration as the registry holds it, its float64 reference, and the
// lesson's transcribed T4 figures.

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "claims/claims.hpp"
#include "evidence/markdown.hpp"
#include "evidence/transcript_file.hpp"
#include "registry/registry.hpp"

namespace day20 {
// labs/day20-sobel-threshold/reference.cpp
std::vector<double> sobel_reference(const std::vector<float>& image, std::size_t width, std::size_t height);
std::vector<double> mask_reference(const std::vector<float>& image, std::size_t width, std::size_t height,
                                   float threshold, double ambiguity);
}  // namespace day20

namespace {

const labrun::Lab& day20_lab() {
  const labrun::Lab* lab = labrun::registered_labs().find("day20-sobel-threshold");
  REQUIRE(lab != nullptr);
  return *lab;
}

const labrun::CaseSpec& spec_of(const std::string& name) {
  const labrun::CaseSpec* spec = day20_lab().find_case("day20-sobel-threshold/" + name);
  REQUIRE(spec != nullptr);
  return *spec;
}

}  // namespace

TEST_CASE("day 20: staged and fused move 13 and 5 bytes a pixel, the lesson's 218 and 84 MB at 4096 x 4096") {
  const labrun::CaseSpec staged = spec_of("edges/staged");
  const labrun::CaseSpec fused = spec_of("edges/fused");
  CHECK(staged.model.bytes_per_element() == 13.0);
  CHECK(fused.model.bytes_per_element() == 5.0);
  CHECK(staged.model.launches == 2);
  CHECK(fused.model.launches == 1);
  // The same work in both: the same flops, at different intensities.
  REQUIRE(staged.model.flops_per_element.has_value());
  CHECK(staged.model.flops_per_element == fused.model.flops_per_element);
  CHECK(staged.describe_sizes() == "lesson 4096x4096, card-scaled image");
  const double pixels = 4096.0 * 4096.0;
  CHECK(labrun::model_bytes(staged.model, 4096 * 4096) / 1e6 == Catch::Approx(218.0).margin(0.5));
  CHECK(labrun::model_bytes(fused.model, 4096 * 4096) / 1e6 == Catch::Approx(84.0).margin(0.5));
  CHECK(pixels == 16777216.0);
  const labrun::Lab& lab = day20_lab();
  REQUIRE(lab.correctness_shape.has_value());
  CHECK(lab.correctness_shape->width % 2 == 1);
  CHECK(lab.correctness_shape->height % 2 == 1);
  CHECK(lab.correctness_elements == lab.correctness_shape->elements());
}

TEST_CASE(
    "day 20's traffic claim expects the byte ratio of its models, and the roofline names its ceilings") {
  const labrun::Lab& lab = day20_lab();
  const labrun::ClaimSpec* traffic = nullptr;
  for (const labrun::ClaimSpec& claim : lab.claims) {
    if (claim.id == "speedup-follows-traffic") {
      traffic = &claim;
    }
  }
  REQUIRE(traffic != nullptr);
  CHECK(traffic->expected_from_byte_models);
  CHECK(traffic->bound.expected == Catch::Approx(2.6));
  CHECK_THAT(traffic->statement, Catch::Matchers::ContainsSubstring("byte ratio 2.60"));
  CHECK_THAT(traffic->statement, Catch::Matchers::ContainsSubstring("launch ratio 2.00"));
  CHECK(lab.roofline.compute_ceiling_case == "day20-sobel-threshold/card/peak-fma");
  CHECK(lab.roofline.memory_ceiling_cases.size() == 2);
}

TEST_CASE("day 20's reference: a flat image has no edges, a step has them on its two columns") {
  const std::size_t width = 5;
  const std::size_t height = 3;
  std::vector<float> flat(width * height, 0.25f);
  for (const double m : day20::sobel_reference(flat, width, height)) {
    CHECK(m == 0.0);
  }
  // Columns 0-1 dark (0), columns 2-4 bright (1): gx = 4 on columns 1 and 2, 0 elsewhere (edges clamped).
  std::vector<float> step(width * height, 0.0f);
  for (std::size_t y = 0; y < height; ++y) {
    for (std::size_t x = 2; x < width; ++x) {
      step[y * width + x] = 1.0f;
    }
  }
  const std::vector<double> magnitude = day20::sobel_reference(step, width, height);
  for (std::size_t y = 0; y < height; ++y) {
    CHECK(magnitude[y * width + 0] == 0.0);
    CHECK(magnitude[y * width + 1] == 4.0);
    CHECK(magnitude[y * width + 2] == 4.0);
    CHECK(magnitude[y * width + 3] == 0.0);
  }
  const std::vector<double> mask = day20::mask_reference(step, width, height, 1.0f, 1e-5);
  CHECK(mask[1] == 1.0);
  CHECK(mask[3] == 0.0);
  // A magnitude on the threshold itself may round either way in float32: either answer passes.
  const std::vector<double> on_edge = day20::mask_reference(step, width, height, 4.0f, 1e-5);
  CHECK(on_edge[1] == 0.5);
  CHECK(on_edge[0] == 0.0);
  CHECK_THROWS(day20::sobel_reference(flat, width, height + 1));
}

TEST_CASE("day 20's T4 figures are transcribed, not measured, and judged by the lab's claims") {
  const std::filesystem::path file = std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence" /
                                     "day20-sobel-threshold" / "tesla-t4-lesson" /
                                     "day20-as-quoted-by-day48.json";
  const labrun::Transcript t = labrun::read_transcript_file(
      file, [](const std::string& name) { return labrun::registered_labs().find(name); });
  CHECK(t.provenance == "transcribed");
  const labrun::CaseResult* staged = t.find_case("day20-sobel-threshold/edges/staged", "lesson");
  const labrun::CaseResult* fused = t.find_case("day20-sobel-threshold/edges/fused", "lesson");
  REQUIRE(staged != nullptr);
  REQUIRE(fused != nullptr);
  CHECK(staged->central_ms() == 2.565);
  CHECK(fused->central_ms() == 1.323);
  REQUIRE(staged->published.has_value());
  CHECK(staged->published->statistic == "not stated");
  REQUIRE(staged->shape.has_value());
  CHECK(*staged->shape == labrun::Shape{4096, 4096});
  // The lesson's speedup, 1.94, against its models' 2.60.
  CHECK(staged->central_ms() / fused->central_ms() == Catch::Approx(1.94).margin(0.01));
  const std::vector<labrun::ClaimResult> claims = labrun::claims_for(t, &day20_lab().claims);
  CHECK(claims.size() == day20_lab().claims.size());
  // A lab without tables of its own is reported with every case listed, not as missing from the build.
  const std::string markdown = labrun::render_markdown(t, &day20_lab(), "");
  CHECK_THAT(markdown,
             Catch::Matchers::ContainsSubstring("declares no tables of its own; every case is listed"));
  CHECK_THAT(markdown, Catch::Matchers::ContainsSubstring("transcribed, not measured by labrun"));
}
