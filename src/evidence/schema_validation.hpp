#pragma once
// Validating transcripts against their JSON Schema (evidence/schema/transcript-<version>.schema.json,
// found beside labrun as share/labrun/schema/: core/install_layout.hpp) with valijson.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! Limits on a transcript's shape, checked before its schema (docs/reliability.md). The schemas'
//! patterns are matched by std::regex, which recurses once per character: the string limit keeps
//! that recursion far inside a thread's stack. Every committed transcript's longest string is under
//! 3 KiB and its deepest nesting under 8 (a host test checks it: docs/reliability.md).
inline constexpr std::size_t kTranscriptStringMaxBytes = 4096;  //!< every string and object key
inline constexpr std::size_t kTranscriptMaxDepth = 32;          //!< arrays and objects inside one another
//! The largest integer a transcript holds, 2^63 - 1: the schema validator reads integers as 64-bit
//! signed numbers, so a larger one (2^63 to 2^64 - 1) is refused as such, before the schema sees it
//! as a negative number.
inline constexpr std::uint64_t kTranscriptIntegerMax = 9223372036854775807ULL;

//! One problem found in a document: where (a JSON pointer, "" for the whole document) and what.
struct SchemaProblem {
  std::string pointer;
  std::string message;
};

//! The schema versions found in the data folder's schema/, oldest first. Throws DataFileNotFound
//! (core/install_layout.hpp) when labrun's data files cannot be found; so does every function below.
[[nodiscard]] std::vector<std::string> known_schema_versions();
//! A version's numbers, "1.10.0" as {1, 10, 0}: versions compare in order as these do.
[[nodiscard]] std::vector<long> schema_version_numbers(const std::string& version);
//! Whether `version` is `minimum` or a later version, by number ("1.10.0" is later than "1.9.0").
[[nodiscard]] bool schema_version_at_least(const std::string& version, const std::string& minimum);
//! The schema text of a version, or nullopt for a version with no schema file.
[[nodiscard]] std::optional<std::string> schema_text(const std::string& version);

//! The first string, key, integer or nesting beyond the limits above, as a problem; nullopt when
//! none is.
//! Iterative, so that no document can exhaust the stack here.
[[nodiscard]] std::optional<SchemaProblem> transcript_shape_problem(const nlohmann::json& document);

//! Validates a parsed transcript against the schema named by its own "schema_version", after
//! transcript_shape_problem (whose problem is then the one returned). Returns
//! the problems found, most specific first; empty when the document is valid. A missing, mistyped
//! or unknown schema_version is itself the one problem returned.
[[nodiscard]] std::vector<SchemaProblem> validate_transcript(const nlohmann::json& document);

//! Parses a transcript's text as validate_transcript_text does, into `document`: nullopt when it is JSON
//! of at most kTranscriptMaxDepth levels with no key given twice in one object; otherwise the problem
//! (malformed JSON at its byte, a number beyond a double or nesting too deep at its pointer, a key
//! given twice at its pointer, named), and `document` is left as it was.
[[nodiscard]] std::optional<SchemaProblem> transcript_text_problem(const std::string& text,
                                                                   nlohmann::json& document);

//! Validates a transcript's text: malformed JSON (a truncated file, say) is reported with the
//! byte offset where parsing failed, at pointer ""; a number beyond a double (1e400) at the pointer
//! of the value it is; nesting too deep and a key given twice at theirs (transcript_text_problem).
[[nodiscard]] std::vector<SchemaProblem> validate_transcript_text(const std::string& text);

//! The JSON pointer of the value at which parsing `text` fails ("/cases/0/samples_ms/3"); "" when
//! it fails outside any value, or does not fail.
[[nodiscard]] std::string pointer_of_parse_error(const std::string& text);

//! "/cases/2/samples_ms" from valijson's context ["<root>", "[cases]", "[2]", "[samples_ms]"].
[[nodiscard]] std::string json_pointer_from_context(const std::vector<std::string>& context);

}  // namespace labrun
