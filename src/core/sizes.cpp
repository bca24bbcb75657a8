#include "core/sizes.hpp"

#include <stdexcept>

namespace labrun {

std::uint64_t card_scaled_elements(std::uint64_t l2_bytes, std::uint64_t element_bytes,
                                   std::uint64_t l2_multiple) {
  if (l2_bytes == 0 || element_bytes == 0 || l2_multiple == 0) {
    throw std::invalid_argument("card_scaled_elements: every argument must be positive");
  }
  const std::uint64_t target_bytes = l2_bytes * l2_multiple;
  std::uint64_t elements = 1;
  while (elements * element_bytes < target_bytes) {
    elements *= 2;
  }
  return elements;
}

std::string shape_text(const Shape& shape) {
  return std::to_string(shape.width) + "x" + std::to_string(shape.height);
}

std::optional<Shape> power_of_two_image(std::uint64_t elements) {
  if (elements == 0 || (elements & (elements - 1)) != 0) {
    return std::nullopt;
  }
  int k = 0;
  while ((std::uint64_t{1} << k) < elements) {
    ++k;
  }
  return Shape{std::uint64_t{1} << ((k + 1) / 2), std::uint64_t{1} << (k / 2)};
}

bool fits_in_device_memory(std::uint64_t needed_bytes, std::uint64_t free_bytes) {
  return needed_bytes <= free_bytes / 10 * 9;
}

}  // namespace labrun
