#include "support/json_shape.hpp"

#include <set>

namespace labrun::testing {
namespace {

std::string type_of(const nlohmann::json& value) {
  if (value.is_number()) {
    return "number";  // integer or not: JSON Schema's "number" covers both
  }
  return value.type_name();
}

void collect(const nlohmann::json& value, const std::string& pointer, std::set<std::string>& lines) {
  lines.insert((pointer.empty() ? "/" : pointer) + " " + type_of(value));
  if (value.is_object()) {
    for (const auto& item : value.items()) {
      collect(item.value(), pointer + "/" + item.key(), lines);
    }
  } else if (value.is_array()) {
    for (const auto& element : value) {
      collect(element, pointer + "/*", lines);
    }
  }
}

}  // namespace

std::string json_shape(const nlohmann::json& document) {
  std::set<std::string> lines;
  collect(document, "", lines);
  std::string shape;
  for (const std::string& line : lines) {
    shape += line + "\n";
  }
  return shape;
}

}  // namespace labrun::testing
