#pragma once
// The aggregate as JSON: every figure of every card with its runs, median, min and max, every
// claim's tally, and every file with what became of it. Its "format" is "labrun-aggregate", its
// "format_version" kAggregateFormatVersion (docs/aggregating.md lists the fields).

#include <nlohmann/json.hpp>

#include "aggregate/aggregate.hpp"

namespace labrun {

[[nodiscard]] nlohmann::ordered_json aggregate_to_json(const Aggregate& aggregate);

}  // namespace labrun
