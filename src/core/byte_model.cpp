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

ByteModel with_flops(ByteModel model, double flops_per_element) {
  model.flops_per_element = flops_per_element;
  return model;
}

std::optional<double> effective_gflop_per_s(const ByteModel& model, std::uint64_t elements,
                                            double milliseconds) {
  if (!model.flops_per_element || !(milliseconds > 0.0)) {
    return std::nullopt;
  }
  return *model.flops_per_element * static_cast<double>(elements) / (milliseconds * 1.0e6);
}

std::optional<double> arithmetic_intensity(const ByteModel& model) {
  if (!model.flops_per_element || !(model.bytes_per_element() > 0.0)) {
    return std::nullopt;
  }
  return *model.flops_per_element / model.bytes_per_element();
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

std::optional<int> fp32_lanes_per_sm(const std::string& compute_capability) {
  const std::size_t dot = compute_capability.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 >= compute_capability.size()) {
    return std::nullopt;
  }
  const std::string major_text = compute_capability.substr(0, dot);
  const std::string minor_text = compute_capability.substr(dot + 1);
  const auto digits = [](const std::string& text) {
    return !text.empty() && text.size() <= 3 && text.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(major_text) || !digits(minor_text)) {
    return std::nullopt;
  }
  const int major = std::stoi(major_text);
  const int minor = std::stoi(minor_text);
  if (major == 7 || (major == 8 && minor == 0)) {
    return 64;
  }
  if ((major == 8 && (minor == 6 || minor == 7 || minor == 9)) || (major == 9 && minor == 0) || major == 10 ||
      major == 11 || major == 12) {
    return 128;
  }
  return std::nullopt;
}

double theoretical_peak_gflop_per_s(double sm_count, double lanes_per_sm, double sm_clock_khz) {
  if (sm_count <= 0.0 || lanes_per_sm <= 0.0 || sm_clock_khz <= 0.0) {
    return 0.0;
  }
  return sm_count * lanes_per_sm * 2.0 * sm_clock_khz * 1000.0 / 1e9;
}

}  // namespace labrun
