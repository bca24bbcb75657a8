#include "evidence/schema_validation.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "base/atomic_file.hpp"
#include "base/json_parse.hpp"
#include "core/install_layout.hpp"

namespace labrun {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSchemaFolder = "schema";
const std::string kSchemaPrefix = "transcript-";
const std::string kSchemaSuffix = ".schema.json";

// Parsed schemas, built once per version on first use.
const valijson::Schema& parsed_schema(const std::string& version, const std::string& text) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<valijson::Schema>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[version];
  if (!slot) {
    const nlohmann::json document(parse_json_finding_duplicates(text).document);
    slot = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(document), *slot);
  }
  return *slot;
}

// Follows a parse and keeps the JSON pointer of the value being read, so that an error the parser
// reports without one (a number beyond a double, 1e400) can be named where it is.
class PointerTracker : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return value(); }
  bool boolean(bool /*value*/) override { return value(); }
  bool number_integer(number_integer_t /*value*/) override { return value(); }
  bool number_unsigned(number_unsigned_t /*value*/) override { return value(); }
  bool number_float(number_float_t /*value*/, const string_t& /*text*/) override { return value(); }
  bool string(string_t& /*value*/) override { return value(); }
  bool binary(binary_t& /*value*/) override { return value(); }
  bool start_object(std::size_t /*elements*/) override { return open(false); }
  bool key(string_t& key) override {
    open_.back().key = key;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t /*elements*/) override { return open(true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*error*/) override {
    failed_at_ = pending_pointer();
    return false;
  }
  [[nodiscard]] const std::string& failed_at() const { return failed_at_; }

 private:
  struct Level {
    bool array = false;
    std::size_t next_index = 0;  // arrays: the index the next value takes
    std::string key;             // objects: the key of the value being read
  };
  // The pointer of the value the parser is reading now.
  [[nodiscard]] std::string pending_pointer() const {
    std::string pointer;
    for (const Level& level : open_) {
      pointer += "/" + (level.array ? std::to_string(level.next_index) : json_pointer_token(level.key));
    }
    return pointer;
  }
  bool value() {
    if (!open_.empty() && open_.back().array) {
      ++open_.back().next_index;
    }
    return true;
  }
  bool open(bool array) {
    open_.push_back({array, 0, ""});
    return true;
  }
  bool close() {
    open_.pop_back();
    return value();  // the array or object just closed was a value of its parent
  }

  std::vector<Level> open_;
  std::string failed_at_;
};

}  // namespace

std::string pointer_of_parse_error(const std::string& text) {
  PointerTracker tracker;
  nlohmann::json::sax_parse(text, &tracker);
  return tracker.failed_at();
}

std::vector<std::string> known_schema_versions() {
  std::vector<std::string> versions;
  for (const auto& entry : fs::directory_iterator(find_data_file(kSchemaFolder))) {
    const std::string name = entry.path().filename().string();
    if (name.size() > kSchemaPrefix.size() + kSchemaSuffix.size() && name.rfind(kSchemaPrefix, 0) == 0 &&
        name.compare(name.size() - kSchemaSuffix.size(), kSchemaSuffix.size(), kSchemaSuffix) == 0) {
      versions.push_back(
          name.substr(kSchemaPrefix.size(), name.size() - kSchemaPrefix.size() - kSchemaSuffix.size()));
    }
  }
  // By version number: 1.10.0 after 1.9.0.
  std::sort(versions.begin(), versions.end(), [](const std::string& a, const std::string& b) {
    return schema_version_numbers(a) < schema_version_numbers(b);
  });
  return versions;
}

std::vector<long> schema_version_numbers(const std::string& version) {
  std::vector<long> parts;
  std::size_t start = 0;
  while (start <= version.size()) {
    const std::size_t dot = std::min(version.find('.', start), version.size());
    parts.push_back(std::strtol(version.substr(start, dot - start).c_str(), nullptr, 10));
    start = dot + 1;
  }
  return parts;
}

bool schema_version_at_least(const std::string& version, const std::string& minimum) {
  return schema_version_numbers(version) >= schema_version_numbers(minimum);
}

std::optional<std::string> schema_text(const std::string& version) {
  // Read once per version; a version is a name part, never a path.
  static std::mutex mutex;
  static std::map<std::string, std::string> texts;
  if (version.empty() || version.find_first_not_of("0123456789.") != std::string::npos) {
    return std::nullopt;
  }
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto cached = texts.find(version); cached != texts.end()) {
    return cached->second;
  }
  const fs::path folder = find_data_file(kSchemaFolder);
  const fs::path file = folder / (kSchemaPrefix + version + kSchemaSuffix);
  std::error_code error;
  if (!fs::is_regular_file(file, error)) {
    return std::nullopt;
  }
  return texts.emplace(version, read_file(file)).first->second;
}

std::string json_pointer_from_context(const std::vector<std::string>& context) {
  std::string pointer;
  for (const std::string& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
      pointer += "/" + json_pointer_token(part.substr(1, part.size() - 2));
    }
  }
  return pointer;
}

