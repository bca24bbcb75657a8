#pragma once
// Comparing a version's float output with a float64 reference, and two float outputs bit for bit.

#include <cstdint>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace labrun {

//! Elementwise tolerance: |got - expected| <= absolute + relative * |expected|. NaN or infinity
//! in `got` always fails (a poisoned, unwritten element is NaN).
struct Tolerance {
  double absolute = 1e-5;
  double relative = 1e-5;
  [[nodiscard]] std::string describe() const;
};

//! Compares got[i] with expected[i] for every i; the sizes must match (std::invalid_argument).
[[nodiscard]] CorrectnessCheck compare_with_reference(const std::string& version,
                                                      const std::vector<float>& got,
                                                      const std::vector<double>& expected,
                                                      const Tolerance& tolerance);

//! Counts the elements whose bit patterns differ and the largest absolute difference.
[[nodiscard]] BitwiseComparison compare_bitwise(const std::string& first_name,
                                                const std::vector<float>& first,
                                                const std::string& second_name,
                                                const std::vector<float>& second);

}  // namespace labrun
