#pragma once
// CSV lines as RFC 4180 writes them, for every CSV file labrun writes.

#include <string>
#include <vector>

namespace labrun {

//! One CSV line (without its line ending): fields quoted when they hold a comma, a quote or a line
//! break, quotes doubled. A text field a spreadsheet would run as a formula (starting with '=',
//! '+', '-', '@', a tab or a carriage return, and not a number such as "-1.5") is written with a
//! leading apostrophe, so opening the file never runs what a transcript or a manifest said: a
//! student id "=HYPERLINK(...)" stays text.
[[nodiscard]] std::string csv_line(const std::vector<std::string>& fields);

}  // namespace labrun
