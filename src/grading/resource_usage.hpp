#pragma once
// What `cuobjdump -res-usage` says about a compiled submission's kernels. The grader asks it whether
// any kernel has shared memory, because compute-sanitizer's racecheck checks shared memory only: a
// cubin none of whose functions has any cannot have a hazard racecheck would report.

#include <optional>
#include <string>

namespace labrun {

//! From cuobjdump's -res-usage text: true when any function's SHARED figure (bytes of static shared
//! memory) is above 0, false when every function's is 0; nullopt when the text names no function or
//! a function without a readable SHARED figure (then the caller must assume shared memory is used).
[[nodiscard]] std::optional<bool> any_function_uses_shared_memory(const std::string& res_usage);

}  // namespace labrun
