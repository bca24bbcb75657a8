#include "aggregate/csv.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "aggregate/writers_support.hpp"
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

TEST_CASE("aggregate CSV: a header, then one line per card with the same number of fields") {
  const labrun::testing::TemporaryDirectory temporary("labrun-aggregate-csv");
  const fs::path& dir = temporary.path;
  const labrun::Aggregate aggregate = labrun::testing::two_synthetic_cards_and_the_lesson(dir);
  const std::string csv = labrun::aggregate_lab_to_csv(aggregate.labs.at(0));
  CHECK_THAT(
      csv,
      StartsWith("card,device,provenance,runs,gpus,hosts,timing modes,bandwidth size,copy floor GB/s runs"));
  CHECK_THAT(csv, ContainsSubstring("ratio staged over fused (card-scaled) median"));
  CHECK_THAT(csv, ContainsSubstring("claim staged-over-fused-is-the-byte-ratio held"));
  CHECK_THAT(csv,
             ContainsSubstring(
                 "\r\n\"Synthetic, \"\"Card\"\" A (synthetic)\",\"Synthetic, \"\"Card\"\" A\",synthetic,2,"));
  // Lines and fields, counted with the quoting understood.
  std::vector<std::size_t> fields_per_line;
  std::size_t fields = 1;
  bool quoted = false;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      ++fields;
    } else if (c == '\r' && !quoted) {
      fields_per_line.push_back(fields);
      fields = 1;
      ++i;  // the '\n'
    }
  }
  REQUIRE(fields_per_line.size() == 4);
  for (const std::size_t count : fields_per_line) {
    CHECK(count == fields_per_line.front());
  }
}
