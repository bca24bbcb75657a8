#include "evidence/samples_csv.hpp"

#include <charconv>
#include <vector>

#include "base/csv.hpp"

namespace labrun {
namespace {

// The shortest text that reads back as the same double ("0.0123", "1e-05", "nan").
std::string round_trip_number(double value) {
  char text[64];
  const std::to_chars_result result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

}  // namespace

std::string samples_to_csv(const Transcript& transcript) {
  std::string text =
      csv_line(std::vector<std::string>(kSamplesCsvColumns.begin(), kSamplesCsvColumns.end())) + "\r\n";
  for (const CaseResult& result : transcript.cases) {
    for (std::size_t i = 0; i < result.samples_ms.size(); ++i) {
      std::string clock;  // empty: not read
      if (i < result.sample_sm_clock_mhz.size() && result.sample_sm_clock_mhz[i].has_value()) {
        clock = round_trip_number(*result.sample_sm_clock_mhz[i]);
      }
      text +=
          csv_line({transcript.lab_name, result.name, std::to_string(result.elements), result.size_label,
                    result.timing_mode, std::to_string(i), round_trip_number(result.samples_ms[i]), clock});
      text += "\r\n";
    }
  }
  return text;
}

}  // namespace labrun
