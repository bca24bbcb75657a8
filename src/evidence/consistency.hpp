#pragma once
// What a schema cannot say about a transcript's figures: that each derived figure follows from the
// raw figures it was computed from. Every figure is computed again through the functions that
// computed it when the run wrote it (core/statistics, core/sampling, core/byte_model,
// claims/claims), never through a second copy of their formulas, so a forged or hand-edited
// figure (a median that is not its samples' median, a GB/s inflated through a byte model the lab
// does not declare, a claim held against its own figures) is named, with its JSON pointer.

#include <optional>

#include "core/transcript.hpp"
#include "evidence/declaration_check.hpp"
#include "evidence/schema_validation.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! Two figures agree when within this fraction of each other: a transcript's numbers have 17
//! significant digits and read back exactly, and this leaves room for a build that summed in
//! another order, never for an edited figure.
inline constexpr double kFigureRelativeTolerance = 1e-9;

//! The first figure of `transcript` that does not follow from what it is computed from, at its
//! JSON pointer, with the figure it should be; nullopt when every one follows. Checked, for a
//! measured or synthetic transcript:
//! - every case's summary against its samples_ms (count, median, mean, min, max, quartiles,
//!   spread, the median's confidence interval: summarize()); each of its rounds' medians against
//!   that round's samples, and its median's 95% interval against them (core/rounds.hpp:
//!   case_median_interval); 1.8.0: each round's CUDA context against the run's rounds per context and
//!   contexts, and the launch check against its gated samples (launch_latency_check); its per-sample
//!   clocks, throttled
//!   samples (throttled_samples() at the recorded threshold), gate time-outs (sample indices) and
//!   cycles per execution (median_cycles()) against its samples;
//! - the stability record against its case's median and its own samples;
//! - correctness checks and bitwise comparisons: no more mismatches or differing elements than
//!   elements, and a check passed exactly when nothing mismatched;
//! - a profiled case's model bytes against the case's byte model.
//! For a transcribed reference, which has no samples: every published figure positive and finite,
//! summarising at least one run, or 0 runs where the source does not state the statistic.
//! For every transcript: each case's elements match the size its label names (sizes), each
//! prediction's ratios follow from the two cases' byte models (predicted_ratios()) and its measured
//! ratios and their intervals from the two cases (measure_prediction()), each case's
//! byte model and launches per sample are the ones `lab` declares for it (when `lab` is given and
//! declares the case); and, when `lab` is given, everything evidence/declaration_check.hpp checks
//! against its declaration (claims, sizes, predictions, roofline), forged departures only.
[[nodiscard]] std::optional<SchemaProblem> inconsistent_figure(const Transcript& transcript, const Lab* lab);

//! What inconsistent_figure finds (`forged`), with the declaration check's full outcome: what it could
//! not confirm in an older transcript or one of a lab this labrun does not know (shown as recorded,
//! never counted as evidence).
struct FigureCheck {
  std::optional<SchemaProblem> forged;
  DeclarationCheck declaration;
};
[[nodiscard]] FigureCheck check_figures(const Transcript& transcript, const Lab* lab);

}  // namespace labrun
