#include "evidence/format.hpp"

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

}  // namespace labrun
