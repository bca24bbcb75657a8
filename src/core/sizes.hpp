#pragma once
// Problem sizes that depend on the card.

#include <cstdint>

namespace labrun {

//! The smallest power of two n whose buffer (n * element_bytes) is at least `l2_multiple` times
//! the card's L2 size, so that the L2 cannot hold a case's traffic. l2_bytes must be positive.
[[nodiscard]] std::uint64_t card_scaled_elements(std::uint64_t l2_bytes, std::uint64_t element_bytes,
                                                 std::uint64_t l2_multiple);

//! Whether `needed_bytes` of buffers fit in a card with `free_bytes` free, leaving a tenth of the
//! free memory to the context and the driver.
[[nodiscard]] bool fits_in_device_memory(std::uint64_t needed_bytes, std::uint64_t free_bytes);

}  // namespace labrun
