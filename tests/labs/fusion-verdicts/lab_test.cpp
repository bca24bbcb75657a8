#include "fusion-verdicts/lab.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <set>

#include "fusion-verdicts/constants.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"

namespace {

using verdicts::case_name;

const labrun::CaseSpec& spec(const labrun::Lab& lab, const std::string& part, const std::string& name) {
  const labrun::CaseSpec* found = lab.find_case(case_name(part, name));
  REQUIRE(found != nullptr);
  return *found;
}

constexpr std::uint64_t kH200CardScaled = std::uint64_t{1} << 27;  // 8 x 60 MiB, rounded up

}  // namespace

TEST_CASE("the lab is registered with the runner") {
  const labrun::Lab* lab = labrun::registered_labs().find("fusion-verdicts");
  REQUIRE(lab != nullptr);
  CHECK(lab->open_session);
  CHECK(lab->render_tables);
  CHECK(lab->plots);
  CHECK(lab->card_scaled_l2_multiple == 8);
  CHECK(lab->correctness_elements % 2 == 1);
  CHECK(lab->find_case(lab->stability_case) != nullptr);
}

TEST_CASE("each unfused and fused pair has the byte model of its comments") {
  const labrun::Lab lab = verdicts::make_lab();
  CHECK(spec(lab, verdicts::kFloorPart, "copy").model.bytes_per_element() == 8.0);

  const auto& two_passes = spec(lab, verdicts::kPairPart, "two-passes").model;
  const auto& fused = spec(lab, verdicts::kPairPart, "fused").model;
  CHECK(two_passes.read_bytes_per_element == 8.0);
  CHECK(two_passes.write_bytes_per_element == 8.0);
  CHECK(two_passes.launches == 2);
  CHECK(fused.bytes_per_element() == 8.0);
  CHECK(fused.launches == 1);

  const auto& sum_two = spec(lab, verdicts::kSumPart, "two-kernels").model;
  const auto& sum_folded = spec(lab, verdicts::kSumPart, "folded").model;
  CHECK(sum_two.read_bytes_per_element == 8.0);
  CHECK(sum_two.write_bytes_per_element == 4.0);
  CHECK(sum_two.launches == 3);  // square, partial sums, finish
  CHECK(sum_folded.read_bytes_per_element == 4.0);
  CHECK(sum_folded.write_bytes_per_element == 0.0);
  CHECK(sum_folded.launches == 2);

  // Reduction then elementwise: the same bytes, one launch apart.
  const auto& normalise_two = spec(lab, verdicts::kNormalisePart, "two-kernels").model;
  const auto& cooperative = spec(lab, verdicts::kNormalisePart, "cooperative").model;
  CHECK(normalise_two.bytes_per_element() == 12.0);
  CHECK(cooperative.bytes_per_element() == 12.0);
  CHECK(normalise_two.launches == 2);
  CHECK(cooperative.launches == 1);

  for (const int radius : verdicts::kStencilRadii) {
    CHECK(
        spec(lab, verdicts::kStencilPart, verdicts::stencil_case(radius, false)).model.bytes_per_element() ==
        16.0);
    CHECK(spec(lab, verdicts::kStencilPart, verdicts::stencil_case(radius, true)).model.bytes_per_element() ==
          8.0);
  }
  // R = 4: recompute reads x and a quarter of a float of a; materialise also reads and writes v.
  for (const bool expensive : {false, true}) {
    const auto& recompute = spec(lab, verdicts::kReusePart, verdicts::reuse_case(expensive, true, 4)).model;
    const auto& materialise =
        spec(lab, verdicts::kReusePart, verdicts::reuse_case(expensive, false, 4)).model;
    CHECK(recompute.read_bytes_per_element == 5.0);
    CHECK(recompute.write_bytes_per_element == 4.0);
    CHECK(recompute.launches == 1);
    CHECK(materialise.read_bytes_per_element == 6.0);
    CHECK(materialise.write_bytes_per_element == 5.0);
    CHECK(materialise.launches == 2);
  }
  CHECK(spec(lab, verdicts::kReusePart, "cheap-materialise-r1").model.bytes_per_element() == 20.0);
  CHECK(spec(lab, verdicts::kReusePart, "cheap-recompute-r1").model.bytes_per_element() == 12.0);
}

