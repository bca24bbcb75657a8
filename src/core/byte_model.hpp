#pragma once
// The byte model: the traffic a case must move through device memory, declared per element, and
// beside it the flop model: the floating-point work it must do per element. Every GB/s figure and
// every predicted ratio in the harness is computed from the bytes; every GFLOP/s figure and every
// arithmetic intensity (the roofline, evidence/roofline.hpp) from the flops over the bytes.

#include <cstdint>
#include <optional>
#include <string>

namespace labrun {

struct ByteModel {
  double read_bytes_per_element = 0.0;   //!< bytes read from global memory per element
  double write_bytes_per_element = 0.0;  //!< bytes written to global memory per element
  int launches = 0;                      //!< kernel launches per execution of the case's region
  //! FP32 floating-point operations per element, counted from the source: an add, subtract or
  //! multiply is 1, a fused multiply-add 2, a square root, division or transcendental call 1, a
  //! comparison, min or max 0 (docs/measurement.md, "The roofline"). nullopt: not declared, and
  //! the case is not placed on a roofline; 0 for a case that only moves bytes (a copy).
  std::optional<double> flops_per_element = std::nullopt;

  //! Total bytes moved per element (read plus written).
  [[nodiscard]] double bytes_per_element() const { return read_bytes_per_element + write_bytes_per_element; }
};

//! The model's bytes with its flops declared: `model` with flops_per_element set.
[[nodiscard]] ByteModel with_flops(ByteModel model, double flops_per_element);

//! Bytes the model moves for n elements.
[[nodiscard]] double model_bytes(const ByteModel& model, std::uint64_t elements);

//! Effective bandwidth in GB/s (10^9 bytes per second) of moving the model's bytes for
//! `elements` in `milliseconds`. Returns 0 when the time is not positive.
[[nodiscard]] double effective_gb_per_s(const ByteModel& model, std::uint64_t elements, double milliseconds);

//! Throughput in GFLOP/s (10^9 operations per second) of the model's flops for `elements` in
//! `milliseconds`; nullopt when the flops are not declared or the time is not positive.
[[nodiscard]] std::optional<double> effective_gflop_per_s(const ByteModel& model, std::uint64_t elements,
                                                          double milliseconds);

//! Arithmetic intensity: flops per byte moved (the roofline's x). nullopt when the flops are not
//! declared or the model moves no bytes.
[[nodiscard]] std::optional<double> arithmetic_intensity(const ByteModel& model);

//! The theoretical peak memory bandwidth in GB/s from the device's attributes: two transfers per
//! memory clock (double data rate) across the bus, 2 x memory clock (kHz) x 1000 x bus width (bits)
//! / 8 / 10^9. Returns 0 when either figure is not positive.
[[nodiscard]] double theoretical_peak_gb_per_s(double memory_clock_khz, double bus_width_bits);

//! FP32 lanes per SM (results of one FP32 add, multiply or fused multiply-add per clock) of a
//! compute capability, from the CUDA C++ Programming Guide's arithmetic-instruction throughput
//! table: 64 for 7.x and 8.0, 128 for 8.6, 8.7, 8.9, 9.0, 10.x, 11.x and 12.x; nullopt for one the
//! table does not list ("6.1", an unparseable text).
[[nodiscard]] std::optional<int> fp32_lanes_per_sm(const std::string& compute_capability);

//! The theoretical FP32 peak in GFLOP/s: SMs x lanes x 2 (a fused multiply-add is two operations)
//! x the peak SM clock. Returns 0 when any figure is not positive.
[[nodiscard]] double theoretical_peak_gflop_per_s(double sm_count, double lanes_per_sm, double sm_clock_khz);

//! The ratios a model predicts between a slower case (numerator) and a faster one: the byte
//! ratio holds while both are bound by traffic, the launch ratio while both are bound by launches.
struct PredictedRatios {
  double bytes = 0.0;
  double launches = 0.0;
};
[[nodiscard]] PredictedRatios predicted_ratios(const ByteModel& numerator, const ByteModel& denominator);

}  // namespace labrun
