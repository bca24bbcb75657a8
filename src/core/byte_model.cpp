#include "core/byte_model.hpp"

namespace labrun {

double model_bytes(const ByteModel& model, std::uint64_t elements) {
  return model.bytes_per_element() * static_cast<double>(elements);
}

double effective_gb_per_s(const ByteModel& model, std::uint64_t elements, double milliseconds) {
  if (!(milliseconds > 0.0)) {
    return 0.0;
  }
  // bytes / (ms * 1e-3 s) / 1e9 = bytes / (ms * 1e6)
  return model_bytes(model, elements) / (milliseconds * 1.0e6);
}

PredictedRatios predicted_ratios(const ByteModel& numerator, const ByteModel& denominator) {
  PredictedRatios ratios;
  if (denominator.bytes_per_element() > 0.0) {
    ratios.bytes = numerator.bytes_per_element() / denominator.bytes_per_element();
  }
  if (denominator.launches > 0) {
    ratios.launches = static_cast<double>(numerator.launches) / denominator.launches;
  }
  return ratios;
}

double theoretical_peak_gb_per_s(double memory_clock_khz, double bus_width_bits) {
  if (memory_clock_khz <= 0.0 || bus_width_bits <= 0.0) {
    return 0.0;
  }
  return 2.0 * memory_clock_khz * 1000.0 * bus_width_bits / 8.0 / 1e9;
}

}  // namespace labrun
