#pragma once
// A hand-built fusion-verdicts transcript whose figures are known, for the lab's host tests. Every
// case's model comes from the lab's own declaration; every median is set by its three samples.
//
// On a card with a 62,914,560 B L2 (an H200's):
//  - copy floor: 8 B per element at 2684.35456 GB/s (0.4 ms at 2^27, 0.05 ms at 2^24);
//  - elementwise pair over 2^10..2^27: fused = n x 8 B at the copy's GB/s + 3 us; two passes =
//    fused x 1.98 up to 2^18, x 1.40 from 2^19 to 2^23, x 1.96 from 2^24 (= 1.0667 x L2) on;
//  - card-scaled (2^27): sum two kernels 0.60 ms, folded 0.20 ms (x3.00); normalise two kernels
//    0.60 ms, cooperative 0.59 ms; 3-point stencils two passes 0.84 ms, fused 0.42 ms;
//  - lesson (2^24): the same pairs, an eighth of the time; stencils of radius 4, 16, 64 with
//    speedups 1.9, 1.3, 0.8;
//  - recompute (2^24): cheap recompute 0.07 ms, materialise 0.07 x (1.1 + 0.4 / R) ms; expensive
//    recompute 0.16 ms, materialise 0.075 + 0.16 / R ms (materialise wins from R = 2).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/statistics.hpp"
#include "core/transcript.hpp"
#include "fusion-verdicts/constants.hpp"
#include "fusion-verdicts/lab.hpp"
#include "support/sample_transcript.hpp"

