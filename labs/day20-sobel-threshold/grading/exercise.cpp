// Day 20's graded exercise, declared (src/exercise/output_exercise.hpp): fuse the Sobel magnitude and
// its threshold into one kernel that writes the mask, as the lab's own fused case does. A submission
// is one kernel (the skeleton, grading/skeleton/sobel_threshold.cu):
//
//   extern "C" __global__ void sobel_threshold(const float* __restrict__ image,
//                                              unsigned char* __restrict__ mask, unsigned int width,
//                                              unsigned int height, float threshold);
//
// mask[y * width + x] = (the Sobel magnitude at (x, y), edges clamped, as kernels.cu's sobel_at) >
// threshold ? 1 : 0, launched over the image with the manifest's 2-D shape. Everything here is the
// lab's: its cases, its kernels as the reference, its inputs, its words; the harness grades it.
// docs/grading.md ("The sobel-threshold exercise") argues why the graded inputs catch each mistake.

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "../kernels.hpp"
#include "cases/fill.hpp"
#include "exercise/exercise_entry.hpp"
#include "exercise/output_exercise.hpp"

namespace day20 {
namespace grading {
// inputs.cu
void fill_whole_pixels(float* image, std::size_t n, std::uint64_t seed, cudaStream_t stream);
void mark_classes(const float* magnitude, unsigned char* classes, std::size_t width, std::size_t height,
                  float threshold, cudaStream_t stream);

namespace {

const std::string kStaged = "day20-sobel-threshold/edges/staged";
const std::string kFused = "day20-sobel-threshold/edges/fused";
// The lab's own inputs for its timed cases (lab.cpp: the input "image", stream 1, uniform in [0, 1],
// the threshold 1).
constexpr std::uint64_t kLabImageStream = 1;
constexpr float kLabThreshold = 1.0f;

float* image_of(const labrun::BufferPointers& at) {
  return static_cast<float*>(at.at("image"));
}

// Graded inputs: whole pixels 0 to 3 and a threshold of k, k drawn from 2 to 10 per call. Every
// magnitude is the square root of a whole number and k * k is one, so pixels sit exactly on the
// threshold (about one in twenty) and no other pixel is within a rounding of it: `>=` for `>` is
// caught at every size, and every correct square root gives the same mask.
labrun::Scalars graded_inputs(const labrun::BufferPointers& at, const labrun::CallExtent& extent,
                              std::uint64_t seed) {
  fill_whole_pixels(image_of(at), extent.elements(), seed, extent.stream);
  return {{"threshold", static_cast<double>(2 + seed % 9)}};
}

labrun::Scalars lab_inputs(const labrun::BufferPointers& at, const labrun::CallExtent& extent,
                           std::uint64_t seed) {
  labrun::fill_seeded_uniform(image_of(at), extent.elements(), seed, kLabImageStream, 0.0f, 1.0f,
                              extent.stream);
  return {{"threshold", kLabThreshold}};
}

float threshold_of(const labrun::Scalars& scalars) {
  return static_cast<float>(scalars.at("threshold"));
}

// The lab's cases as its lab runs them: staged (Sobel into the magnitude, then the threshold) and
// fused, in Exercise::lab_cases' order.
void launch_lab_case(std::size_t index, const labrun::BufferPointers& at, const labrun::Scalars& scalars,
                     const labrun::CallExtent& e) {
  auto* mask = static_cast<std::uint8_t*>(at.at("lab_mask"));
  if (index == 0) {
    launch_sobel(image_of(at), static_cast<float*>(at.at("magnitude")), e.image.width, e.image.height,
                 e.stream);
    launch_threshold(static_cast<float*>(at.at("magnitude")), mask, e.elements(), threshold_of(scalars),
                     e.stream);
  } else {
    launch_fused(image_of(at), mask, e.image.width, e.image.height, threshold_of(scalars), e.stream);
  }
}

labrun::OutputDeclaration declaration() {
  labrun::OutputDeclaration d;
  d.buffers = {{"image", sizeof(float), false}, {"mask", 1, true}};
  d.lab_buffers = {{"magnitude", sizeof(float), false}, {"lab_mask", 1, false}};
  d.graded_inputs = graded_inputs;
  d.lab_inputs = lab_inputs;
  d.reference = [](const labrun::BufferPointers& at, void* reference, const labrun::Scalars& scalars,
                   const labrun::CallExtent& e) {
    launch_fused(image_of(at), static_cast<std::uint8_t*>(reference), e.image.width, e.image.height,
                 threshold_of(scalars), e.stream);
  };
  d.classify = [](const labrun::BufferPointers& at, unsigned char* classes, const labrun::Scalars& scalars,
                  const labrun::CallExtent& e) {
    auto* magnitude = static_cast<float*>(at.at("magnitude"));
    launch_sobel(image_of(at), magnitude, e.image.width, e.image.height, e.stream);
    mark_classes(magnitude, classes, e.image.width, e.image.height, threshold_of(scalars), e.stream);
  };
  d.class_mistakes = {
      {"threshold-inclusive", 1, 1,
       "every wrong pixel has a magnitude exactly equal to the threshold and was marked an edge: the "
       "contract "
       "compares with >, not >="},
      {"edge-off-by-one", 0, -1,
       "every wrong pixel is on the image's one-pixel frame: clamp each neighbour to [0, width - 1] and [0, "
       "height - 1], the nearest pixel inside standing in for one outside"}};
  d.materialised = {
      {"magnitude-materialised", 0.25,
       "the magnitude image written to memory and read back is the traffic fusion removes; keep each "
       "pixel's magnitude in a register"}};
  d.launch_lab_case = launch_lab_case;
  d.element_noun = "pixel";
  return d;
}

labrun::Exercise sobel_threshold() {
  labrun::Exercise ex;
  ex.name = "sobel-threshold";
  ex.title = "Sobel and threshold fused: one kernel from the image to the mask";
  ex.summary = "one kernel of device code and a manifest with the worked answer";
  ex.kernels = {{"sobel_threshold",
                 {labrun::pointer_parameter("image", "const float*"),
                  labrun::pointer_parameter("mask", "unsigned char*"),
                  labrun::scalar_parameter<unsigned>("width", "unsigned int"),
                  labrun::scalar_parameter<unsigned>("height", "unsigned int"),
                  labrun::scalar_parameter<float>("threshold", "float")},
                 false,
                 true}};
  ex.default_shape = labrun::LaunchShape{32, 1, false, 8, 1, true};
  ex.skeleton = "labs/day20-sobel-threshold/grading/skeleton/sobel_threshold.cu";
  ex.answers = {{"bytes_per_element", false, 1000.0}, {"launches", true, 64.0}};
  ex.model_case = kFused;
  ex.predictions = {{"predicted_ratio_vs_staged", "the staged pair", kStaged, "", "staged / yours"}};
  ex.lab_cases = {{"staged_ms", "lab's staged pair", kStaged, false},
                  {"fused_ms", "lab's fused kernel", kFused, false}};
  ex.reference_case_key = "fused_ms";
  ex.slow_factor = 2.0;  // a tile in shared memory, or several pixels a thread, may cost a little
  ex.odd_elements = std::uint64_t{1001} * 1047;
  ex.odd_image = labrun::Shape{1001, 1047};
  ex.sanitize_elements = std::uint64_t{67} * 61;
  ex.sanitize_image = labrun::Shape{67, 61};
  ex.lesson_elements = std::uint64_t{4096} * 4096;
  ex.child_buffers = 3;       // image, magnitude (floats); mask, reference, classes, the lab's mask (bytes)
  ex.timed_call_buffers = 3;  // the same less the lab's mask, rounded up
  ex.default_seed = 3;
  labrun::ExerciseWording& w = ex.wording;
  w.contract =
      "the contract (labs/day20-sobel-threshold/grading/exercise.cpp, the skeleton sobel_threshold.cu)";
  w.parameters = "two pointers, the width and height as unsigned int and the threshold as float";
  w.submit = "the kernel's device code";
  w.includes = "a few standard headers and CUDA's own";
  w.submission_noun = "kernel";
  w.reference_name = "the lab's own fused kernel";
  w.slow_hint = "Look at the loads: a warp should read consecutive pixels of a row";
  w.timed_hint = "compute the mask from the image on every call";
  w.bytes_breakdown = "(the image read once as floats, the mask written as bytes)";
  w.bytes_hint = "count what is read and written per pixel: a float in, a byte out, no magnitude stored";
  w.bytes_hints = {{kStaged, 0.0,
                    "13 is the staged pair's: the magnitude written and read back is what fusion "
                    "removes"}};
  w.launches_sentence = "the fused kernel is 1 launch";
  w.correct_summary = "right at both sizes, one kernel, nothing outside the mask changed";
  w.structure_part = "the one kernel's structure";
  ex.rubric = labrun::exercise_rubric(
      {{"Correct at the odd image 1001 x 1047: alone, after the lab's kernel, on new inputs, and again", 10.0,
        "the mask equal to the lab's fused kernel's byte for byte on whole-pixel images with pixels on the "
        "threshold, in each of four calls"},
       {"Correct at the card-scaled image, likewise", 5.0,
        "the same at the card-scaled image (calls that are not "
        "timed)"},
       {"One kernel, no magnitude stored", 5.0,
        "no quarter of the pixels' worth of the kernel's own global memory written, no lab buffer touched"},
       {"Writes only its mask, leaves the image alone", 5.0,
        "in every call: every byte around the mask still poisoned, nothing else the grader owns changed, the "
        "image unchanged"}},
      w.reference_name, ex.slow_factor, ex.predictions.size());
  return labrun::output_exercise(std::move(ex), declaration());
}

}  // namespace

labrun::LabExercise sobel_threshold_entry(const labrun::Lab& lab) {
  return labrun::exercise_entry(lab, sobel_threshold(), labrun::SubmissionCase{});
}

}  // namespace grading
}  // namespace day20
