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

enum class CaseChange { kSame, kFaster, kSlower };
[[nodiscard]] const char* case_change_name(CaseChange change);  //!< "same", "faster", "slower"

//! Thresholds of the per-case verdict.
struct CompareRules {
  //! With samples on both sides, a difference counts only when the interquartile ranges do not
  //! overlap and the medians differ by more than this fraction.
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

//! The cases slower by more than `percent` percent.
[[nodiscard]] std::vector<const CaseComparison*> regressions(const TranscriptComparison& comparison,
                                                             double percent);

[[nodiscard]] std::string comparison_to_markdown(const TranscriptComparison& comparison);
[[nodiscard]] nlohmann::ordered_json comparison_to_json(const TranscriptComparison& comparison);

}  // namespace labrun
