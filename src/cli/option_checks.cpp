#include "cli/option_checks.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace labrun {
namespace {

// The option's text as a finite number, or nullopt.
std::optional<double> as_number(const std::string& text) {
  double value = 0.0;
  if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::string plain_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

CLI::Validator whole_number_from(long long low, long long high) {
  const std::string range = "a whole number from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string& input) -> std::string {
        long long value = 0;
        if (!CLI::detail::lexical_cast(input, value) || value < low || value > high) {
          return "'" + input + "' is not " + range;
        }
        return {};
      },
      "INT in " + std::to_string(low) + ".." + std::to_string(high));
}

CLI::Validator number_from(double low, double high) {
  const std::string range = "a number from " + plain_number(low) + " to " + plain_number(high);
  return CLI::Validator(
      [low, high, range](std::string& input) -> std::string {
        const std::optional<double> value = as_number(input);
        if (!value || *value < low || *value > high) {
          return "'" + input + "' is not " + range;
        }
        return {};
      },
      "NUMBER in " + plain_number(low) + ".." + plain_number(high));
}

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        const std::optional<double> value = as_number(input);
        if (!value || *value <= 0.0) {
          return "'" + input + "' is not a number above 0";
        }
        return {};
      },
      "POSITIVE");
}

CLI::Validator non_negative_number() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        const std::optional<double> value = as_number(input);
        if (!value || *value < 0.0) {
          return "'" + input + "' is not a number of 0 or more";
        }
        return {};
      },
      "NONNEGATIVE");
}

}  // namespace labrun
