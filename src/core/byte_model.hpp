#pragma once
// The byte model: the traffic a case must move through device memory, declared per element.
// Every GB/s figure and every predicted ratio in the harness is computed from these numbers.

#include <cstdint>

namespace labrun {

struct ByteModel {
  double read_bytes_per_element = 0.0;   //!< bytes read from global memory per element
  double write_bytes_per_element = 0.0;  //!< bytes written to global memory per element
  int launches = 0;                      //!< kernel launches per execution of the case's region

  //! Total bytes moved per element (read plus written).
  [[nodiscard]] double bytes_per_element() const { return read_bytes_per_element + write_bytes_per_element; }
};

//! Bytes the model moves for n elements.
[[nodiscard]] double model_bytes(const ByteModel& model, std::uint64_t elements);

//! Effective bandwidth in GB/s (10^9 bytes per second) of moving the model's bytes for
//! `elements` in `milliseconds`. Returns 0 when the time is not positive.
[[nodiscard]] double effective_gb_per_s(const ByteModel& model, std::uint64_t elements, double milliseconds);

//! The theoretical peak memory bandwidth in GB/s from the device's attributes: two transfers per
//! memory clock (double data rate) across the bus, 2 x memory clock (kHz) x 1000 x bus width (bits)
//! / 8 / 10^9. Returns 0 when either figure is not positive.
[[nodiscard]] double theoretical_peak_gb_per_s(double memory_clock_khz, double bus_width_bits);

//! The ratios a model predicts between a slower case (numerator) and a faster one: the byte
//! ratio holds while both are bound by traffic, the launch ratio while both are bound by launches.
struct PredictedRatios {
  double bytes = 0.0;
  double launches = 0.0;
};
[[nodiscard]] PredictedRatios predicted_ratios(const ByteModel& numerator, const ByteModel& denominator);

}  // namespace labrun
