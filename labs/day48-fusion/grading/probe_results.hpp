#pragma once
// What day 48's probes record in the grading child's results (exercise/child_protocol.hpp holds
// them as JSON; these are their fields): each call of the half-way pair the child checked, and the
// inspection of an output. The child writes them, the judge reads them (exercise.cpp). Host code.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace day48::grading {

//! Elements of an output that match one composition of the stages.
struct CompositionMatch {
  std::string composition;  //!< reference.hpp's composition_name
  std::uint64_t matching = 0;
};

//! An output compared element by element with a float64 reference (by a trusted kernel).
struct OutputInspection {
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

//! The intermediate after the first kernel, against stage 2's output in float64.
struct IntermediateInspection {
  std::uint64_t unwritten = 0;
  std::uint64_t mismatches = 0;
};

//! Words changed in the poisoned guard regions around each buffer (2 MiB before and after).
struct GuardChanges {
  std::uint64_t y = 0;
  std::uint64_t intermediate = 0;
  std::uint64_t x = 0;
  std::uint64_t residual = 0;
  [[nodiscard]] bool intact() const { return y == 0 && intermediate == 0 && x == 0 && residual == 0; }
};

//! One call of the pair (both kernels) on fresh inputs.
struct ProbeResult {
  std::string size_label;  //!< "odd" or "card-scaled"
  //! "alone": the staged buffers poisoned, no staged run before it; "after-staged": right after
  //! the lab's staged chain ran on the same inputs; "planted": the intermediate replaced by stage
  //! 2's output of other inputs after the first kernel. In every probe x is replaced by other inputs
  //! after the first kernel: the second kernel must compute y from the intermediate and the residual
  //! alone. "timed": a timed call's inspection.
  std::string probe;
  std::uint64_t elements = 0;
  int call = 0;  //!< 1 for the first call of the pair in the process
  OutputInspection output;
  std::optional<IntermediateInspection> intermediate;  //!< alone and after-staged
  GuardChanges guards;
  std::uint64_t input_elements_changed = 0;         //!< x and residual against their generated values
  std::vector<std::string> staged_buffers_written;  //!< "t1", "t2", "t3"
  //! Outputs that match the chain computed from the x that replaced the call's own before its second
  //! kernel ran (every probe replaces it), instead of from the intermediate: the second kernel read x.
  std::uint64_t matches_chain_of_x = 0;
  //! Launches of this call (0 to 2) after which memory the child owns outside that launch's output
  //! (any buffer, guard, counter: everything but intermediate[0, n) for the first kernel and
  //! y[0, n) for the second) had changed.
  std::uint64_t launches_writing_outside = 0;
};

[[nodiscard]] nlohmann::ordered_json to_json(const OutputInspection& output);
[[nodiscard]] OutputInspection output_from_json(const nlohmann::ordered_json& document);
[[nodiscard]] nlohmann::ordered_json to_json(const ProbeResult& probe);
//! Throws nlohmann::json::exception (or std::logic_error for a number that is not one) when the
//! document is not a probe's record.
[[nodiscard]] ProbeResult probe_from_json(const nlohmann::ordered_json& document);

}  // namespace day48::grading
