#pragma once
// CSV lines as RFC 4180 writes them, for every CSV file labrun writes.

#include <string>
#include <vector>

namespace labrun {

//! One CSV line (without its line ending, which is "\r\n" in every file labrun writes): fields
//! quoted when they hold a comma, a quote or a line break, quotes doubled.
[[nodiscard]] std::string csv_line(const std::vector<std::string>& fields);

}  // namespace labrun
