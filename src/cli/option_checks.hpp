#pragma once
// Checks of numeric options whose messages print their bounds as a person would write them
// ("from 1 to 100000", "above 0"), where CLI11's own ranges print 309-digit limits.

#include <CLI/CLI.hpp>

#include <string>

namespace labrun {

//! A whole number from `low` to `high`.
[[nodiscard]] CLI::Validator whole_number_from(long long low, long long high);
//! A number from `low` to `high`.
[[nodiscard]] CLI::Validator number_from(double low, double high);
//! A number above 0.
[[nodiscard]] CLI::Validator positive_number();
//! A number of 0 or more.
[[nodiscard]] CLI::Validator non_negative_number();

//! A number as a person writes it: "1", "0.25", "100000", "1e+10".
[[nodiscard]] std::string plain_number(double value);

}  // namespace labrun
