#pragma once
// Number formatting shared by the text renderings, so every table prints figures the same way.

#include <cstdint>
#include <string>

namespace labrun {

//! Fixed-point with `decimals` digits after the point ("0.548"); "nan"/"inf" for non-finite.
[[nodiscard]] std::string fixed(double value, int decimals);
//! Scientific with 2 significant decimals ("2.38e-07").
[[nodiscard]] std::string scientific(double value);
//! A figure for a summary cell: whole numbers of 1000 or more without decimals, others with two.
[[nodiscard]] std::string compact_number(double value);
//! Percentage of a fraction with one decimal ("100.0%").
[[nodiscard]] std::string percent(double fraction);
//! A byte count per element: whole numbers without decimals ("36"), others with up to two, trailing
//! zeros dropped ("4.5", "4.03").
[[nodiscard]] std::string bytes_per_element_text(double bytes);
//! Binary size ("60.0 MiB").
[[nodiscard]] std::string binary_size(std::uint64_t bytes);

}  // namespace labrun
