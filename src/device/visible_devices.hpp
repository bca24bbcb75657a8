#pragma once
// Which GPU a program sees. labrun numbers GPUs as CUDA does, after CUDA_VISIBLE_DEVICES: device N
// is the N-th entry of CUDA_VISIBLE_DEVICES when it is set, else CUDA's device N. Choosing one
// narrows CUDA_VISIBLE_DEVICES to that entry, so that labrun and every program it starts see only
// that GPU, as their device 0.

#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! The CUDA_VISIBLE_DEVICES value that names labrun's device `index` alone, given the current value
//! (nullopt: unset). Throws std::out_of_range naming the index when the current value lists fewer.
[[nodiscard]] std::string visible_device_entry(const std::optional<std::string>& current, int index);

//! "0,2,3" -> {0, 2, 3}; throws std::invalid_argument naming what is not a device index.
[[nodiscard]] std::vector<int> parse_device_list(const std::string& list);

//! Narrows this process's CUDA_VISIBLE_DEVICES to labrun's device `index`. Call before any CUDA call.
void choose_device(int index);

}  // namespace labrun
