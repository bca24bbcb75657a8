#pragma once
// A staged reduction exercise, declared (docs/grading.md, "Declaring an exercise"): two kernels, a
// first stage that reads an input of n floats and stores one partial result per block in an
// intermediate, and a finish, launched as one block, that totals the intermediate into a one-float
// output. Its contract is
//
//   first (const float* INPUT, float* INTERMEDIATE, std::size_t n)
//   finish(const float* INTERMEDIATE, float* OUTPUT, std::size_t blocks)
//
// with the lab's names; `blocks` is the first stage's grid. Every call gets counted inputs
// (exercise/counted_inputs.hpp), on which every correct float32 total is exact whatever its order,
// so the judge names a wrong one by how it differs from the reference. The harness owns the
// buffers (guarded, poisoned, the output at a place drawn per call), the structure probes, their
// records and judge, the timed calls and the sanitizer run. The lab supplies only what is the lab's:
//   - the term each element adds, from the set the harness can regenerate (its square);
//   - the reference: the lab's own kernel, by its own launcher, on the call's input;
//   - its lab cases' launchers and the lab buffers they write;
//   - the words of its contract (x, the partials, the sum), from which its mistakes are named.
//
// The probes, at each size: alone; after the lab's case ran on other inputs (its buffers must
// stay as it left them); the inputs of alone again ("repeat": two outputs of the same inputs must
// agree); and "planted": the intermediate replaced by one a correct first stage could have stored for
// other inputs, which the finish must follow (intermediate followed). In every probe the input is
// replaced by other counted inputs between the stages, so a finish that reads the input is caught
// (dropped stage), and every element of the input counts (counted input).
//
// Host code only; nvcc is not needed to compile it.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "exercise/exercise.hpp"
#include "exercise/reduction_checks.hpp"

namespace labrun {

//! The lab's words for its contract's parts; the harness's wording and mistake ids are made of them
//! ("finish-reads-x", "partials-unwritten", "squares-materialised").
struct ReductionWords {
  std::string input = "x";
  std::string intermediate = "partials";
  std::string partial = "partial sum";  //!< one element of the intermediate
  std::string output = "sum";
  std::string terms = "squares";  //!< what is added, plural
};

//! A buffer of the lab's own, written by its timed cases: the after-lab probe checks that the
//! submission leaves it as the lab's case left it.
struct LabBuffer {
  std::string name;
  std::function<std::size_t(std::size_t n)> floats;  //!< its floats at n
};

using LabBufferPointers = std::vector<float*>;  //!< in the declaration's order of lab_buffers

struct ReductionDeclaration {
  CountedTerm term = CountedTerm::kSquare;
  ReductionWords words;
  //! The lab's own kernel on `input` at n: stores the exact total in *output. `scratch` is the
  //! declaration's reference scratch (reference_scratch floats at the call's capacity).
  std::function<void(const float* input, float* output, float* scratch, std::size_t n, cudaStream_t)>
      reference;
  std::function<std::size_t(std::size_t capacity)> reference_scratch;
  //! Fills the lab's inputs for its timed cases (the lab's own generator) into `input` from `seed`.
  std::function<void(float* input, std::size_t n, std::uint64_t seed, cudaStream_t)> lab_inputs;
  std::vector<LabBuffer> lab_buffers;
  //! One execution of lab case `index` (Exercise::lab_cases) reading `input`, in the lab buffers.
  std::function<void(std::size_t index, const float* input, const LabBufferPointers&, std::size_t n,
                     cudaStream_t)>
      launch_lab_case;
  //! The case after-lab runs (an index into Exercise::lab_cases): the staged one, whose
  //! intermediates a submission could reuse.
  std::size_t after_lab_case = 0;
};

//! The probes, in order, at each size.
inline const std::vector<std::string> kReductionProbes{"alone", "after-lab", "repeat", "planted"};

//! One checked call of the two stages at one size, as the child records it.
struct ReductionRecord {
  std::string size_label;  //!< "odd" or "card-scaled"
  std::string probe;       //!< one of kReductionProbes, or "timed"
  std::uint64_t elements = 0;
  int call = 0;
  std::uint64_t blocks = 0;                 //!< the first stage's grid: the partials it must write
  std::uint32_t output_bits = 0xFFFFFFFFu;  //!< what the finish stored (0xFFFFFFFF: the poison)
  //! The reference (the lab's kernel on the call's input; planted: the planted partials' total).
  double expected = 0.0;
  double input_total = 0.0;  //!< the float64 total of the input itself, no term applied
  //! The reference on the input that replaced the call's own before the finish ran.
  double replaced_input = 0.0;
  std::uint64_t partials_unwritten = 0;  //!< of the intermediate's [0, blocks), after the first stage
  double partials_total = 0.0;           //!< their float64 total, the unwritten left out
  //! Written partials that are no total of terms of counted inputs (not a whole number of the
  //! term's granule): one scaled, or estimated.
  std::uint64_t partials_not_whole = 0;
  std::uint64_t own_words_written = 0;    //!< words of its own global variables the first stage changed
  std::uint64_t guard_words_changed = 0;  //!< around the input, the intermediate and the output
  bool input_changed = false;
  bool lab_buffers_written = false;  //!< after-lab: a lab buffer changed
  std::uint64_t launches_writing_outside = 0;
  [[nodiscard]] bool output_written() const { return output_bits != 0xFFFFFFFFu; }
  [[nodiscard]] double got() const;
  //! The output is the reference, exactly.
  [[nodiscard]] bool right() const;
  //! One partial per block, each a total of whole terms, adding up to the output, exactly.
  [[nodiscard]] bool partials_right() const {
    return partials_unwritten == 0 && partials_not_whole == 0 && partials_total == got();
  }
};

[[nodiscard]] nlohmann::ordered_json to_json(const ReductionRecord& record);
//! Throws nlohmann::json::exception when the document is not a record.
[[nodiscard]] ReductionRecord reduction_record_from_json(const nlohmann::ordered_json& document);

//! The judge of a reduction exercise's probe records (exposed for its host tests).
void judge_reduction_probes(const ReductionDeclaration& declaration, ProbeJudging& in);

//! `base` (its contract, manifest, sizes, rubric, wording and lab cases) made into an exercise the
//! harness grades from `declaration`. Throws std::invalid_argument, naming the exercise, when its
//! contract is not that of a staged reduction or the declaration lacks a part.
[[nodiscard]] Exercise reduction_exercise(Exercise base, ReductionDeclaration declaration);

class ChildSession;
class ExerciseChild;
//! The device side of a reduction exercise in the grading child (reduction_child.cpp).
[[nodiscard]] std::unique_ptr<ExerciseChild> reduction_child(
    ChildSession& session, std::shared_ptr<const ReductionDeclaration> declaration);

}  // namespace labrun
