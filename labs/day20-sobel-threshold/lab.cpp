// Day 20, as the day-48 lesson opens with it: a Sobel edge magnitude on a float image and a
// threshold of it, staged (two kernels and an intermediate image) and fused (one kernel). On a
// Tesla T4 fusing them took 2.565 ms to 1.323 ms while the traffic fell from 218 MB to 84 MB
// (the lesson's figures, transcribed in evidence/day20-sobel-threshold/tesla-t4-lesson/): the
// speedup follows the bytes, and the one launch fusion removes is microseconds against
// milliseconds. The lab's whole declaration is this file, kernels.cu (its launchers, declared in
// kernels.hpp) and reference.cpp.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/format.hpp"
#include "cases/declared_lab.hpp"
#include "cases/reference_cases.hpp"
#include "kernels.hpp"
#include "registry/lab.hpp"

namespace day20 {

// reference.cpp
std::vector<double> sobel_reference(const std::vector<float>& image, std::size_t width, std::size_t height);
std::vector<double> mask_reference(const std::vector<float>& image, std::size_t width, std::size_t height,
                                   float threshold, double ambiguity);

namespace {

const std::string kLab = "day20-sobel-threshold";
const std::string kStaged = labrun::case_name(kLab, "edges", "staged");
const std::string kFused = labrun::case_name(kLab, "edges", "fused");
const std::string kSobel = labrun::case_name(kLab, "edges", "sobel");
const std::string kThreshold = labrun::case_name(kLab, "edges", "threshold");

// Pixels uniform in [0, 1] give gradients of unit spread: a magnitude above 1 marks about 60% of
// them as edges, so the mask is neither empty nor full.
constexpr float kEdgeThreshold = 1.0f;
constexpr float kPixelLow = 0.0f;
constexpr float kPixelHigh = 1.0f;
// A magnitude within this relative distance of the threshold may round to either side in float32.
constexpr double kAmbiguity = 1e-5;

// The lesson's image: its 84 MB fused traffic at 5 B a pixel (a float read, a byte written) is
// 16.8 million pixels, 4096 x 4096 (83.9 MB; the staged 13 B a pixel gives its 218 MB).
constexpr std::uint64_t kLessonSide = 4096;
// Odd in both directions, and neither a multiple of the 32 x 8 block: every bounds check fires.
const labrun::Shape kCorrectnessImage{1001, 999};
constexpr int kThreadsPerBlock = 256;

// Per pixel. The Sobel kernel reads the image once from DRAM (its neighbours' reads hit the
// caches) and writes a float magnitude; the threshold reads it and writes a byte.
constexpr double kSobelFlops = 18.0;  // kernels.cu's sobel_at: 7 per gradient, 3, 1 square root
const labrun::ByteModel kSobelModel = labrun::with_flops({4.0, 4.0, 1}, kSobelFlops);
const labrun::ByteModel kThresholdModel = labrun::with_flops({4.0, 1.0, 1}, 0.0);
const labrun::ByteModel kStagedModel = labrun::with_flops({8.0, 5.0, 2}, kSobelFlops);
const labrun::ByteModel kFusedModel = labrun::with_flops({4.0, 1.0, 1}, kSobelFlops);

std::vector<double> mask_of(const std::vector<float>& image, std::size_t width, std::size_t height) {
  return mask_reference(image, width, height, kEdgeThreshold, kAmbiguity);
}

labrun::LabDeclaration declare() {
  labrun::LabDeclaration lab(kLab);
  lab.correctness_image(kCorrectnessImage);
  lab.sizes({labrun::image_size("lesson", kLessonSide, kLessonSide), labrun::card_scaled_image()});
  const labrun::BufferId image = lab.input("image", 1, kPixelLow, kPixelHigh);
  const labrun::BufferId magnitude = lab.output("magnitude");
  const labrun::ByteBufferId mask = lab.byte_output("mask");

  const labrun::RegionBuilder staged = labrun::image_region(
      [](const float* in, float* between, std::uint8_t* out, std::size_t width, std::size_t height,
         cudaStream_t s) {
        launch_sobel(in, between, width, height, s);
        launch_threshold(between, out, width * height, kEdgeThreshold, s);
      },
      image, magnitude, mask);
  const labrun::RegionBuilder fused =
      labrun::image_region([](const float* in, std::uint8_t* out, std::size_t width, std::size_t height,
                              cudaStream_t s) { launch_fused(in, out, width, height, kEdgeThreshold, s); },
                           image, mask);
  const labrun::RegionBuilder sobel = labrun::image_region(launch_sobel, image, magnitude);
  const labrun::RegionBuilder threshold =
      labrun::linear_region([](const float* in, std::uint8_t* out, std::size_t n,
                               cudaStream_t s) { launch_threshold(in, out, n, kEdgeThreshold, s); },
                            magnitude, mask);

  // 0.5 absolute: a mask value is 0 or 1, so only an ambiguous pixel's 0.5 accepts either.
  const labrun::Tolerance mask_tolerance{0.5, 0.0};
  const auto mask_expected = labrun::image_reference(mask_of, image);
  const labrun::CheckId staged_check =
      lab.add_checked_case(labrun::case_spec(kStaged, "staged: Sobel, then threshold", kStagedModel),
                           {"staged", staged, mask, mask_expected, mask_tolerance, "mask"},
                           labrun::kernel_attributes(sobel_kernel(), kThreadsPerBlock));
  const labrun::CheckId fused_check =
      lab.add_checked_case(labrun::case_spec(kFused, "fused: Sobel and threshold", kFusedModel),
                           {"fused", fused, mask, mask_expected, mask_tolerance, "mask"},
                           labrun::kernel_attributes(fused_kernel(), kThreadsPerBlock));
  lab.add_checked_case(labrun::case_spec(kSobel, "Sobel alone", kSobelModel),
                       {"sobel", sobel, magnitude, labrun::image_reference(sobel_reference, image),
                        labrun::Tolerance{1e-5, 1e-5}},
                       labrun::kernel_attributes(sobel_kernel(), kThreadsPerBlock));
  // It reads the magnitude the last staged or Sobel execution wrote (primed below).
  lab.add_case(
      {labrun::case_spec(kThreshold, "threshold alone", kThresholdModel), staged_check, threshold, {}});
  lab.compare_bitwise(fused_check, staged_check);
  labrun::add_card_cases(lab, "card", image);

  // The threshold case reads a magnitude: the whole buffer is written once the inputs are filled and
  // again after the checks have poisoned it.
  lab.prime([image, magnitude](labrun::RegionContext& ctx, std::uint64_t capacity) -> std::function<void()> {
    const float* in = ctx[image];
    float* out = ctx[magnitude];
    const cudaStream_t s = ctx.stream();
    return [in, out, capacity, s] { launch_sobel(in, out, capacity, 1, s); };
  });
  lab.facts([] { return labrun::compiled_kernel_facts(fused_kernel(), kThreadsPerBlock); });
  return lab;
}

// The one launch fusion removes, against the time it saves at the lesson's size: what a launch costs
// (the empty kernel's time per launch) over staged minus fused. Held under 5%.
void launch_cost_is_negligible(const std::string& launch_case, const labrun::Transcript& t,
                               labrun::ClaimResult& result) {
  result.figures = "the median times of " + kStaged + " and " + kFused +
                   " at the lesson size, and the time per launch of " + launch_case;
  result.tolerance = "at most 5% of the time fusion saves";
  const labrun::CaseResult* staged = t.find_case(kStaged, "lesson");
  const labrun::CaseResult* fused = t.find_case(kFused, "lesson");
  const labrun::CaseResult* launch = t.find_case(launch_case);
  if (staged == nullptr || fused == nullptr || launch == nullptr || staged->central_ms() <= 0.0 ||
      fused->central_ms() <= 0.0 || launch->central_ms() <= 0.0) {
    result.verdict = labrun::Verdict::kNotMeasured;
    result.detail = "needs the staged and fused cases at the lesson size and the empty launch timed";
    return;
  }
  const double saved_ms = staged->central_ms() - fused->central_ms();
  const double launch_ms = launch->central_ms() / static_cast<double>(launch->launches_per_sample);
  if (saved_ms <= 0.0) {
    result.verdict = labrun::Verdict::kFailed;
    result.detail = "fusion saved no time: staged " + labrun::fixed(staged->central_ms(), 4) + " ms, fused " +
                    labrun::fixed(fused->central_ms(), 4) + " ms";
    return;
  }
  result.measured = launch_ms / saved_ms;
  result.bound_high = 0.05;
  result.verdict = *result.measured <= 0.05 ? labrun::Verdict::kHeld : labrun::Verdict::kFailed;
  result.detail = "a launch costs " + labrun::fixed(launch_ms * 1000.0, 2) + " us; fusion saved " +
                  labrun::fixed(saved_ms, 4) + " ms (" + labrun::percent(*result.measured) + ")";
}

}  // namespace

labrun::Lab make_lab() {
  labrun::Lab lab = labrun::declared(declare());
  lab.title = "Day 20: Sobel and threshold, staged and fused";
  lab.summary = "A Sobel edge magnitude and its threshold, two kernels against one: time follows the bytes";
  lab.predictions = {{"staged over fused", kStaged, kFused}};
  lab.stability_case = kFused;
  const std::string launch_case = lab.card_figures.launch_case;
  lab.claims = {
      labrun::byte_ratio_claim(
          "speedup-follows-traffic",
          "At the card-scaled size, where the L2 cannot hold the intermediate image, staged "
          "over fused follows the byte ratio {byte_ratio} (13 B against 5 B a pixel), not the "
          "launch ratio {launch_ratio}",
          lab.cases, kStaged, kFused, "card-scaled", 0.15),
      labrun::custom_claim("launch-cost-is-negligible",
                           "At the lesson's image size, the launch fusion removes costs under 5% of the time "
                           "fusion saves: the saving is bytes, not launches",
                           {kStaged, kFused, launch_case},
                           [launch_case](const labrun::Transcript& t, labrun::ClaimResult& result) {
                             launch_cost_is_negligible(launch_case, t, result);
                           }),
      labrun::bitwise_equal_claim("fused-and-staged-masks-agree",
                                  "The fused and staged masks agree bit for bit", "fused", "staged", false),
  };
  return lab;
}

}  // namespace day20
