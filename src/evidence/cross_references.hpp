#pragma once
// What a schema cannot say about a transcript: the cases its other records name exist in it.

#include <optional>

#include "core/transcript.hpp"
#include "evidence/schema_validation.hpp"

namespace labrun {

//! The first dangling reference in `transcript`, at its JSON pointer; nullopt when there is none:
//! - every case's name is "<lab>/<part>/<name>" for the transcript's lab and the case's part;
//! - the stability record, every profiled case and every traced case (timeline) name a case (and
//!   size) of the transcript;
//! - a measured or synthetic transcript's predictions name cases it has (a transcription may
//!   predict for cases its source did not publish).
[[nodiscard]] std::optional<SchemaProblem> dangling_reference(const Transcript& transcript);

}  // namespace labrun
