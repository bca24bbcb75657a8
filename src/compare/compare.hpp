#pragma once
// Comparing two transcripts of one lab: the cases they share, a verdict per case decided from the
// raw samples and their spread, the predicted ratios, and the claims whose verdict differs.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "claims/claims.hpp"
#include "core/transcript.hpp"

namespace labrun {

//! kAmbiguous (both transcripts of 2 rounds or more): the time ratio's 95% interval holds 1 and
//! reaches beyond the threshold, so the two runs cannot tell whether the case changed.
enum class CaseChange { kSame, kFaster, kSlower, kAmbiguous };
//! "same", "faster", "slower", "ambiguous"
[[nodiscard]] const char* case_change_name(CaseChange change);

//! Thresholds of the per-case verdict.
struct CompareRules {
  //! With samples on both sides, a difference counts only when the interquartile ranges do not
  //! overlap and the medians differ by more than this fraction. With rounds on both sides, the
  //! margin around 1 of the time ratio's interval instead: within it on both ends is the same.
  double sampled_threshold = 0.01;
  //! With a published figure on either side (no samples), the figures must differ by more than
  //! this fraction.
  double published_threshold = 0.05;
};

struct CaseComparison {
  std::string name;
  std::uint64_t elements = 0;
  std::string baseline_size_label;
  std::string candidate_size_label;
  double baseline_ms = 0.0;  //!< central time (median, or the published figure)
  double candidate_ms = 0.0;
  double time_ratio = 0.0;  //!< candidate / baseline: above 1 is slower
  double baseline_gb_per_s = 0.0;
  double candidate_gb_per_s = 0.0;
  CaseChange change = CaseChange::kSame;
  std::string basis;  //!< how the verdict was decided
  //! With 2 rounds or more on both sides: the time ratio's 95% interval (between_run_ratio_interval
  //! over each side's unit medians, with each side's process allowance), which decides the verdict.
  std::optional<Interval> time_ratio_interval;
};

struct PredictionComparison {
  std::string description;
  std::uint64_t elements = 0;
  double byte_ratio = 0.0;
  double launch_ratio = 0.0;
  double baseline_measured = 0.0;
  double candidate_measured = 0.0;
};

struct ClaimComparison {
  std::string id;
  std::string statement;
  std::optional<ClaimResult> baseline;
  std::optional<ClaimResult> candidate;
  [[nodiscard]] bool differs() const;
};

struct TranscriptComparison {
  std::string baseline_label;
  std::string candidate_label;
  std::vector<CaseComparison> cases;
  std::vector<PredictionComparison> predictions;
  std::vector<ClaimComparison> claims;
  CompareRules rules;
};

//! Compares candidate against baseline. `claims` (the lab's, when the build knows it) evaluates
//! the claims of a transcript that carries none (schema 1.0.0, a transcribed reference).
[[nodiscard]] TranscriptComparison compare_transcripts(const Transcript& baseline,
                                                       const Transcript& candidate,
                                                       const std::vector<ClaimSpec>* claims,
                                                       const CompareRules& rules = {});

//! The verdict of a time ratio's 95% interval with `margin` (a fraction): same when the whole
//! interval lies within [1 - margin, 1 + margin]; otherwise slower when the whole of it lies above 1,
//! faster when below; ambiguous when it holds 1.
[[nodiscard]] CaseChange change_from_interval(const Interval& time_ratio, double margin);

//! The cases whose verdict is slower (a definite slower: never an ambiguous one) by more than
//! `percent` percent.
[[nodiscard]] std::vector<const CaseComparison*> regressions(const TranscriptComparison& comparison,
                                                             double percent);

[[nodiscard]] std::string comparison_to_markdown(const TranscriptComparison& comparison);
[[nodiscard]] nlohmann::ordered_json comparison_to_json(const TranscriptComparison& comparison);

}  // namespace labrun
