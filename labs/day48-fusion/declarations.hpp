#pragma once
// The day-48 lab's GPU side, declared case by case (src/cases/declared_lab.hpp): its buffers, its
// correctness versions with their float64 references, and every timed case with its region. The
// harness owns the buffers, the seeded inputs, poisoning and the correctness loop.

#include "cases/declared_lab.hpp"

namespace day48 {

[[nodiscard]] labrun::LabDeclaration declare_lab();

}  // namespace day48
