#pragma once
// A small RFC 4180 reader for tests: reads back what labrun's CSV writers wrote.

#include <stdexcept>
#include <string>
#include <vector>

namespace labrun::testing {

//! The records of `text`: fields separated by commas, records by "\r\n" (or "\n"); a quoted field
//! may hold commas, line breaks and doubled quotes. Throws std::invalid_argument for a quote that
//! is never closed or text after a closing quote.
inline std::vector<std::vector<std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '"' && field.empty()) {
      ++i;
      for (;;) {
        if (i >= text.size()) {
          throw std::invalid_argument("unclosed quote");
        }
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += text[i++];
      }
      if (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
        throw std::invalid_argument("text after a closing quote");
      }
      continue;
    }
    if (text[i] == ',') {
      record.push_back(field);
      field.clear();
      ++i;
    } else if (text[i] == '\r' || text[i] == '\n') {
      i += text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? 2 : 1;
      record.push_back(field);
      field.clear();
      records.push_back(record);
      record.clear();
    } else {
      field += text[i++];
    }
  }
  if (!field.empty() || !record.empty()) {
    record.push_back(field);
    records.push_back(record);
  }
  return records;
}

}  // namespace labrun::testing