namespace verdicts::testing {

inline constexpr std::int64_t kSampleL2Bytes = 62914560;
inline constexpr double kSampleCopyBytesPerSecond = 2684.35456e9;

inline const labrun::CaseSpec& spec_of(const labrun::Lab& lab, const std::string& name) {
  const labrun::CaseSpec* spec = lab.find_case(name);
  if (spec == nullptr) {
    throw std::invalid_argument("no case " + name);
  }
  return *spec;
}

//! Adds `name` at n with three samples of `ms`.
inline void add_case(labrun::Transcript& t, const labrun::Lab& lab, const std::string& part,
                     const std::string& name, const std::string& size_label, std::uint64_t elements,
                     double ms) {
  const std::string full = case_name(part, name);
  t.cases.push_back(labrun::testing::make_case_result(full, part, size_label, elements,
                                                      spec_of(lab, full).model, {ms, ms, ms}));
}

//! Sets every sample of the case (at the size label, or its only size) to `ms`.
inline void set_ms(labrun::Transcript& t, const std::string& name, const std::string& size_label, double ms) {
  for (labrun::CaseResult& c : t.cases) {
    if (c.name == name && (size_label.empty() || c.size_label == size_label)) {
      c.samples_ms = {ms, ms, ms};
      c.summary = labrun::summarize(c.samples_ms);
      return;
    }
  }
  throw std::invalid_argument("no case " + name + " at " + size_label);
}

inline double pair_speedup(std::uint64_t n) {
  if (n <= (std::uint64_t{1} << 18)) {
    return 1.98;
  }
  if (n <= (std::uint64_t{1} << 23)) {
    return 1.40;
  }
  return 1.96;
}

inline std::string pair_label(std::uint64_t n) {
  if (n == kLessonElements) {
    return "lesson";
  }
  if (n == kSweepLast) {
    return "card-scaled";
  }
  return "sweep";
}

inline labrun::Transcript sample_transcript() {
  const labrun::Lab lab = make_lab();
  labrun::Transcript t;
  t.lab_name = kLabName;
  t.lab_title = lab.title;
  t.configuration = "full";
  t.seed = 48;
  t.repetitions = 3;
  t.warmups = 3;
  t.command_line = {"labrun", "run", kLabName};
  t.started_utc = "2026-12-01T05:00:00Z";
  t.finished_utc = "2026-12-01T05:00:20Z";
  t.wall_seconds = 20.0;
  t.environment = {labrun::FactGroup{"device",
                                     {labrun::Fact::known("name", std::string("Test GPU")),
                                      labrun::Fact::known("l2_bytes", kSampleL2Bytes)}}};
  labrun::TimingRecord timing;  // a fixed count of samples, as a run with adaptive sampling off records it
  timing.min_samples = 3;
  timing.max_samples = 3;
  timing.clock_source = "not read in this test";
  timing.throttle_rule = "no clock read";
  t.timing = timing;
  t.sizes = {labrun::SizeRecord{"lesson", kLessonElements, "declared by the lab", ""},
             labrun::SizeRecord{"card-scaled", kSweepLast, "8 x L2", ""},
             labrun::SizeRecord{"correctness", kCorrectnessElements, "odd", ""}};

  const auto copy_ms = [](std::uint64_t n, double bytes_per_element) {
    return static_cast<double>(n) * bytes_per_element / kSampleCopyBytesPerSecond * 1e3;
  };
  for (const std::uint64_t n : {kLessonElements, kSweepLast}) {
    add_case(t, lab, kFloorPart, "copy", pair_label(n), n, copy_ms(n, 8.0));
  }
  for (std::uint64_t n = kSweepFirst; n <= kSweepLast; n *= 2) {
    const double fused = copy_ms(n, 8.0) + 0.003;
    add_case(t, lab, kPairPart, "two-passes", pair_label(n), n, fused * pair_speedup(n));
    add_case(t, lab, kPairPart, "fused", pair_label(n), n, fused);
  }
  for (const std::uint64_t n : {kLessonElements, kSweepLast}) {
    const std::string label = pair_label(n);
    const double scale = static_cast<double>(n) / static_cast<double>(kSweepLast);
    add_case(t, lab, kSumPart, "two-kernels", label, n, 0.60 * scale);
    add_case(t, lab, kSumPart, "folded", label, n, 0.20 * scale);
    add_case(t, lab, kNormalisePart, "two-kernels", label, n, 0.60 * scale);
    add_case(t, lab, kNormalisePart, "cooperative", label, n, 0.59 * scale);
    add_case(t, lab, kStencilPart, stencil_case(1, false), label, n, 0.84 * scale);
    add_case(t, lab, kStencilPart, stencil_case(1, true), label, n, 0.42 * scale);
  }
  const std::vector<std::pair<int, double>> wide{{4, 1.9}, {16, 1.3}, {64, 0.8}};
  for (const auto& [radius, speedup] : wide) {
    add_case(t, lab, kStencilPart, stencil_case(radius, false), "lesson", kLessonElements, 0.06 * speedup);
    add_case(t, lab, kStencilPart, stencil_case(radius, true), "lesson", kLessonElements, 0.06);
  }
  for (labrun::CaseResult& c : t.cases) {
    if (c.part == kStencilPart && c.name.find("/fused-") != std::string::npos) {
      const double radius = c.name.find("-r64") != std::string::npos   ? 64.0
                            : c.name.find("-r16") != std::string::npos ? 16.0
                            : c.name.find("-r4") != std::string::npos  ? 4.0
                                                                       : 1.0;
      c.attributes = {{"radius", radius},
                      {"tile", 256.0},
                      {"halo", 2.0 * radius},
                      {"recomputed_fraction", 2.0 * radius / 256.0}};
    }
  }
  for (const unsigned reuse : kReuseFactors) {
    const double r = reuse;
    add_case(t, lab, kReusePart, reuse_case(false, true, reuse), "lesson", kLessonElements, 0.07);
    add_case(t, lab, kReusePart, reuse_case(false, false, reuse), "lesson", kLessonElements,
             0.07 * (1.1 + 0.4 / r));
    add_case(t, lab, kReusePart, reuse_case(true, true, reuse), "lesson", kLessonElements, 0.16);
    add_case(t, lab, kReusePart, reuse_case(true, false, reuse), "lesson", kLessonElements, 0.075 + 0.16 / r);
  }
  t.claims = labrun::evaluate_claims(lab.claims, t);
  return t;
}

}  // namespace verdicts::testing
