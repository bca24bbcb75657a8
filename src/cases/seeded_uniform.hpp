#pragma once
// The harness's seeded input values, as a function of (seed, stream, index): compiled for the host
// (references, tests) and the device (the input fill of src/cases/fill.cu, a lab's trusted checks)
// alike, so that any element can be regenerated alone, without reading a buffer.

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define LABRUN_HOST_DEVICE __host__ __device__
#else
#define LABRUN_HOST_DEVICE
#endif

namespace labrun {

//! A counter-based hash (splitmix64's finaliser) mapped to [low, high): the value at i depends
//! only on seed, stream and i, so any prefix of a buffer is the same at every n, and a checker can
//! regenerate element i alone. fmaf keeps host and device values bit-identical.
LABRUN_HOST_DEVICE inline float seeded_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t i,
                                               float low, float high) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull + i;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const float unit = static_cast<float>(z >> 40) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
  return fmaf(unit, high - low, low);
}

}  // namespace labrun
