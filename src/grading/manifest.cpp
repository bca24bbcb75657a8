#include "grading/manifest.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "base/bounded_read.hpp"
#include "base/format.hpp"
#include "base/json_parse.hpp"
#include "grading/utf8.hpp"

namespace labrun {
namespace {

using UnorderedJson = nlohmann::ordered_json;  // as parse_json_finding_duplicates reads it; order is unused

constexpr std::int64_t kMaxElementsPerThread = 64;

// A number as JSON wrote it: integers exactly, others with up to 17 significant digits.
std::string shown(const UnorderedJson& value) {
  std::string text = value.dump(-1, ' ', false, UnorderedJson::error_handler_t::replace);
  constexpr std::size_t kShownMax = 40;  // code points
  return first_code_points(text, kShownMax);
}

// A pointer as problems show it: a key of the manifest's may be long (only the manifest's 64 KiB
// bound it), so at most kShownPointerMax code points of it are shown.
constexpr std::size_t kShownPointerMax = 80;
std::string shown_pointer(const std::string& pointer) {
  return first_code_points(pointer, kShownPointerMax);
}

class FieldReader {
 public:
  //! `duplicated`: pointers of keys given twice, which the document no longer holds; a field there
  //! is neither used nor reported missing (its problem is already listed).
  FieldReader(const UnorderedJson& document, std::vector<std::string>& problems,
              std::set<std::string> duplicated)
      : document_(document), problems_(problems), duplicated_(std::move(duplicated)) {}

  [[nodiscard]] bool duplicated(const std::string& pointer) const { return duplicated_.count(pointer) > 0; }

  const UnorderedJson* find(const std::string& pointer, const UnorderedJson& within, const std::string& key) {
    if (duplicated(pointer)) {
      return nullptr;
    }
    if (!within.contains(key)) {
      problems_.push_back(shown_pointer(pointer) + ": missing");
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
      problems_.push_back(shown_pointer(pointer) + ": expected a number, got " + shown(*value));
      return std::nullopt;
    }
    const double number = value->get<double>();
    if (!std::isfinite(number) || number <= 0.0 || number > max) {
      problems_.push_back(shown_pointer(pointer) + ": expected a number greater than 0 and at most " +
                          fixed(max, 0) + ", got " + shown(*value));
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
      problems_.push_back(shown_pointer(pointer) + ": expected a whole number from " + std::to_string(low) +
                          " to " + std::to_string(high) + ", got " + shown(*value));
      return std::nullopt;
    }
    return number;
  }