TEST_CASE("the predictions are the byte and launch ratios of the pairs") {
  const labrun::Lab lab = verdicts::make_lab();
  std::set<std::string> seen;
  for (const labrun::Prediction& p : lab.predictions) {
    const labrun::CaseSpec* slower = lab.find_case(p.slower_case);
    const labrun::CaseSpec* faster = lab.find_case(p.faster_case);
    REQUIRE(slower != nullptr);
    REQUIRE(faster != nullptr);
    const labrun::PredictedRatios r = labrun::predicted_ratios(slower->model, faster->model);
    if (p.slower_case == case_name(verdicts::kPairPart, "two-passes")) {
      CHECK(r.bytes == Catch::Approx(2.0));
      CHECK(r.launches == Catch::Approx(2.0));
    } else if (p.slower_case == case_name(verdicts::kSumPart, "two-kernels")) {
      CHECK(r.bytes == Catch::Approx(3.0));
      CHECK(r.launches == Catch::Approx(1.5));
    } else if (p.slower_case == case_name(verdicts::kNormalisePart, "two-kernels")) {
      CHECK(r.bytes == Catch::Approx(1.0));
      CHECK(r.launches == Catch::Approx(2.0));
    } else if (p.slower_case == case_name(verdicts::kStencilPart, verdicts::stencil_case(1, false))) {
      CHECK(r.bytes == Catch::Approx(2.0));
    }
    seen.insert(p.slower_case);
  }
  CHECK(seen.size() == lab.predictions.size());
}

TEST_CASE("the pair sweeps every power of two and keeps the lesson and card-scaled labels") {
  const labrun::Lab lab = verdicts::make_lab();
  const std::vector<labrun::ResolvedSize> sizes =
      labrun::resolve_sizes(spec(lab, verdicts::kPairPart, "two-passes"), kH200CardScaled, false);
  REQUIRE(sizes.size() == 18);  // 2^10 .. 2^27
  std::set<std::uint64_t> elements;
  for (const labrun::ResolvedSize& s : sizes) {
    elements.insert(s.elements);
    if (s.elements == verdicts::kLessonElements) {
      CHECK(s.label == "lesson");
    } else if (s.elements == kH200CardScaled) {
      CHECK(s.label == "card-scaled");
    } else {
      CHECK(s.label == "sweep");
    }
  }
  for (std::uint64_t n = 1024; n <= kH200CardScaled; n *= 2) {
    CHECK(elements.count(n) == 1);
  }
  // The smoke configuration stays at or below its cap.
  for (const labrun::ResolvedSize& s :
       labrun::resolve_sizes(spec(lab, verdicts::kPairPart, "fused"), std::nullopt, true)) {
    CHECK(s.elements <= labrun::kSmokeMaxElements);
  }
}

TEST_CASE("the whole lab is 93 timed runs on an H200") {
  const labrun::Lab lab = verdicts::make_lab();
  std::size_t runs = 0;
  for (const labrun::CaseSpec& c : lab.cases) {
    runs += labrun::resolve_sizes(c, kH200CardScaled, false).size();
  }
  // copy 2, pair 2 x 18, sums 2 x 2, normalise 2 x 2, stencils 2 x 4 + 2, recompute 4 x 9, and the
  // roofline's peak FMA 1.
  CHECK(runs == 93);
  CHECK(lab.cases.size() == 1 + 2 + 2 + 2 + 8 + 36 + 1);
}

TEST_CASE("every case names the correctness version of its own kernels") {
  const labrun::Lab lab = verdicts::make_lab();
  std::set<std::string> versions;
  for (const labrun::CaseSpec& c : lab.cases) {
    CHECK_FALSE(c.verified_by.empty());
    CHECK(c.verified_by == (c.part == "roofline"
                                ? std::string("peak-fma")
                                : verdicts::version_name(c.part, c.name.substr(c.name.rfind('/') + 1))));
    versions.insert(c.verified_by);
  }
  CHECK(versions.size() == lab.cases.size());
}

TEST_CASE("one claim per measured verdict row, and the chapter's two methods") {
  const labrun::Lab lab = verdicts::make_lab();
  std::set<std::string> ids;
  for (const labrun::ClaimSpec& c : lab.claims) {
    ids.insert(c.id);
    CHECK(c.cases.size() >= 2);
    for (const std::string& name : c.cases) {
      CHECK(lab.find_case(name) != nullptr);
    }
    if (c.kind == labrun::ClaimKind::kCustom) {
      CHECK(c.evaluate);
    } else {
      CHECK(c.size_label == verdicts::kClaimSize);
    }
  }
  CHECK(ids == std::set<std::string>{verdicts::kPairClaim, verdicts::kCrossoverClaim, verdicts::kSumClaim,
                                     verdicts::kNormaliseClaim, verdicts::kStencilClaim,
                                     verdicts::kEliminatedClaim, verdicts::kCheapReuseClaim,
                                     verdicts::kExpensiveReuseClaim});
}
