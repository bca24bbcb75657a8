#pragma once
// The fusion chapter's "elementwise then reduction: fuse with care", as a graded exercise
// (exercise/exercise.hpp): fold the square into the sum's loads, per-block partial sums of x[i]^2
// and a finishing step, with no array of n squares ever written. A submission is two kernels:
//
//   extern "C" __global__ void sum_of_squares_partials(const float* x, float* partials, std::size_t n);
//   extern "C" __global__ void sum_of_squares_finish(const float* partials, float* sum, std::size_t blocks);
//
// The first is launched with the manifest's shape over n; block b stores the sum of x[i]^2 over the
// elements it covers in partials[b] (the blocks together cover [0, n) once), and nothing else. The
// second is launched as one block of its shape's threads and stores the total of partials[0,
// blocks) in *sum, `blocks` being the first launch's grid. docs/grading.md says how it is graded.
// The declaration and its device side in the grading child are exercise.cpp, the checking kernels
// checks.cu; nvcc compiles this header too, so it names the harness's types without including them.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace labrun {
struct Exercise;
struct LabExercise;
struct Lab;
}  // namespace labrun

namespace verdicts::grading {

inline constexpr const char* kExerciseName = "sum-of-squares";
inline constexpr const char* kPartialsKernel = "sum_of_squares_partials";
inline constexpr const char* kFinishKernel = "sum_of_squares_finish";
//! Relative tolerance of `labrun run fusion-verdicts --submission`'s row, whose inputs are the lab's
//! own (uniform): the grader's calls get counted inputs, whose sums are exact (docs/grading.md, "The
//! tolerance").
inline constexpr double kSumTolerance = 1e-3;
//! The probes at each size, every one on counted inputs (exercise/counted_inputs.hpp) drawn from its
//! own seed, as every timed call is: alone; after the lab's two-kernel version ran on the same
//! inputs; the inputs of `alone` once more (two sums of the same inputs must agree); and the finish
//! on planted partial sums with x replaced.
inline const std::vector<std::string> kProbes{"alone", "after-lab", "repeat", "planted"};

//! One checked call of the pair at one size, as the child records it.
struct SumProbe {
  std::string size_label;  //!< "odd" or "card-scaled"
  std::string probe;       //!< one of kProbes
  std::uint64_t elements = 0;
  int call = 0;
  std::uint64_t blocks = 0;              //!< the first kernel's grid: the partial sums it must write
  std::uint32_t sum_bits = 0xFFFFFFFFu;  //!< what the finish stored (0xFFFFFFFF: the poison)
  //! The float64 reference, which every correct float32 sum of counted inputs equals: the sum of
  //! x^2, or of the planted partials.
  double expected = 0.0;
  double sum_of_x = 0.0;  //!< the float64 sum of x itself, unsquared
  //! Planted: the float64 sum of the replaced x's squares (what a finish reading x would give).
  double replaced_x = 0.0;
  std::uint64_t partials_unwritten = 0;  //!< of partials[0, blocks), after the first kernel
  double partials_total = 0.0;           //!< their float64 total, the unwritten left out
  //! Written partials that are not a whole number of sixteenths: no sum of squares of counted
  //! inputs, but one scaled, or estimated.
  std::uint64_t partials_not_whole = 0;
  std::uint64_t own_words_written = 0;    //!< words of its own global variables the first kernel changed
  std::uint64_t guard_words_changed = 0;  //!< around x, the partials ([0, blocks)) and the sum
  bool input_changed = false;
  bool lab_buffers_written = false;  //!< after-lab: the lab's squares, partials or sum changed
  std::uint64_t launches_writing_outside = 0;
  [[nodiscard]] bool sum_written() const { return sum_bits != 0xFFFFFFFFu; }
  [[nodiscard]] double got() const;
  //! The sum is the reference, exactly.
  [[nodiscard]] bool right() const;
  //! The first kernel left one partial sum per block, each a sum of whole squares, and they add up
  //! to the sum, exactly.
  [[nodiscard]] bool partials_right() const {
    return partials_unwritten == 0 && partials_not_whole == 0 && partials_total == got();
  }
};

[[nodiscard]] nlohmann::ordered_json to_json(const SumProbe& probe);
//! Throws nlohmann::json::exception when the document is not a probe's record.
[[nodiscard]] SumProbe sum_probe_from_json(const nlohmann::ordered_json& document);

//! The exercise: contract, manifest, sizes, rubric, wording, judge, lab cases.
[[nodiscard]] labrun::Exercise sum_of_squares_exercise();
//! The exercise as fusion-verdicts lists it (labrun_register_exercise in the lab's CMakeLists.txt).
[[nodiscard]] labrun::LabExercise sum_of_squares_entry(const labrun::Lab& lab);

// The checking kernels (checks.cu), on `stream`, none synchronising. Inputs: kind 0 is seeded
// uniform in [kInputLow, kInputHigh) (the lab's x, for its own kernels), 1 counted inputs
// (exercise/counted_inputs.hpp), what every call of the submission gets.
void fill_inputs(float* x, std::size_t n, std::uint64_t seed, int kind, cudaStream_t stream);
//! Adds the float64 sums of x^2 and of x over those inputs, regenerated, to sums[0] and sums[1].
void reference_sums(std::size_t n, std::uint64_t seed, int kind, double* sums, cudaStream_t stream);
//! Adds the float64 total of the written ones of partials[0, blocks) to *total, the poisoned to
//! *unwritten, and to *not_whole the written ones that are not a whole number of sixteenths (no
//! partial sum of counted inputs' squares is).
void total_partials(const float* partials, std::size_t blocks, double* total, unsigned long long* unwritten,
                    unsigned long long* not_whole, cudaStream_t stream);
//! partials[b] = the sum of the squares of counted inputs drawn from `seed` over block b's share
//! (ceil(n / blocks) elements) of [0, n): partial sums a correct first kernel could have stored.
void plant_partials(float* partials, std::size_t blocks, std::size_t n, std::uint64_t seed,
                    cudaStream_t stream);

}  // namespace verdicts::grading
