#pragma once
// Problem sizes: those that depend on the card, and the shape of an image (a 2-D size).

#include <cstdint>
#include <optional>
#include <string>

namespace labrun {

//! The width and height of an image, in elements; a case at this size runs on width x height
//! elements, row after row (row-major, no padding).
struct Shape {
  std::uint64_t width = 0;
  std::uint64_t height = 0;

  [[nodiscard]] std::uint64_t elements() const { return width * height; }
  friend bool operator==(const Shape& a, const Shape& b) {
    return a.width == b.width && a.height == b.height;
  }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
};

//! "4096x4096".
[[nodiscard]] std::string shape_text(const Shape& shape);

//! The image a power-of-two element count is laid out as when no declared shape gives it (the
//! card-scaled size of an image case, a size capped for a smoke run): width = 2^ceil(k/2),
//! height = 2^floor(k/2) for elements = 2^k, so as square as a power of two allows (2^27 ->
//! 16384x8192). nullopt when `elements` is not a power of two.
[[nodiscard]] std::optional<Shape> power_of_two_image(std::uint64_t elements);

//! The smallest power of two n whose buffer (n * element_bytes) is at least `l2_multiple` times
//! the card's L2 size, so that the L2 cannot hold a case's traffic. l2_bytes must be positive.
[[nodiscard]] std::uint64_t card_scaled_elements(std::uint64_t l2_bytes, std::uint64_t element_bytes,
                                                 std::uint64_t l2_multiple);

//! Whether `needed_bytes` of buffers fit in a card with `free_bytes` free, leaving a tenth of the
//! free memory to the context and the driver.
[[nodiscard]] bool fits_in_device_memory(std::uint64_t needed_bytes, std::uint64_t free_bytes);

}  // namespace labrun
