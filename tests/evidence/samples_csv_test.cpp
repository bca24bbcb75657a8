#include "evidence/samples_csv.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdlib>

#include "support/csv_reader.hpp"
#include "support/sample_transcript.hpp"

using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {

constexpr const char* kSamplesHeader = "lab,case,n,size_label,timing_mode,sample_index,ms,sm_clock_mhz";

std::size_t samples_in(const labrun::Transcript& t) {
  std::size_t count = 0;
  for (const labrun::CaseResult& c : t.cases) {
    count += c.samples_ms.size();
  }
  return count;
}

}  // namespace

TEST_CASE("samples CSV: a header, then one row per timed sample, in case and sample order") {
  // Synthetic: tests/support/sample_transcript.cpp, never measured.
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  REQUIRE(t.provenance == "synthetic");
  for (labrun::CaseResult& c : t.cases) {
    c.timing_mode = "hot";
  }
  const std::string csv = labrun::samples_to_csv(t);
  CHECK_THAT(csv, StartsWith(std::string(kSamplesHeader) + "\r\n"));
  CHECK_THAT(csv, EndsWith("\r\n"));
  const auto records = labrun::testing::read_csv(csv);
  REQUIRE(records.size() == 1 + samples_in(t));
  std::size_t row = 1;
  for (const labrun::CaseResult& c : t.cases) {
    for (std::size_t i = 0; i < c.samples_ms.size(); ++i, ++row) {
      const std::vector<std::string>& r = records.at(row);
      REQUIRE(r.size() == 8);
      CHECK(r[0] == "day48-fusion");
      CHECK(r[1] == c.name);
      CHECK(r[2] == std::to_string(c.elements));
      CHECK(r[3] == c.size_label);
      CHECK(r[4] == "hot");
      CHECK(r[5] == std::to_string(i));
      CHECK(std::strtod(r[6].c_str(), nullptr) == c.samples_ms[i]);  // the same double, read back
      const std::optional<double>& clock = c.sample_sm_clock_mhz.at(i);
      CHECK(r[7].empty() == !clock.has_value());
      if (clock) {
        CHECK(std::strtod(r[7].c_str(), nullptr) == *clock);
      }
    }
  }
}

TEST_CASE("samples CSV: the SM clock is empty where it was not read, and numbers lose nothing") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic
  t.cases.resize(1);
  t.cases[0].samples_ms = {0.1, 1.0 / 3.0, 2e-5};
  t.cases[0].sample_sm_clock_mhz = {1980.0, std::nullopt, 1755.5};
  t.cases[0].timing_mode.clear();
  const auto records = labrun::testing::read_csv(labrun::samples_to_csv(t));
  REQUIRE(records.size() == 4);
  CHECK(records[1][6] == "0.1");
  CHECK(std::strtod(records[2][6].c_str(), nullptr) == 1.0 / 3.0);
  CHECK(std::strtod(records[3][6].c_str(), nullptr) == 2e-5);
  CHECK(records[1][7] == "1980");
  CHECK(records[2][7].empty());
  CHECK(records[3][7] == "1755.5");
  // A transcript older than schema 1.2.0 records no mode and no clocks: empty, never guessed.
  CHECK(records[1][4].empty());
  t.cases[0].sample_sm_clock_mhz.clear();
  for (const auto& r : labrun::testing::read_csv(labrun::samples_to_csv(t))) {
    CHECK(r.size() == 8);
    CHECK((r[7].empty() || r[7] == "sm_clock_mhz"));
  }
}

TEST_CASE("samples CSV: every text field is quoted as RFC 4180 asks, and reads back whole") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic
  t.cases.resize(1);                                                  // part 1's single launch: n = 1
  t.lab_name = "lab, with \"quotes\"";
  t.cases[0].name = "case\nwith a line break";
  t.cases[0].size_label = "a,b";
  t.cases[0].timing_mode = "hot";
  t.cases[0].samples_ms = {1.5};
  const std::string csv = labrun::samples_to_csv(t);
  CHECK_THAT(csv,
             EndsWith("\"lab, with \"\"quotes\"\"\",\"case\nwith a line break\",1,\"a,b\",hot,0,1.5,\r\n"));
  const auto records = labrun::testing::read_csv(csv);
  REQUIRE(records.size() == 2);
  CHECK(records[1] == std::vector<std::string>{"lab, with \"quotes\"", "case\nwith a line break", "1", "a,b",
                                               "hot", "0", "1.5", ""});
}

TEST_CASE("samples CSV: a transcript without samples is the header alone") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic
  for (labrun::CaseResult& c : t.cases) {
    c.samples_ms.clear();
  }
  CHECK(labrun::samples_to_csv(t) == std::string(kSamplesHeader) + "\r\n");
}
