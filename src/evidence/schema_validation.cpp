#include "evidence/schema_validation.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace labrun {
namespace generated {
const std::vector<std::pair<const char*, const char*>>& transcript_schemas();
}  // namespace generated

namespace {

// Parsed schemas, built once per version on first use.
const valijson::Schema& parsed_schema(const std::string& version, const std::string& text) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<valijson::Schema>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[version];
  if (!slot) {
    const nlohmann::json document = nlohmann::json::parse(text);
    slot = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(document), *slot);
  }
  return *slot;
}

std::string escape_pointer_token(const std::string& token) {
  std::string escaped;
  for (const char c : token) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

}  // namespace

std::vector<std::string> known_schema_versions() {
  std::vector<std::string> versions;
  for (const auto& [version, text] : generated::transcript_schemas()) {
    versions.emplace_back(version);
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

std::optional<std::string> schema_text(const std::string& version) {
  for (const auto& [known, text] : generated::transcript_schemas()) {
    if (version == known) {
      return std::string(text);
    }
  }
  return std::nullopt;
}

std::string json_pointer_from_context(const std::vector<std::string>& context) {
  std::string pointer;
  for (const std::string& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
      pointer += "/" + escape_pointer_token(part.substr(1, part.size() - 2));
    }
  }
  return pointer;
}

std::vector<SchemaProblem> validate_transcript(const nlohmann::json& document) {
  if (!document.is_object()) {
    return {{"", "expected a JSON object"}};
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
      problem.pointer += "/" + escape_pointer_token(problem.message.substr(missing_prefix.size(),
                                                                           end - missing_prefix.size()));
      problem.message = "missing";
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

std::vector<SchemaProblem> validate_transcript_text(const std::string& text) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    return {{"", "malformed JSON at byte " + std::to_string(error.byte) + " (" +
                     (text.empty() ? std::string("empty file") : std::string("truncated or not JSON")) +
                     ")"}};
  }
  return validate_transcript(document);
}

}  // namespace labrun
