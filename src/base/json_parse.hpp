#pragma once
// JSON text read in time linear in its size, keeping each object's key order, with every key given
// twice in one object found: nlohmann's own parsers keep one of the two silently, so a reader of
// untrusted JSON (a transcript, a manifest) would use a value its author may not have meant.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace labrun {

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

//! Parses `text` as one JSON value. Throws what nlohmann's parse throws: nlohmann::json::parse_error
//! when it is not JSON, nlohmann::json::out_of_range for a number beyond a double (1e400).
[[nodiscard]] ParsedJson parse_json_finding_duplicates(const std::string& text);

//! `key` as one reference token of a JSON pointer: "~" becomes "~0", "/" becomes "~1".
[[nodiscard]] std::string json_pointer_token(const std::string& key);

}  // namespace labrun
