#pragma once
// Constants of the day-48 chain, shared by the kernels (float) and the float64 reference.

#include <cstdint>

namespace day48 {

inline constexpr float kScale = 1.25f;  // stage 1: t1 = x * kScale + kBias
inline constexpr float kBias = -0.125f;
inline constexpr float kClampLow = -1.0f;  // stage 4: y = clamp(t3, kClampLow, kClampHigh)
inline constexpr float kClampHigh = 4.0f;
inline constexpr int kThreadsPerBlock = 256;

// Seeded inputs: x uniform in [kInputLow, kInputHigh), residual r uniform in [-kResidualSpan, kResidualSpan).
inline constexpr float kInputLow = -4.0f;
inline constexpr float kInputHigh = 4.0f;
inline constexpr float kResidualSpan = 1.0f;
inline constexpr std::uint64_t kInputStream = 1;
inline constexpr std::uint64_t kResidualStream = 2;

// Part 5's small size: where launches, not bytes, set the time.
inline constexpr std::uint64_t kPart5SmallElements = 16384;

// The widths of the part 4 sweep (elements per thread).
inline constexpr int kWidths[] = {1, 2, 4, 8, 16, 32};

}  // namespace day48
