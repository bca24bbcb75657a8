#include "grading/manifest.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "base/bounded_read.hpp"
#include "base/format.hpp"

namespace labrun {
namespace {

using UnorderedJson = nlohmann::json;  // a manifest's key order does not matter

// Ranges a worked answer may take: generous, but finite and positive.
constexpr double kMaxBytesPerElement = 1000.0;
constexpr double kMaxRatio = 100.0;
constexpr std::int64_t kMaxLaunches = 64;
constexpr std::int64_t kMaxElementsPerThread = 64;

// A number as JSON wrote it: integers exactly, others with up to 17 significant digits.
std::string shown(const UnorderedJson& value) {
  std::string text = value.dump(-1, ' ', false, UnorderedJson::error_handler_t::replace);
  constexpr std::size_t kShownMax = 40;
  return text.size() > kShownMax ? text.substr(0, kShownMax) + "..." : text;
}

class FieldReader {
 public:
  FieldReader(const UnorderedJson& document, std::vector<std::string>& problems)
      : document_(document), problems_(problems) {}

  const UnorderedJson* find(const std::string& pointer, const UnorderedJson& within, const std::string& key) {
    if (!within.contains(key)) {
      problems_.push_back(pointer + ": missing");
      return nullptr;
    }
    return &within.at(key);
  }

  // A finite number in (0, max]; integers and decimals alike.
  std::optional<double> positive_number(const std::string& key, double max) {
    const std::string pointer = "/" + key;
    const UnorderedJson* value = find(pointer, document_, key);
    if (value == nullptr) {
      return std::nullopt;
    }
    if (!value->is_number()) {
      problems_.push_back(pointer + ": expected a number, got " + shown(*value));
      return std::nullopt;
    }
    const double number = value->get<double>();
    if (!std::isfinite(number) || number <= 0.0 || number > max) {
      problems_.push_back(pointer + ": expected a number greater than 0 and at most " + fixed(max, 0) +
                          ", got " + shown(*value));
      return std::nullopt;
    }
    return number;
  }

  // An integer in [low, high], read without narrowing: 2.0 and 2^32 + 2 are refused as written.
  std::optional<std::int64_t> integer(const std::string& pointer, const UnorderedJson& within,
                                      const std::string& key, std::int64_t low, std::int64_t high) {
    const UnorderedJson* value = find(pointer, within, key);
    if (value == nullptr) {
      return std::nullopt;
    }
    bool in_range = false;
    std::int64_t number = 0;
    if (value->is_number_unsigned()) {
      const std::uint64_t whole = value->get<std::uint64_t>();
      in_range = whole <= static_cast<std::uint64_t>(high);
      number = in_range ? static_cast<std::int64_t>(whole) : 0;
      in_range = in_range && number >= low;
    } else if (value->is_number_integer()) {
      number = value->get<std::int64_t>();
      in_range = number >= low && number <= high;
    }
    if (!in_range) {
      problems_.push_back(pointer + ": expected a whole number from " + std::to_string(low) + " to " +
                          std::to_string(high) + ", got " + shown(*value));
      return std::nullopt;
    }
    return number;
  }

