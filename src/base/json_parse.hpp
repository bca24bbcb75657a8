#pragma once
// JSON text read in time linear in its size, keeping each object's key order, with every key given
// twice in one object found: nlohmann's own parsers keep one of the two silently, so a reader of
// untrusted JSON (a transcript, a manifest, a grade report) would use a value its author may not have
// meant. Nesting is bounded while the text is parsed: nlohmann's parser is iterative, but copying a
// document recurses once per level, so a text 100,000 arrays deep must never become a document.
// Every JSON text labrun reads goes through this parser.

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/bounded_read.hpp"

namespace labrun {

//! How deep arrays and objects may be inside one another in a JSON text labrun reads, unless its
//! reader allows less (a transcript: 32). What labrun writes nests under 8 levels.
inline constexpr std::size_t kJsonMaxDepth = 64;

//! A text nested deeper than its reader allows, thrown when the parse opens the first array or object
//! beyond the limit (nothing deeper is built). what(): "nested more than N levels deep".
class JsonTooDeep : public std::runtime_error {
 public:
  JsonTooDeep(std::string pointer, std::size_t max_depth);
  //! The JSON pointer of the array or object beyond the limit (its first kPointerLevelsShown levels).
  [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }

 private:
  std::string pointer_;
};

//! A key an object of the text gives more than once.
struct DuplicateKey {
  std::string pointer;  //!< its JSON pointer (RFC 6901: "~" written "~0", "/" written "~1")
  std::string key;      //!< the key as written
};

//! At most this many duplicated keys are recorded, and a pointer names at most this many levels
//! (deeper ones end in "/..."): a hostile text cannot make the record cost more than the text.
inline constexpr std::size_t kDuplicateKeysRecorded = 100;
inline constexpr std::size_t kPointerLevelsShown = 100;

struct ParsedJson {
  nlohmann::ordered_json document;
  //! Each key found more than once in its object, once, in the order found (the first
  //! kDuplicateKeysRecorded of them). The document keeps none of its values: every duplicated key,
  //! recorded or not, is removed from its object.
  std::vector<DuplicateKey> duplicate_keys;
  std::size_t duplicate_keys_not_recorded = 0;  //!< found after the first kDuplicateKeysRecorded
};

//! Parses `text` as one JSON value of at most `max_depth` levels. Throws JsonTooDeep beyond them, and
//! what nlohmann's parse throws: nlohmann::json::parse_error when it is not JSON,
//! nlohmann::json::out_of_range for a number beyond a double (1e400).
[[nodiscard]] ParsedJson parse_json_finding_duplicates(const std::string& text,
                                                       std::size_t max_depth = kJsonMaxDepth);

//! A file another program (or a person) wrote, read as JSON: at most `max_bytes` of a regular file
//! (base/bounded_read.hpp), parsed by parse_json_finding_duplicates. A key given twice is refused:
//! throws std::runtime_error "PATH: /pointer: the key "K" is given twice in one object"; every other
//! failure (unreadable, not JSON, too deep) is a std::exception whose what() names the path.
[[nodiscard]] nlohmann::ordered_json read_json_file(const std::filesystem::path& path, std::size_t max_bytes,
                                                    Links links = Links::kRefuse,
                                                    std::size_t max_depth = kJsonMaxDepth);

//! `key` as one reference token of a JSON pointer: "~" becomes "~0", "/" becomes "~1".
[[nodiscard]] std::string json_pointer_token(const std::string& key);

}  // namespace labrun
