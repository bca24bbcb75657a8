#pragma once
// `labrun plan`: the byte model and the predicted ratios of a lab, with no GPU.

#include <string>

#include "registry/lab.hpp"

namespace labrun {

[[nodiscard]] std::string render_plan(const Lab& lab);

}  // namespace labrun
