#pragma once
// Reading a file given as a transcript: read, recognised, validated against the schema of its
// version, then parsed. Every problem is one line naming the file, as `validate`, `report`,
// `compare`, `plot` and `aggregate` print it.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/transcript.hpp"
#include "evidence/declaration_check.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! The suffix of a transcript stored gzip-compressed (committed evidence is): NAME.json.gz reads as
//! NAME.json does (base/atomic_file.hpp's read_evidence_text), and its plots and Markdown are NAME's.
inline constexpr const char* kCompressedTranscriptSuffix = ".json.gz";

//! Whether a file's name is a transcript's: NAME.json or NAME.json.gz (what `aggregate` takes from a
//! folder, Chrome traces aside, and what `plot` writes beside).
[[nodiscard]] bool named_as_transcript(const std::filesystem::path& file);

//! `file`'s name without ".json.gz", or else without its last extension (path::stem): the NAME its
//! plots (NAME.PLOT.svg) and Markdown (NAME.md) beside it are named from.
[[nodiscard]] std::string transcript_file_stem(const std::filesystem::path& file);

//! A file that is not a readable, valid transcript; what() is the one-line problem, file first.
class InvalidTranscript : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! What reading a file as a transcript found.
struct TranscriptCheck {
  std::optional<Transcript> transcript;  //!< set exactly when the file is a valid transcript
  //! The JSON the transcript was read from (decompressed where the file is gzip), set with it: what
  //! a writer that shows the file's text shows, from the one read that was checked.
  std::string text;
  //! "FILE: /run/seed: missing", "FILE is a folder, not a transcript ...", "FILE: not a transcript
  //! (it looks like a comparison ...)"; empty when valid.
  std::string problem;
  std::size_t more_problems = 0;  //!< further schema problems beyond the first
  bool not_a_transcript = false;  //!< the file is another kind of JSON (non_transcript_kind)
  //! A valid transcript checked against its lab's declaration (evidence/declaration_check.hpp): what
  //! it records that could not be confirmed (an older version's claims by other rules, every claim of
  //! a lab this labrun does not know), to be shown as recorded and never counted as evidence.
  DeclarationCheck declaration;
};

//! Reads and checks one file: read, recognised, validated, parsed, its cross references
//! (evidence/cross_references.hpp) and its figures (evidence/consistency.hpp) checked. Never throws
//! for what is in (or not in) the file; the problem is one line (base/format.hpp's one_line).
//! `labs` gives the lab a transcript names (the registry, in the command line): its declarations
//! are what the byte models and claims are checked against; with no lab (nullptr, or an empty
//! lookup) those checks are left out.
[[nodiscard]] TranscriptCheck check_transcript_file(const std::filesystem::path& file, const LabLookup& labs);

//! check_transcript_file, throwing InvalidTranscript with its problem when there is one.
[[nodiscard]] Transcript read_transcript_file(const std::filesystem::path& file, const LabLookup& labs);

//! A valid transcript with the JSON text it was read from.
struct TranscriptWithText {
  Transcript transcript;
  std::string text;
};
//! read_transcript_file, also giving the checked text (read once).
[[nodiscard]] TranscriptWithText read_transcript_file_with_text(const std::filesystem::path& file,
                                                                const LabLookup& labs);

//! What another labrun (or JSON Schema) document is, for a document without a schema_version:
//! "a comparison (`labrun compare --format json`)", "a grade report (`labrun grade`)", ...; empty
//! when it is none of the kinds labrun writes.
[[nodiscard]] std::string non_transcript_kind(const nlohmann::json& document);

}  // namespace labrun
