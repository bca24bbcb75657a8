#pragma once
// A chain pair, declared (docs/grading.md, "Declaring an exercise"): a chain of elementwise stages
// split between two kernels with one intermediate between them. Its contract is
//
//   first (const float* INPUT, float* INTERMEDIATE, std::size_t n)
//   second(const float* INTERMEDIATE, const float* SECOND, float* OUTPUT, std::size_t n)
//
// with the lab's names: the first applies the chain's first stages to INPUT[i] and stores the result
// in INTERMEDIATE[i], the second applies the rest to it and SECOND[i] and stores OUTPUT[i], for every
// i in [0, n). Every output is checked against the chain in float64 within a tolerance, and a wrong
// one is named by the wrong composition of the stages it matches, which the lab names. The harness
// owns the buffers (guarded, poisoned, the output at a place drawn per call), the probes, their
// records and judge, the timed calls and the sanitizer run. The lab supplies only what is the lab's:
//   - its chain's math, from which the harness's checking kernels are made (chain_pair_checks.cuh);
//   - the wrong compositions its classic mistakes make, each with its mistake and words;
//   - its staged chain (every stage a kernel of its own) and its other lab cases, by its launchers;
//   - the words of its contract (x, the residual, stage 2's output).
//
// The probes, at each size: alone (the staged chain's buffers poisoned and watched); after-staged
// (the lab's staged chain ran just before, on other inputs: its buffers must stay as it left them,
// and an output right only here depends on what it left behind); planted (the intermediate replaced
// by the first stages of other inputs, which the second kernel must follow: intermediate followed).
// In every probe the first kernel's input is replaced by other inputs between the kernels, so a
// second kernel that reads it is caught (dropped stage).
//
// Host code only; nvcc is not needed to compile it.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "exercise/chain_pair_checks.hpp"
#include "exercise/exercise.hpp"

