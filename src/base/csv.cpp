#include "base/csv.hpp"

#include <cctype>

namespace labrun {
namespace {

// Whether the whole field is one decimal number as a spreadsheet reads one: an optional sign,
// digits with at most one decimal point (at least one digit), and an optional exponent with digits.
// Nothing else: no leading space, no "inf" or "nan" (strtod reads "-nan(1)" as a number; a
// spreadsheet reads it as a formula), no hexadecimal.
bool is_number(const std::string& field) {
  std::size_t at = 0;
  const auto digits = [&] {
    const std::size_t start = at;
    while (at < field.size() && std::isdigit(static_cast<unsigned char>(field[at])) != 0) {
      ++at;
    }
    return at - start;
  };
  if (at < field.size() && (field[at] == '+' || field[at] == '-')) {
    ++at;
  }
  std::size_t mantissa = digits();
  if (at < field.size() && field[at] == '.') {
    ++at;
    mantissa += digits();
  }
  if (mantissa == 0) {
    return false;
  }
  if (at < field.size() && (field[at] == 'e' || field[at] == 'E')) {
    ++at;
    if (at < field.size() && (field[at] == '+' || field[at] == '-')) {
      ++at;
    }
    if (digits() == 0) {
      return false;
    }
  }
  return at == field.size();
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
