#pragma once
// A small hand-built transcript whose figures are known, for host tests.

#include "core/transcript.hpp"

namespace labrun::testing {

//! A synthetic (provenance "synthetic", never measured) day48-fusion transcript with part 1-4
//! cases at one size, correctness, bitwise and stability records, every environment group and
//! fact a measured transcript records (most of them unknown), and a NaN. Every median is set by
//! its samples; every case's samples are three rounds of one sample each (schema 1.6.0), and its
//! prediction's ratio and its claim are judged over them.
[[nodiscard]] Transcript sample_day48_transcript();

//! The byte model of a case that reads `reads` and writes `writes` floats (4 bytes each) per element.
[[nodiscard]] ByteModel floats(double reads, double writes, int launches);

//! A case whose samples are `samples_ms`, summarised.
[[nodiscard]] CaseResult make_case_result(const std::string& name, const std::string& part,
                                          const std::string& size_label, std::uint64_t elements,
                                          ByteModel model, std::vector<double> samples_ms);

//! A case measured in rounds: each entry of `rounds` one round's samples, appended in order
//! (core/rounds.hpp: append_round), each stopped at the sample cap.
[[nodiscard]] CaseResult make_rounds_case(const std::string& name, const std::string& part,
                                          const std::string& size_label, std::uint64_t elements,
                                          ByteModel model, const std::vector<std::vector<double>>& rounds);

}  // namespace labrun::testing
