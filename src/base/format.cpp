#include "base/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace labrun {

std::string fixed(double value, int decimals) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string scientific(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

std::string compact_number(double value) {
  if (std::fabs(value) >= 1000.0 && value == std::floor(value)) {
    return fixed(value, 0);
  }
  return fixed(value, 2);
}

std::string significant(double value, int digits) {
  if (!std::isfinite(value)) {
    return fixed(value, 0);
  }
  const double magnitude = std::fabs(value);
  const int exponent = magnitude > 0.0 ? static_cast<int>(std::floor(std::log10(magnitude))) : 0;
  std::string text = fixed(value, std::clamp(digits - 1 - exponent, 0, 12));
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  return text;
}

std::string percent(double fraction) {
  return fixed(fraction * 100.0, 1) + "%";
}

std::string binary_size(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? std::to_string(bytes) + " B" : fixed(value, 1) + " " + units[unit];
}

std::string bytes_per_element_text(double bytes) {
  std::string text = fixed(bytes, 2);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') {
      text.pop_back();
    }
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  return text;
}

std::string escape_markdown(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    const bool opens_markup =
        std::isalpha(static_cast<unsigned char>(next)) != 0 || next == '/' || next == '!' || next == '?';
    if (c == '<' && opens_markup) {
      out += "&lt;";  // a tag, a comment or an autolink would start here
    } else if (c == '&' && (next == '#' || std::isalpha(static_cast<unsigned char>(next)) != 0)) {
      out += "\\&";  // a character reference (&#x202E;, &lt;) would start here
    } else if (c == '\\' || c == '`' || c == '[' || c == ']' || c == '|') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string markdown_code_span(const std::string& text) {
  std::string out = "`";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += c == '`' ? '\'' : (byte < 0x20 || byte == 0x7f ? ' ' : c);
  }
  return out + "`";
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += (i == 0 ? "" : separator) + items[i];
  }
  return text;
}

std::string one_line(const std::string& text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string line;
  line.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else if (c == '\t') {
      line += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      line += "\\x";
      line += kHex[byte >> 4U];
      line += kHex[byte & 0x0FU];
    } else {
      line += c;
    }
  }
  return line;
}

}  // namespace labrun
