#include "base/csv.hpp"

#include <cstdlib>

namespace labrun {
namespace {

// Whether the whole field reads as one number ("-1.5", "+3", "-inf" does not count).
bool is_number(const std::string& field) {
  if (field.empty()) {
    return false;
  }
  const char* begin = field.c_str();
  char* end = nullptr;
  static_cast<void>(std::strtod(begin, &end));
  const bool digits = field.find_first_of("0123456789") != std::string::npos;
  return end == begin + field.size() && digits && field.find_first_of("xXpP") == std::string::npos;
}

// A field a spreadsheet would evaluate: it starts with a formula character and is not a number.
bool reads_as_formula(const std::string& field) {
  return !field.empty() && std::string("=+-@\t\r").find(field.front()) != std::string::npos &&
         !is_number(field);
}

}  // namespace

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string field = reads_as_formula(fields[i]) ? "'" + fields[i] : fields[i];
    if (i > 0) {
      line += ',';
    }
    if (field.find_first_of(",\"\r\n") == std::string::npos) {
      line += field;
      continue;
    }
    line += '"';
    for (const char c : field) {
      line += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    line += '"';
  }
  return line;
}

}  // namespace labrun
