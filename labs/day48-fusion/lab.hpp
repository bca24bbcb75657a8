#pragma once
// The day-48 lab as the harness sees it: cases, byte models, predictions and tables.

#include "registry/lab.hpp"

namespace day48 {

inline constexpr const char* kLabName = "day48-fusion";
//! The lesson's timed size and the odd correctness size.
inline constexpr std::uint64_t kLessonElements = 16777216;
inline constexpr std::uint64_t kCorrectnessElements = 1049187;
//! Part 1 times this many back-to-back launches per sample.
inline constexpr int kLaunchesPerPart1Sample = 1000;
//! The staged chain's launches: its four stages, each a kernel of its own.
inline constexpr int kStagedChainLaunches = 4;

//! A case's full name: "day48-fusion/<part>/<name>", for example "day48-fusion/part2/fused-chain".
[[nodiscard]] std::string case_name(const std::string& part, const std::string& name);

[[nodiscard]] labrun::Lab make_lab();

//! The lab's four tables (and the part 2 and part 4 tables once per size), from a transcript.
[[nodiscard]] std::vector<labrun::Table> render_tables(const labrun::Transcript& transcript);

}  // namespace day48