 private:
  const UnorderedJson& document_;
  std::vector<std::string>& problems_;
  std::set<std::string> duplicated_;
};

// [x, y]: two whole numbers, each from `low` to `high`; nullopt (with a problem) otherwise.
std::optional<std::pair<int, int>> read_pair(const UnorderedJson& shape, const std::string& shape_pointer,
                                             const char* key, int low, int high,
                                             std::vector<std::string>& problems) {
  const std::string where = shape_pointer + "/" + key;
  const auto whole = [&](const UnorderedJson& v) {
    return (v.is_number_unsigned() || v.is_number_integer()) && v.get<std::int64_t>() >= low &&
           v.get<std::int64_t>() <= high;
  };
  if (!shape.contains(key)) {
    problems.push_back(where + ": missing (a 2-D shape gives [x, y])");
    return std::nullopt;
  }
  const UnorderedJson& value = shape.at(key);
  if (!value.is_array() || value.size() != 2 || !whole(value[0]) || !whole(value[1])) {
    problems.push_back(where + ": expected [x, y], two whole numbers from " + std::to_string(low) + " to " +
                       std::to_string(high));
    return std::nullopt;
  }
  return std::pair{static_cast<int>(value[0].get<std::int64_t>()),
                   static_cast<int>(value[1].get<std::int64_t>())};
}

// A 2-D shape: {"threads_per_block": [x, y], "elements_per_thread": [x, y]} (no grid_stride).
std::optional<LaunchShape> read_image_shape(const UnorderedJson& shape, const std::string& shape_pointer,
                                            std::vector<std::string>& problems) {
  if (shape.contains("grid_stride")) {
    problems.push_back(shape_pointer +
                       "/grid_stride: a 2-D shape gives elements_per_thread as [x, y] instead");
    return std::nullopt;
  }
  const auto threads = read_pair(shape, shape_pointer, "threads_per_block", 1, 1024, problems);
  const auto per_thread = read_pair(shape, shape_pointer, "elements_per_thread", 1,
                                    static_cast<int>(kMaxElementsPerThread), problems);
  if (!threads || !per_thread) {
    return std::nullopt;
  }
  const int total = threads->first * threads->second;
  if (total < 32 || total > 1024 || total % 32 != 0) {
    problems.push_back(shape_pointer +
                       "/threads_per_block: expected x times y from 32 to 1024, a multiple of "
                       "32 (whole warps), got " +
                       std::to_string(total));
    return std::nullopt;
  }
  if (static_cast<std::int64_t>(per_thread->first) * per_thread->second > kMaxElementsPerThread) {
    problems.push_back(shape_pointer + "/elements_per_thread: expected x times y at most " +
                       std::to_string(kMaxElementsPerThread));
    return std::nullopt;
  }
  LaunchShape result;
  result.two_d = true;
  result.threads_per_block = threads->first;
  result.threads_y = threads->second;
  result.elements_per_thread = per_thread->first;
  result.elements_y = per_thread->second;
  return result;
}

// `pointer`: the shape's pointer, "/kernels/NAME" with NAME one of the exercise's kernels.
std::optional<LaunchShape> read_shape(FieldReader& reader, const std::string& pointer,
                                      const UnorderedJson& shape, std::vector<std::string>& problems) {
  for (const char* field : {"threads_per_block", "elements_per_thread", "grid_stride"}) {
    if (reader.duplicated(pointer + "/" + field)) {
      return std::nullopt;  // named already; the shape cannot be used without it
    }
  }
  const std::string shape_pointer = shown_pointer(pointer);
  if (!shape.is_object()) {
    problems.push_back(shape_pointer +
                       ": expected an object with threads_per_block and elements_per_thread or "
                       "grid_stride");
    return std::nullopt;
  }
  for (const auto& item : shape.items()) {
    if (item.key() != "threads_per_block" && item.key() != "elements_per_thread" &&
        item.key() != "grid_stride") {
      problems.push_back(shown_pointer(pointer + "/" + json_pointer_token(item.key())) + ": unknown field");
      return std::nullopt;
    }
  }
  if (shape.contains("threads_per_block") && shape.at("threads_per_block").is_array()) {
    return read_image_shape(shape, shape_pointer, problems);
  }
  LaunchShape result;
  const auto threads = reader.integer(pointer + "/threads_per_block", shape, "threads_per_block", 32, 1024);
  if (!threads) {
    return std::nullopt;
  }
  if (*threads % 32 != 0) {
    problems.push_back(shape_pointer + "/threads_per_block: expected a multiple of 32 (whole warps), got " +
                       std::to_string(*threads));
    return std::nullopt;
  }
  result.threads_per_block = static_cast<int>(*threads);
  const bool has_per_thread = shape.contains("elements_per_thread");
  const bool has_stride = shape.contains("grid_stride");
  if (has_per_thread == has_stride) {
    problems.push_back(shape_pointer + ": give exactly one of elements_per_thread and grid_stride");
    return std::nullopt;
  }
  if (has_stride) {
    if (shape.at("grid_stride") != true) {
      problems.push_back(shape_pointer + "/grid_stride: expected true (or give elements_per_thread instead)");
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

// Why a student id (or an exercise's name) cannot be used, or nullopt when it can: it must be a
// string of 1 to kStudentIdMaxLength code points, none of them hidden (utf8.hpp's
// is_hidden_code_point: controls, bidirectional and other format characters, zero-width and
// invisible ones), because it is shown in every report and summary, where such characters could
// reorder or hide what is around it.
std::optional<std::string> student_id_problem(const UnorderedJson& id) {
  const std::string expected = "expected a non-empty string of at most " +
                               std::to_string(kStudentIdMaxLength) + " printable characters";
  if (!id.is_string() || id.get_ref<const std::string&>().empty()) {
    return expected;
  }
  const std::string& text = id.get_ref<const std::string&>();
  const std::optional<std::size_t> characters = code_point_count(text);
  if (!characters) {
    return expected + " (it is not UTF-8)";
  }
  if (*characters > kStudentIdMaxLength) {
    return expected + ", got " + std::to_string(*characters) + " characters";
  }
  if (const std::optional<HiddenCodePoint> hidden = first_hidden_code_point(text)) {
    return expected + "; character " + std::to_string(hidden->position + 1) + " is " +
           code_point_name(hidden->code_point) +
           ", a control, format or invisible character (a bidirectional override, a zero-width space, a "
           "byte-order mark...)";
  }
  return std::nullopt;
}

}  // namespace

std::string LaunchShape::describe() const {
  if (two_d) {
    return std::to_string(threads_per_block) + " x " + std::to_string(threads_y) + " threads per block, " +
           std::to_string(elements_per_thread) + " x " + std::to_string(elements_y) + " elements per thread";
  }
  std::string text = std::to_string(threads_per_block) + " threads per block, ";
  if (grid_stride) {
    return text + "grid-stride";
  }
  return text + std::to_string(elements_per_thread) + (elements_per_thread == 1 ? " element" : " elements") +
         " per thread";
}

std::optional<double> Manifest::answer(const std::string& key) const {
  const auto found = answers.find(key);
  return found == answers.end() ? std::nullopt : std::optional<double>(found->second);
}

Manifest parse_manifest(const std::string& text, const std::string& origin, const ManifestSchema& schema) {
  const std::vector<std::string>& kernel_names = schema.kernels;
  if (text.size() > kManifestMaxBytes) {
    throw ManifestError(origin + ": " + std::to_string(text.size()) + " bytes, more than the " +
                        std::to_string(kManifestMaxBytes) + " a manifest may have");
  }
  ParsedJson parsed;
  try {
    parsed = parse_json_finding_duplicates(text);
  } catch (const UnorderedJson::parse_error& error) {
    throw ManifestError(origin + ": malformed JSON at byte " + std::to_string(error.byte));
  } catch (const UnorderedJson::out_of_range&) {
    throw ManifestError(origin + ": a number is too large for a double (JSON numbers here must be finite)");
  } catch (const std::exception& error) {
    throw ManifestError(origin + ": unreadable JSON (" + std::string(error.what()) + ")");
  }
  const UnorderedJson& document = parsed.document;
  if (!document.is_object()) {
    throw ManifestError(origin + ": expected a JSON object");
  }
  Manifest manifest;
  // A key given twice is not used at all: which of its values the student meant is unknown.
  std::set<std::string> duplicated;
  for (const DuplicateKey& twice : parsed.duplicate_keys) {
    duplicated.insert(twice.pointer);
    manifest.problems.push_back(shown_pointer(twice.pointer) +
                                ": given more than once in its object; none of its values is used");
  }
  if (parsed.duplicate_keys_not_recorded > 0) {
    manifest.problems.push_back(std::to_string(parsed.duplicate_keys_not_recorded) +
                                " more keys given more than once, none of them used");
  }
  std::set<std::string> known{"student_id", "exercise", "kernels"};
  for (const AnswerField& field : schema.answers) {
    known.insert(field.key);
  }
  for (const auto& item : document.items()) {
    if (known.count(item.key()) == 0) {
      manifest.problems.push_back(shown_pointer("/" + json_pointer_token(item.key())) + ": unknown field");
    }
  }
  FieldReader reader(document, manifest.problems, duplicated);
  if (const UnorderedJson* id = reader.find("/student_id", document, "student_id")) {
    if (const std::optional<std::string> problem = student_id_problem(*id)) {
      manifest.problems.push_back("/student_id: " + *problem);
    } else {
      manifest.student_id = id->get<std::string>();
    }
  }
  if (document.contains("exercise") && !duplicated.count("/exercise")) {
    if (const std::optional<std::string> problem = student_id_problem(document.at("exercise"))) {
      manifest.problems.push_back("/exercise: " + *problem);
    } else {
      manifest.exercise = document.at("exercise").get<std::string>();
    }
  }
  for (const AnswerField& field : schema.answers) {
    std::optional<double> value;
    if (field.whole) {
      const auto whole =
          reader.integer("/" + field.key, document, field.key, 1, static_cast<std::int64_t>(field.max));
      value = whole ? std::optional<double>(static_cast<double>(*whole)) : std::nullopt;
    } else {
      value = reader.positive_number(field.key, field.max);
    }
    if (value) {
      manifest.answers.emplace(field.key, *value);
    }
  }
  if (const UnorderedJson* kernels = reader.find("/kernels", document, "kernels")) {
    if (!kernels->is_object()) {
      manifest.problems.push_back("/kernels: expected an object with one launch shape per kernel name");
    } else {
      for (const auto& item : kernels->items()) {
        const std::string pointer = "/kernels/" + json_pointer_token(item.key());
        if (!kernel_names.empty() &&
            std::find(kernel_names.begin(), kernel_names.end(), item.key()) == kernel_names.end()) {
          manifest.problems.push_back(shown_pointer(pointer) + ": not a kernel of this exercise");
          continue;
        }
        if (const auto shape = read_shape(reader, pointer, item.value(), manifest.problems)) {
          manifest.kernels.emplace(item.key(), *shape);
        }
      }
      for (const std::string& name : kernel_names) {
        if (!kernels->contains(name) && !reader.duplicated("/kernels/" + name)) {
          manifest.problems.push_back("/kernels/" + name + ": missing");
        }
      }
    }
  }
  return manifest;
}

Manifest read_manifest(const std::filesystem::path& path, const ManifestSchema& schema) {
  std::string text;
  try {
    text = read_regular_file(path, kManifestMaxBytes);
  } catch (const std::runtime_error& error) {
    throw ManifestError(error.what());
  }
  return parse_manifest(text, path.string(), schema);
}

ManifestHint read_manifest_hint(const std::filesystem::path& path) {
  ManifestHint hint;
  try {
    std::error_code error;
    if (path.empty() || std::filesystem::is_symlink(path, error)) {
      return hint;
    }
    const UnorderedJson document =
        parse_json_finding_duplicates(read_regular_file(path, kManifestMaxBytes)).document;
    if (!document.is_object()) {
      return hint;
    }
    if (const auto exercise = document.find("exercise");
        exercise != document.end() && exercise->is_string() && !student_id_problem(*exercise)) {
      hint.exercise = exercise->get<std::string>();
    }
    if (const auto kernels = document.find("kernels"); kernels != document.end() && kernels->is_object()) {
      for (const auto& item : kernels->items()) {
        hint.kernels.push_back(item.key());
      }
    }
  } catch (const std::exception&) {
    return ManifestHint{};
  }
  return hint;
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
