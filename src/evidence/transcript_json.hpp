#pragma once
// The transcript's JSON form: the evidence format. Field meanings are documented in
// docs/transcript-fields.md.

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace labrun {

using Json = nlohmann::ordered_json;

//! A transcript that cannot be read: the message names the JSON pointer of the problem.
class TranscriptFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[nodiscard]] Json transcript_to_json(const Transcript& transcript);
//! Throws TranscriptFormatError for a missing or mistyped field or an unsupported major version.
[[nodiscard]] Transcript transcript_from_json(const Json& document);

//! Schema versions this build reads: 1.0.0 to 1.7.0 (read through the migrations in
//! docs/transcript-fields.md) and the current one, which is the one it writes.
[[nodiscard]] const std::vector<std::string>& readable_schema_versions();

//! The transcript as the text written to disk: JSON indented by two spaces a level, every array of
//! numbers on one line (samples, clocks), and a trailing newline.
[[nodiscard]] std::string transcript_to_text(const Transcript& transcript);
//! Parses text; throws TranscriptFormatError for malformed JSON too.
[[nodiscard]] Transcript transcript_from_text(const std::string& text);

}  // namespace labrun