namespace labrun {

//! How the reports say the contract's parts, where the words are the lab's.
struct ChainPairWords {
  std::string input;         //!< "x"
  std::string second;        //!< "the residual"
  std::string intermediate;  //!< "the intermediate"
  std::string output;        //!< "y"
  //! The stages the intermediate holds the output of: "stage 2" ("stage 2's output").
  std::string first_stages;
  std::string first_formula;  //!< what the intermediate holds: "gelu(x * g + b)"
  //! Which stages go where: "stages 1 and 2 belong in the first kernel, stages 3 and 4 in the second".
  std::string stage_split;
  std::string pair;  //!< what a submission is: "the half-way pair"
};

//! A wrong composition of the chain's stages a classic mistake makes (1 to ChainPairChecks::
//! compositions, in order): an output that matches it is named by `mistake`.
struct ChainComposition {
  std::string name;  //!< "gelu-twice", as the records count it
  std::string mistake;
  std::string explanation;  //!< the whole sentence the report gives
};

struct ChainPairDeclaration {
  ChainPairChecks checks;
  ChainPairWords words;
  std::vector<ChainComposition> compositions;
  //! Absolute and relative tolerance of every output and intermediate against its float64 value.
  double tolerance = 1e-5;
  //! A wrong composition, or a second kernel that read the replaced input, is named when it matches
  //! at least this share of the elements.
  double match_share = 0.999;
  //! The staged chain's intermediates ("t1", "t2", "t3"), then the lab's other buffers its timed
  //! cases write: n floats each, in the lab's own memory.
  std::vector<std::string> staged_buffers;
  std::vector<std::string> lab_buffers;
  //! One execution of lab case `index` (Exercise::lab_cases) reading `input` and `second`, writing
  //! the buffers above (staged_buffers then lab_buffers, in order).
  std::function<void(std::size_t index, const float* input, const float* second,
                     const std::vector<float*>& lab, std::size_t n, cudaStream_t)>
      launch_lab_case;
  std::size_t staged_case = 0;  //!< the staged chain's index in Exercise::lab_cases
};

//! The probes, in order, at each size.
inline const std::vector<std::string> kChainPairProbes{"alone", "after-staged", "planted"};

//! The contract's buffer names (its parameters'), which the records key their guards by.
struct ChainPairNames {
  std::string input, intermediate, second, output;
};
//! Throws std::invalid_argument, naming the exercise, when its contract is not a chain pair's.
[[nodiscard]] ChainPairNames chain_pair_names(const Exercise& exercise);

//! Elements of an output that match one composition of the stages.
struct CompositionMatch {
  std::string composition;
  std::uint64_t matching = 0;
};

//! An output compared element by element with the chain in float64 (by a trusted kernel).
struct ChainOutputInspection {
  std::uint64_t elements = 0;
  std::uint64_t mismatches = 0;          //!< outside tolerance, NaN, infinite or unwritten
  std::uint64_t unwritten = 0;           //!< still holding the poison bit pattern
  std::uint64_t trailing_unwritten = 0;  //!< unwritten elements after the last written one
  std::uint64_t non_finite = 0;          //!< NaN or infinity that is not the poison pattern
  double max_abs_error = 0.0;            //!< over finite elements
  std::optional<std::uint64_t> first_bad_index;
  std::optional<double> first_bad_got;  //!< may be NaN (kept as text in JSON)
  std::optional<double> first_bad_expected;
  std::vector<CompositionMatch> compositions;  //!< every wrong composition, counted over all elements
  [[nodiscard]] bool passed() const { return elements > 0 && mismatches == 0; }
};

//! The intermediate after the first kernel, against the first stages' output in float64.
struct ChainIntermediateInspection {
  std::uint64_t unwritten = 0;
  std::uint64_t mismatches = 0;
};

//! Words changed in the poisoned guard regions around each buffer (2 MiB before and after).
struct ChainGuardChanges {
  std::uint64_t output = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t input = 0;
  std::uint64_t second = 0;
};

//! One call of the pair (both kernels) on fresh inputs, as the child records it.
struct ChainPairRecord {
  std::string size_label;  //!< "odd" or "card-scaled"
  std::string probe;       //!< one of kChainPairProbes, or "timed": a timed call's inspection
  std::uint64_t elements = 0;
  int call = 0;  //!< 1 for the first call of the pair in the process
  ChainOutputInspection output;
  std::optional<ChainIntermediateInspection> intermediate;  //!< alone, after-staged, timed
  ChainGuardChanges guards;
  std::uint64_t input_elements_changed = 0;         //!< both inputs against their generated values
  std::vector<std::string> staged_buffers_written;  //!< "t1"; after-staged: "t1, t2 or t3"
  //! Outputs that match the chain computed from the input that replaced the call's own before its
  //! second kernel ran (every probe replaces it), instead of from the intermediate.
  std::uint64_t matches_chain_of_input = 0;
  //! Launches of this call (0 to 2) after which memory the child owns outside that launch's
  //! buffers had changed.
  std::uint64_t launches_writing_outside = 0;
};

//! The record as JSON: the guards and the replaced input's matches keyed by the contract's names
//! ("y", "matches_chain_of_x").
[[nodiscard]] nlohmann::ordered_json to_json(const ChainPairRecord& record, const ChainPairNames& names);
//! Throws nlohmann::json::exception (or std::logic_error for a number that is not one) when the
//! document is not a record.
[[nodiscard]] ChainPairRecord chain_pair_record_from_json(const nlohmann::ordered_json& document,
                                                          const ChainPairNames& names);

//! `base` (its contract, manifest, sizes, rubric, wording and lab cases) made into an exercise the
//! harness grades from `declaration`. Throws std::invalid_argument, naming the exercise, when its
//! contract is not a chain pair's or the declaration lacks a part.
[[nodiscard]] Exercise chain_pair_exercise(Exercise base, ChainPairDeclaration declaration);

class ChildSession;
class ExerciseChild;
//! The device side of a chain pair in the grading child (chain_pair_child.cpp).
[[nodiscard]] std::unique_ptr<ExerciseChild> chain_pair_child(
    ChildSession& session, std::shared_ptr<const ChainPairDeclaration> declaration,
    const ChainPairNames& names);

}  // namespace labrun