 private:
  const UnorderedJson& document_;
  std::vector<std::string>& problems_;
};

std::optional<LaunchShape> read_shape(FieldReader& reader, const std::string& pointer,
                                      const UnorderedJson& shape, std::vector<std::string>& problems) {
  if (!shape.is_object()) {
    problems.push_back(pointer +
                       ": expected an object with threads_per_block and elements_per_thread or "
                       "grid_stride");
    return std::nullopt;
  }
  for (const auto& item : shape.items()) {
    if (item.key() != "threads_per_block" && item.key() != "elements_per_thread" &&
        item.key() != "grid_stride") {
      problems.push_back(pointer + "/" + item.key() + ": unknown field");
      return std::nullopt;
    }
  }
  LaunchShape result;
  const auto threads = reader.integer(pointer + "/threads_per_block", shape, "threads_per_block", 32, 1024);
  if (!threads) {
    return std::nullopt;
  }
  if (*threads % 32 != 0) {
    problems.push_back(pointer + "/threads_per_block: expected a multiple of 32 (whole warps), got " +
                       std::to_string(*threads));
    return std::nullopt;
  }
  result.threads_per_block = static_cast<int>(*threads);
  const bool has_per_thread = shape.contains("elements_per_thread");
  const bool has_stride = shape.contains("grid_stride");
  if (has_per_thread == has_stride) {
    problems.push_back(pointer + ": give exactly one of elements_per_thread and grid_stride");
    return std::nullopt;
  }
  if (has_stride) {
    if (shape.at("grid_stride") != true) {
      problems.push_back(pointer + "/grid_stride: expected true (or give elements_per_thread instead)");
      return std::nullopt;
    }
    result.grid_stride = true;
    return result;
  }
  const auto per_thread = reader.integer(pointer + "/elements_per_thread", shape, "elements_per_thread", 1,
                                         kMaxElementsPerThread);
  if (!per_thread) {
    return std::nullopt;
  }
  result.elements_per_thread = static_cast<int>(*per_thread);
  return result;
}

}  // namespace

std::string LaunchShape::describe() const {
  std::string text = std::to_string(threads_per_block) + " threads per block, ";
  if (grid_stride) {
    return text + "grid-stride";
  }
  return text + std::to_string(elements_per_thread) + (elements_per_thread == 1 ? " element" : " elements") +
         " per thread";
}

Manifest parse_manifest(const std::string& text, const std::string& origin,
                        const std::vector<std::string>& kernel_names) {
  if (text.size() > kManifestMaxBytes) {
    throw ManifestError(origin + ": " + std::to_string(text.size()) + " bytes, more than the " +
                        std::to_string(kManifestMaxBytes) + " a manifest may have");
  }
  UnorderedJson document;
  try {
    document = UnorderedJson::parse(text);
  } catch (const UnorderedJson::parse_error& error) {
    throw ManifestError(origin + ": malformed JSON at byte " + std::to_string(error.byte));
  } catch (const UnorderedJson::out_of_range&) {
    throw ManifestError(origin + ": a number is too large for a double (JSON numbers here must be finite)");
  } catch (const UnorderedJson::exception& error) {
    throw ManifestError(origin + ": unreadable JSON (" + std::string(error.what()) + ")");
  }
  if (!document.is_object()) {
    throw ManifestError(origin + ": expected a JSON object");
  }
  Manifest manifest;
  const std::set<std::string> known{
      "student_id", "bytes_per_element", "launches", "predicted_ratio_vs_staged", "predicted_ratio_vs_fused",
      "kernels"};
  for (const auto& item : document.items()) {
    if (known.count(item.key()) == 0) {
      manifest.problems.push_back(
          std::string("/").append(item.key().substr(0, 64)).append(": unknown field"));
    }
  }
  FieldReader reader(document, manifest.problems);
  if (const UnorderedJson* id = reader.find("/student_id", document, "student_id")) {
    const std::string id_text = id->is_string() ? id->get<std::string>() : std::string();
    const bool printable = id->is_string() && !id_text.empty() && id_text.size() <= kStudentIdMaxLength &&
                           std::all_of(id_text.begin(), id_text.end(), [](char c) {
                             return static_cast<unsigned char>(c) >= 0x20 && c != 0x7F;
                           });
    if (printable) {
      manifest.student_id = id_text;
    } else {
      manifest.problems.push_back("/student_id: expected a non-empty string of at most " +
                                  std::to_string(kStudentIdMaxLength) + " printable characters");
    }
  }
  manifest.bytes_per_element = reader.positive_number("bytes_per_element", kMaxBytesPerElement);
  if (const auto launches = reader.integer("/launches", document, "launches", 1, kMaxLaunches)) {
    manifest.launches = static_cast<int>(*launches);
  }
  manifest.predicted_ratio_vs_staged = reader.positive_number("predicted_ratio_vs_staged", kMaxRatio);
  manifest.predicted_ratio_vs_fused = reader.positive_number("predicted_ratio_vs_fused", kMaxRatio);
  if (const UnorderedJson* kernels = reader.find("/kernels", document, "kernels")) {
    if (!kernels->is_object()) {
      manifest.problems.push_back("/kernels: expected an object with one launch shape per kernel name");
    } else {
      for (const auto& item : kernels->items()) {
        const std::string pointer = std::string("/kernels/").append(item.key().substr(0, 64));
        if (!kernel_names.empty() &&
            std::find(kernel_names.begin(), kernel_names.end(), item.key()) == kernel_names.end()) {
          manifest.problems.push_back(pointer + ": not a kernel of this exercise");
          continue;
        }
        if (const auto shape = read_shape(reader, pointer, item.value(), manifest.problems)) {
          manifest.kernels.emplace(item.key(), *shape);
        }
      }
      for (const std::string& name : kernel_names) {
        if (!kernels->contains(name)) {
          manifest.problems.push_back("/kernels/" + name + ": missing");
        }
      }
    }
  }
  return manifest;
}

Manifest read_manifest(const std::filesystem::path& path, const std::vector<std::string>& kernel_names) {
  std::string text;
  try {
    text = read_regular_file(path, kManifestMaxBytes);
  } catch (const std::runtime_error& error) {
    throw ManifestError(error.what());
  }
  return parse_manifest(text, path.string(), kernel_names);
}

std::filesystem::path manifest_beside(const std::filesystem::path& submission) {
  std::filesystem::path same_stem = submission;
  same_stem.replace_extension(".json");
  std::error_code error;
  if (std::filesystem::exists(same_stem, error)) {
    return same_stem;
  }
  std::filesystem::path in_folder = submission.parent_path() / "manifest.json";
  if (std::filesystem::exists(in_folder, error)) {
    return in_folder;
  }
  return {};
}

std::vector<std::filesystem::path> submission_sources(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> sources;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".cu") {
      sources.push_back(entry.path());
    }
  }
  std::sort(sources.begin(), sources.end());
  return sources;
}

}  // namespace labrun
