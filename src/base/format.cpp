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

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void append_byte_escape(std::string& out, unsigned char byte) {
  out += "\\x";
  out += kHexDigits[byte >> 4U];
  out += kHexDigits[byte & 0x0FU];
}

// The length of the well-formed UTF-8 sequence at text[at] (1 to 4), or 0 when the byte there starts
// none: no overlong form, surrogate or code point above U+10FFFF (RFC 3629).
std::size_t utf8_sequence_length(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) {
    return 1;
  }
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    low = lead == 0xE0 ? 0xA0 : 0x80;
    high = lead == 0xED ? 0x9F : 0xBF;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    low = lead == 0xF0 ? 0x90 : 0x80;
    high = lead == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (at + length > text.size() || byte(at + 1) < low || byte(at + 1) > high) {
    return 0;
  }
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) {
      return 0;
    }
  }
  return length;
}

}  // namespace

std::string name_text(const std::string& bytes) {
  std::string text;
  text.reserve(bytes.size());
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t length = utf8_sequence_length(bytes, at);
    if (length == 0) {
      append_byte_escape(text, static_cast<unsigned char>(bytes[at]));
      ++at;
    } else {
      text.append(bytes, at, length);
      at += length;
    }
  }
  return text;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string one_line(const std::string& text) {
  const std::string valid = name_text(text);
  std::string line;
  line.reserve(valid.size());
  for (const char c : valid) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else if (c == '\t') {
      line += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      append_byte_escape(line, byte);
    } else {
      line += c;
    }
  }
  return line;
}

}  // namespace labrun
