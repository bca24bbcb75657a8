#pragma once
// What a schema cannot say about a transcript: the cases its other records name exist in it.

#include <optional>

#include "core/transcript.hpp"
#include "evidence/schema_validation.hpp"

namespace labrun {

//! The longest lab name a transcript may give: `aggregate.<lab>-claims.svg` and its temporary names
//! must stay file names.
inline constexpr std::size_t kLabNameMaxBytes = 64;

//! The first dangling reference in `transcript`, at its JSON pointer; nullopt when there is none:
//! - the lab's name is a name (lower-case letters, digits and '-', at most kLabNameMaxBytes), never a
//!   path: files are named after it;
//! - every case's name is "<lab>/<part>/<name>" for the transcript's lab and the case's part;
//! - the stability record, every profiled case and every traced case (timeline) name a case (and
//!   size) of the transcript;
//! - a measured or synthetic transcript's predictions name cases it has (a transcription may
//!   predict for cases its source did not publish).
[[nodiscard]] std::optional<SchemaProblem> dangling_reference(const Transcript& transcript);

}  // namespace labrun
