#include "verify/compare.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "base/format.hpp"

namespace labrun {

std::string Tolerance::describe() const {
  return "|got - expected| <= " + scientific(absolute) + " + " + scientific(relative) +
         " * |expected|; NaN or infinity fails";
}

CorrectnessCheck compare_with_reference(const std::string& version, const std::vector<float>& got,
                                        const std::vector<double>& expected, const Tolerance& tolerance) {
  if (got.size() != expected.size()) {
    throw std::invalid_argument("compare_with_reference: " + version + " has " + std::to_string(got.size()) +
                                " elements, the reference " + std::to_string(expected.size()));
  }
  CorrectnessCheck check;
  check.version = version;
  check.elements = got.size();
  check.tolerance = tolerance.describe();
  double error_squares = 0.0;
  double reference_squares = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double value = static_cast<double>(got[i]);
    const double error = std::fabs(value - expected[i]);
    const bool finite = std::isfinite(value);
    if (finite) {
      error_squares += error * error;
      reference_squares += expected[i] * expected[i];
      check.max_abs_error = std::max(check.max_abs_error, error);
      if (expected[i] != 0.0) {
        check.max_rel_error = std::max(check.max_rel_error, error / std::fabs(expected[i]));
      }
    }
    const bool within = finite && error <= tolerance.absolute + tolerance.relative * std::fabs(expected[i]);
    if (!within) {
      if (check.mismatches == 0) {
        check.first_bad_index = i;
        check.first_bad_got = value;
        check.first_bad_expected = expected[i];
      }
      ++check.mismatches;
    }
  }
  check.relative_l2_error = reference_squares > 0.0 ? std::sqrt(error_squares / reference_squares) : 0.0;
  check.passed = check.mismatches == 0;
  return check;
}

BitwiseComparison compare_bitwise(const std::string& first_name, const std::vector<float>& first,
                                  const std::string& second_name, const std::vector<float>& second) {
  if (first.size() != second.size()) {
    throw std::invalid_argument("compare_bitwise: " + first_name + " and " + second_name +
                                " differ in length");
  }
  BitwiseComparison comparison;
  comparison.first = first_name;
  comparison.second = second_name;
  comparison.elements = first.size();
  for (std::size_t i = 0; i < first.size(); ++i) {
    if (std::bit_cast<std::uint32_t>(first[i]) != std::bit_cast<std::uint32_t>(second[i])) {
      ++comparison.differing;
      const double difference = std::fabs(static_cast<double>(first[i]) - static_cast<double>(second[i]));
      if (std::isfinite(difference)) {
        comparison.max_abs_difference = std::max(comparison.max_abs_difference, difference);
      }
    }
  }
  return comparison;
}

}  // namespace labrun
