#pragma once
// A transcript's raw samples as CSV (RFC 4180), one row per timed sample, for pandas or a
// spreadsheet: `labrun report FILE --format csv`, `labrun run LAB --write csv`.

#include <array>
#include <string>

#include "core/transcript.hpp"

namespace labrun {

//! The header row, in the order every row holds them: the lab; the case's name; n (elements); the
//! size's label; the mode the case was sampled in ("hot", "cold", "hot-gated"; empty when the
//! transcript predates schema 1.2.0); the sample's index in the case (0-based, in the order taken);
//! the sample in milliseconds (CUDA events, over all its executions); the SM clock just after it in
//! MHz (empty when it was not read).
inline constexpr std::array<const char*, 8> kSamplesCsvColumns{
    "lab", "case", "n", "size_label", "timing_mode", "sample_index", "ms", "sm_clock_mhz"};

//! The header, then one row per sample of every case, in the transcript's case order; every line
//! ends "\r\n". Numbers are written in the shortest form that reads back as the same double, so
//! the CSV loses nothing the JSON has; text fields are quoted as RFC 4180 asks. A case without
//! samples (a transcribed one) has no row; the stability check's second samples are in the JSON
//! only.
[[nodiscard]] std::string samples_to_csv(const Transcript& transcript);

}  // namespace labrun
