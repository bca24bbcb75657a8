#pragma once
// The shape of a JSON document: one line per JSON pointer with the type found there, array
// elements folded into "/*", sorted. Two documents with the same fields of the same types have
// the same shape whatever their values.

#include <nlohmann/json.hpp>
#include <string>

namespace labrun::testing {

[[nodiscard]] std::string json_shape(const nlohmann::json& document);

}  // namespace labrun::testing
