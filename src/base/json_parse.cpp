#include "base/json_parse.hpp"

#include <stdexcept>
#include <unordered_set>

namespace labrun {
namespace {

using Json = nlohmann::ordered_json;

// Builds an ordered_json document in time linear in the text. ordered_json's own parser checks each
// new key against every earlier key of its object (40,000 facts took 7 s); here a key is appended,
// and a hash set per open object finds a key given twice. Such a key is removed from its object when
// the object ends, and its pointer recorded.
class LinearOrderedBuilder : public nlohmann::json_sax<Json> {
 public:
  LinearOrderedBuilder(ParsedJson& parsed, std::size_t max_depth) : parsed_(parsed), max_depth_(max_depth) {}
  bool null() override { return put(Json(nullptr)); }
  bool boolean(bool value) override { return put(Json(value)); }
  bool number_integer(number_integer_t value) override { return put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return put(Json(value)); }
  bool number_float(number_float_t value, const string_t& /*text*/) override { return put(Json(value)); }
  bool string(string_t& value) override { return put(Json(std::move(value))); }
  bool binary(binary_t& /*value*/) override { return false; }
  bool start_object(std::size_t /*elements*/) override {
    refuse_beyond_limit();
    open_.push_back(place(Json::object()));
    keys_.emplace_back();
    duplicated_.emplace_back();
    return true;
  }
  bool key(string_t& key) override {
    if (!keys_.back().insert(key).second && duplicated_.back().insert(key).second) {
      if (parsed_.duplicate_keys.size() < kDuplicateKeysRecorded) {
        parsed_.duplicate_keys.push_back({pointer_of_open() + "/" + json_pointer_token(key), key});
      } else {
        ++parsed_.duplicate_keys_not_recorded;
      }
    }
    key_ = std::move(key);
    return true;
  }
  bool end_object() override {
    if (!duplicated_.back().empty()) {
      drop_duplicated(open_.back()->get_ref<Json::object_t&>(), duplicated_.back());
    }
    open_.pop_back();
    keys_.pop_back();
    duplicated_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*elements*/) override {
    refuse_beyond_limit();
    open_.push_back(place(Json::array()));
    return true;
  }
  bool end_array() override {
    open_.pop_back();
    return true;
  }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& error) override {
    // Thrown as nlohmann's parse would throw it, by its own type.
    if (const auto* syntax = dynamic_cast<const Json::parse_error*>(&error)) {
      throw *syntax;
    }
    if (const auto* range = dynamic_cast<const Json::out_of_range*>(&error)) {
      throw *range;
    }
    throw std::runtime_error(error.what());
  }

 private:
  // Called as an array or object opens: one more level than the limit is refused before it is built.
  void refuse_beyond_limit() const {
    if (open_.size() < max_depth_) {
      return;
    }
    std::string pointer = pointer_of_open();
    if (!open_.empty() && open_.size() <= kPointerLevelsShown) {
      // The new container's own place: the next index of the open array, or the last key read.
      const Json& parent = *open_.back();
      pointer += "/" + (parent.is_array() ? std::to_string(parent.size()) : json_pointer_token(key_));
    }
    throw JsonTooDeep(pointer, max_depth_);
  }
  // Puts `value` where the parse is (the root, the end of the open array, or the open object under
  // the last key) and returns where it went.
  Json* place(Json value) {
    if (open_.empty()) {
      parsed_.document = std::move(value);
      return &parsed_.document;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.get_ref<Json::array_t&>().push_back(std::move(value));
      return &parent.get_ref<Json::array_t&>().back();
    }
    auto& members = parent.get_ref<Json::object_t&>();
    members.Container::emplace_back(std::move(key_), std::move(value));
    return &members.back().second;
  }
  bool put(Json value) {
    place(std::move(value));
    return true;
  }
  // Keeps the members whose key is not in `gone`, in order, in one pass (a member's key is const, so
  // they are copied into a new object rather than erased one by one, which would be quadratic).
  static void drop_duplicated(Json::object_t& members, const std::unordered_set<std::string>& gone) {
    Json::object_t kept;
    for (auto& member : members) {
      if (gone.count(member.first) == 0) {
        kept.Container::emplace_back(member.first, std::move(member.second));
      }
    }
    members = std::move(kept);
  }
  // The pointer of the innermost open container: each open container is the last member or element
  // of the one around it.
  std::string pointer_of_open() const {
    std::string pointer;
    for (std::size_t level = 1; level < open_.size(); ++level) {
      if (level > kPointerLevelsShown) {
        return pointer + "/...";
      }
      const Json& parent = *open_[level - 1];
      if (parent.is_array()) {
        pointer += "/" + std::to_string(parent.size() - 1);
      } else {
        pointer += "/" + json_pointer_token(parent.get_ref<const Json::object_t&>().back().first);
      }
    }
    return pointer;
  }

  ParsedJson& parsed_;
  std::size_t max_depth_;
  std::vector<Json*> open_;
  std::vector<std::unordered_set<std::string>> keys_;
  std::vector<std::unordered_set<std::string>> duplicated_;  // per open object: its keys given twice
  std::string key_;
};

}  // namespace

JsonTooDeep::JsonTooDeep(std::string pointer, std::size_t max_depth)
    : std::runtime_error("nested more than " + std::to_string(max_depth) +
                         " levels deep (arrays and objects inside one another)"),
      pointer_(std::move(pointer)) {}

ParsedJson parse_json_finding_duplicates(const std::string& text, std::size_t max_depth) {
  ParsedJson parsed;
  LinearOrderedBuilder builder(parsed, max_depth);
  Json::sax_parse(text, &builder);
  return parsed;
}

nlohmann::ordered_json read_json_file(const std::filesystem::path& path, std::size_t max_bytes, Links links,
                                      std::size_t max_depth) {
  const std::string text = read_regular_file(path, max_bytes, links);  // names the path itself
  ParsedJson parsed;
  try {
    parsed = parse_json_finding_duplicates(text, max_depth);
  } catch (const JsonTooDeep& error) {
    throw std::runtime_error(path.string() + ": " + (error.pointer().empty() ? "/" : error.pointer()) + ": " +
                             error.what());
  } catch (const std::exception& error) {
    throw std::runtime_error(path.string() + ": not JSON: " + error.what());
  }
  if (!parsed.duplicate_keys.empty()) {
    const DuplicateKey& first = parsed.duplicate_keys.front();
    throw std::runtime_error(path.string() + ": " + first.pointer + ": the key \"" + first.key +
                             "\" is given twice in one object");
  }
  return std::move(parsed.document);
}

std::string json_pointer_token(const std::string& key) {
  std::string token;
  token.reserve(key.size());
  for (const char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

}  // namespace labrun
