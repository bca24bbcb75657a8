#pragma once
// What several commands share: finding a lab by name, choosing a device, and the one-line error.

#include <ostream>
#include <string>

#include "registry/lab.hpp"

namespace labrun {

//! The registered labs (registry/registry.hpp) as a lookup, for the transcript readers.
[[nodiscard]] LabLookup registered_lab_lookup();

//! The registered lab of that name; throws UsageError naming the known labs when there is none.
[[nodiscard]] const Lab& find_lab_or_throw(const std::string& name);

//! `--device N`: narrows CUDA_VISIBLE_DEVICES to that device before anything initialises CUDA;
//! throws UsageError when there is no device N.
void choose_device_or_throw(int index);

//! Prints "labrun: error: MESSAGE" as one line on `err` and returns `status`.
int report_error(std::ostream& err, int status, const std::string& message);

}  // namespace labrun