std::optional<SchemaProblem> transcript_shape_problem(const nlohmann::json& document) {
  struct Pending {
    const nlohmann::json* value;
    std::string pointer;
    std::size_t depth;
  };
  std::vector<Pending> pending{{&document, "", 0}};
  while (!pending.empty()) {
    Pending item = std::move(pending.back());
    pending.pop_back();
    const nlohmann::json& value = *item.value;
    if (value.is_string() && value.get_ref<const std::string&>().size() > kTranscriptStringMaxBytes) {
      return SchemaProblem{item.pointer,
                           "a string of " + std::to_string(value.get_ref<const std::string&>().size()) +
                               " bytes, more than the " + std::to_string(kTranscriptStringMaxBytes) +
                               " a transcript allows"};
    }
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > kTranscriptIntegerMax) {
      return SchemaProblem{item.pointer, "the integer " + std::to_string(value.get<std::uint64_t>()) +
                                             " is larger than the " + std::to_string(kTranscriptIntegerMax) +
                                             " (2^63 - 1) a transcript holds"};
    }
    if (!value.is_structured()) {
      continue;
    }
    if (item.depth >= kTranscriptMaxDepth) {
      return SchemaProblem{item.pointer, "nested more than " + std::to_string(kTranscriptMaxDepth) +
                                             " levels deep, more than a transcript allows"};
    }
    if (value.is_object()) {
      for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string pointer = item.pointer + "/" + json_pointer_token(it.key());
        if (it.key().size() > kTranscriptStringMaxBytes) {
          return SchemaProblem{item.pointer,
                               "a key of " + std::to_string(it.key().size()) + " bytes, more than the " +
                                   std::to_string(kTranscriptStringMaxBytes) + " a transcript allows"};
        }
        pending.push_back({&it.value(), pointer, item.depth + 1});
      }
    } else {
      for (std::size_t i = 0; i < value.size(); ++i) {
        pending.push_back({&value[i], item.pointer + "/" + std::to_string(i), item.depth + 1});
      }
    }
  }
  return std::nullopt;
}

std::vector<SchemaProblem> validate_transcript(const nlohmann::json& document) {
  if (!document.is_object()) {
    return {{"", "expected a JSON object"}};
  }
  if (std::optional<SchemaProblem> problem = transcript_shape_problem(document)) {
    return {std::move(*problem)};
  }
  const auto version = document.find("schema_version");
  if (version == document.end()) {
    return {{"/schema_version", "missing"}};
  }
  if (!version->is_string()) {
    return {{"/schema_version", "expected a string"}};
  }
  const std::optional<std::string> text = schema_text(version->get<std::string>());
  if (!text) {
    std::string known;
    for (const std::string& v : known_schema_versions()) {
      known += (known.empty() ? "" : ", ") + v;
    }
    return {{"/schema_version",
             "unknown schema version '" + version->get<std::string>() + "' (known: " + known + ")"}};
  }
  valijson::Validator validator;
  valijson::ValidationResults results;
  const valijson::adapters::NlohmannJsonAdapter target(document);
  if (validator.validate(parsed_schema(version->get<std::string>(), *text), target, &results)) {
    return {};
  }
  std::vector<std::pair<std::size_t, SchemaProblem>> found;
  valijson::ValidationResults::Error error;
  const std::string missing_prefix = "Missing required property '";
  while (results.popError(error)) {
    SchemaProblem problem{json_pointer_from_context(error.context), error.description};
    std::size_t depth = error.context.size();
    // "Missing required property 'seed'." at /run reads better as "/run/seed: missing".
    if (problem.message.rfind(missing_prefix, 0) == 0) {
      const std::size_t end = problem.message.find('\'', missing_prefix.size());
      problem.pointer += "/" + json_pointer_token(problem.message.substr(missing_prefix.size(),
                                                                         end - missing_prefix.size()));
      problem.message = "missing";
      // 1.4.0's environment contract: say what is asked instead.
      if (problem.pointer.rfind("/environment/", 0) == 0) {
        problem.message =
            "missing (a measured transcript records every metadata group and fact; one that could not be "
            "read "
            "is {\"unknown\": \"why\"}, never left out)";
      }
      ++depth;
    }
    found.push_back({depth, std::move(problem)});
  }
  // The deepest problem is the most specific one (the outer ones say "item #2 failed").
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<SchemaProblem> problems;
  problems.reserve(found.size());
  for (auto& item : found) {
    problems.push_back(std::move(item.second));
  }
  return problems;
}

std::optional<SchemaProblem> transcript_text_problem(const std::string& text, nlohmann::json& document) {
  ParsedJson parsed;
  try {
    // Bounded while parsing (base/json_parse.hpp): no deeper document is ever built.
    parsed = parse_json_finding_duplicates(text, kTranscriptMaxDepth);
  } catch (const JsonTooDeep& error) {
    return SchemaProblem{error.pointer(), std::string(error.what()) + ", more than a transcript allows"};
  } catch (const nlohmann::json::parse_error& error) {
    return SchemaProblem{
        "", "malformed JSON at byte " + std::to_string(error.byte) + " (" +
                (text.empty() ? std::string("empty file") : std::string("truncated or not JSON")) + ")"};
  } catch (const nlohmann::json::out_of_range&) {
    return SchemaProblem{pointer_of_parse_error(text),
                         "a number too large for a double (JSON numbers here must be finite doubles)"};
  }
  if (!parsed.duplicate_keys.empty()) {
    const DuplicateKey& first = parsed.duplicate_keys.front();
    return SchemaProblem{first.pointer, "the key \"" + first.key +
                                            "\" is given twice in one object (a reader could not tell which "
                                            "value is meant)"};
  }
  // At most kTranscriptMaxDepth levels: the copy's recursion is bounded.
  document = nlohmann::json(parsed.document);
  return std::nullopt;
}

std::vector<SchemaProblem> validate_transcript_text(const std::string& text) {
  nlohmann::json document;
  if (std::optional<SchemaProblem> problem = transcript_text_problem(text, document)) {
    return {std::move(*problem)};
  }
  return validate_transcript(document);
}

}  // namespace labrun
