#pragma once
// The aggregate as CSV (RFC 4180): one file per lab, one row per card, one column per figure, so
// that a spreadsheet can sort and chart the class's cards.

#include <string>
#include <vector>

#include "aggregate/aggregate.hpp"
#include "base/csv.hpp"  // csv_line

namespace labrun {

//! The lab's cards as CSV text: a header line, then one line per card, every line ending "\r\n".
[[nodiscard]] std::string aggregate_lab_to_csv(const LabAggregate& lab);

}  // namespace labrun
