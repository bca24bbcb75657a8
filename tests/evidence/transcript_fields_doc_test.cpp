// docs/transcript-fields.md is the field list of the transcript: it must name the current version
// as current, every version labrun reads, and every field and environment fact the current schema
// defines. This test fails when the code (the schema it writes against) and the document drift.

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "base/atomic_file.hpp"
#include "core/environment_contract.hpp"
#include "core/install_layout.hpp"
#include "evidence/transcript_json.hpp"

namespace {

// Every word inside a `code span` of the document: "lab.name" gives "lab" and "name".
std::set<std::string> code_words(const std::string& markdown) {
  std::set<std::string> words;
  const std::regex span("`([^`]+)`");
  const std::regex word("[A-Za-z0-9_]+");
  for (auto it = std::sregex_iterator(markdown.begin(), markdown.end(), span); it != std::sregex_iterator();
       ++it) {
    const std::string text = (*it)[1].str();
    for (auto w = std::sregex_iterator(text.begin(), text.end(), word); w != std::sregex_iterator(); ++w) {
      words.insert(w->str());
    }
  }
  return words;
}

// Every property name a schema defines, at any depth.
void property_names(const nlohmann::json& node, std::set<std::string>& names) {
  if (node.is_object()) {
    if (const auto properties = node.find("properties");
        properties != node.end() && properties->is_object()) {
      for (const auto& item : properties->items()) {
        names.insert(item.key());
      }
    }
    for (const auto& item : node.items()) {
      property_names(item.value(), names);
    }
  } else if (node.is_array()) {
    for (const auto& item : node) {
      property_names(item, names);
    }
  }
}

}  // namespace

TEST_CASE("docs/transcript-fields.md lists every field of the current schema and names it current") {
  const std::string doc = labrun::read_file(std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path() /
                                            "docs/transcript-fields.md");
  const std::string current = labrun::kTranscriptSchemaVersion;
  CHECK(doc.find("`" + current + "` (current)") != std::string::npos);
  for (const std::string& version : labrun::readable_schema_versions()) {
    INFO("version " << version);
    CHECK(doc.find("- **" + version + "**") != std::string::npos);
  }
  const nlohmann::json schema = nlohmann::json::parse(
      labrun::read_file(labrun::find_data_file("schema/transcript-" + current + ".schema.json")));
  std::set<std::string> fields;
  property_names(schema, fields);
  for (const labrun::RequiredFactGroup& group : labrun::measured_environment_contract()) {
    fields.insert(group.name);
    fields.insert(group.facts.begin(), group.facts.end());
  }
  const std::set<std::string> documented = code_words(doc);
  for (const std::string& field : fields) {
    INFO("field `" << field << "` of schema " << current << " is not in docs/transcript-fields.md");
    CHECK(documented.count(field) == 1);
  }
}
