#pragma once
// The fusion-verdicts lab's GPU side, declared case by case (src/cases/declared_lab.hpp): its
// buffers, a correctness version per case with its float64 reference and tolerance, every timed
// case with its region and attributes, the bitwise pairs and the lab's facts. The harness owns the
// buffers, the seeded inputs, poisoning and the correctness loop.

#include "cases/declared_lab.hpp"

namespace verdicts {

[[nodiscard]] labrun::LabDeclaration declare_lab();

}  // namespace verdicts
