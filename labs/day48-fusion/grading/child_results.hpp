#pragma once
// What the grading child process measures about a submission and reports to the parent: raw
// figures only. The parent (judge.hpp) turns them into a verdict.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace day48::grading {

//! Elements of the submission's output that match one composition of the stages.
struct CompositionMatch {
  std::string composition;  //!< reference.hpp's composition_name
  std::uint64_t matching = 0;
};

//! The submission run at one size.
struct SizeResult {
  std::string label;  //!< "odd" or "card-scaled"
  std::uint64_t elements = 0;
  //! The run after a staged-chain run, compared with the float64 reference.
  labrun::CorrectnessCheck check;
  std::vector<CompositionMatch> compositions;  //!< the wrong compositions, each counted (wrong outputs only)
  std::uint64_t composition_elements = 0;      //!< the leading elements those counts cover
  std::uint64_t unwritten = 0;                 //!< outputs still holding the poison bit pattern
  std::uint64_t trailing_unwritten = 0;        //!< of which the run that ends at element n - 1
  std::uint64_t computed_non_finite = 0;       //!< NaN or infinity that is not the poison pattern
  bool guards_around_output_intact = true;     //!< 1024 poisoned floats before y[0] and after y[n - 1]
  bool guards_around_intermediate_intact = true;  //!< likewise around the intermediate
  bool inputs_unchanged = true;                   //!< x and residual as generated
  //! The run with no staged run before it and the staged buffers poisoned (odd size only).
  std::optional<labrun::CorrectnessCheck> isolated_check;
  std::vector<std::string> staged_buffers_written;  //!< "t1", "t2", "t3" (odd size only)
};

//! Times in the same process at one size: medians of CUDA-event samples, milliseconds.
struct TimingResult {
  std::uint64_t elements = 0;
  std::vector<double> submission_samples_ms;
  double submission_ms = 0.0;
  double staged_ms = 0.0;             //!< the lab's staged chain (36 B/element)
  double fused_ms = 0.0;              //!< the lab's fused chain (12 B/element)
  double reference_halfway_ms = 0.0;  //!< the lab's own half-way pair (20 B/element)
  double copy_ms = 0.0;               //!< the copy floor (8 B/element)
};

struct ChildResults {
  std::string device;
  std::uint64_t seed = 0;
  bool completed = false;  //!< every step ran
  std::string error;       //!< the CUDA or loading error that stopped it, when not completed
  std::vector<SizeResult> sizes;
  std::optional<TimingResult> timing;
};

[[nodiscard]] nlohmann::ordered_json to_json(const ChildResults& results);
//! Throws std::runtime_error naming the field when the document is not a child's report.
[[nodiscard]] ChildResults child_results_from_json(const nlohmann::ordered_json& document);

}  // namespace day48::grading
