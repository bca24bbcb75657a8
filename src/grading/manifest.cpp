#include "grading/manifest.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "evidence/atomic_file.hpp"

namespace labrun {

Manifest parse_manifest(const std::string& text, const std::string& origin) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw ManifestError(origin + ": malformed JSON at byte " + std::to_string(error.byte));
  }
  if (!document.is_object()) {
    throw ManifestError(origin + ": expected a JSON object");
  }
  const std::set<std::string> known{"student_id", "bytes_per_element", "launches",
                                    "predicted_ratio_vs_staged", "predicted_ratio_vs_fused"};
  for (const auto& item : document.items()) {
    if (known.count(item.key()) == 0) {
      throw ManifestError(origin + ": /" + item.key() + ": unknown field");
    }
  }
  const auto field = [&](const char* key) -> const nlohmann::json& {
    if (!document.contains(key)) {
      throw ManifestError(origin + ": /" + key + ": missing");
    }
    return document.at(key);
  };
  const auto number = [&](const char* key) {
    const nlohmann::json& value = field(key);
    if (!value.is_number() || value.get<double>() <= 0.0) {
      throw ManifestError(origin + ": /" + key + ": expected a positive number");
    }
    return value.get<double>();
  };
  Manifest manifest;
  const nlohmann::json& id = field("student_id");
  if (!id.is_string() || id.get<std::string>().empty()) {
    throw ManifestError(origin + ": /student_id: expected a non-empty string");
  }
  manifest.student_id = id.get<std::string>();
  manifest.bytes_per_element = number("bytes_per_element");
  const nlohmann::json& launches = field("launches");
  if (!launches.is_number_integer() || launches.get<int>() < 1) {
    throw ManifestError(origin + ": /launches: expected a positive integer");
  }
  manifest.launches = launches.get<int>();
  manifest.predicted_ratio_vs_staged = number("predicted_ratio_vs_staged");
  manifest.predicted_ratio_vs_fused = number("predicted_ratio_vs_fused");
  return manifest;
}

Manifest read_manifest(const std::filesystem::path& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const std::runtime_error& error) {
    throw ManifestError(error.what());
  }
  return parse_manifest(text, path.string());
}

std::filesystem::path manifest_beside(const std::filesystem::path& submission) {
  std::filesystem::path same_stem = submission;
  same_stem.replace_extension(".json");
  if (std::filesystem::exists(same_stem)) {
    return same_stem;
  }
  std::filesystem::path in_folder = submission.parent_path() / "manifest.json";
  if (std::filesystem::exists(in_folder)) {
    return in_folder;
  }
  return {};
}

}  // namespace labrun
