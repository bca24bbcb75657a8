#include "aggregate/markdown.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "aggregate/writers_support.hpp"
#include "support/temporary_directory.hpp"

using Catch::Matchers::ContainsSubstring;
using labrun::testing::TemporaryDirectory;

TEST_CASE("aggregate Markdown: one padded row per card, ratios, claims card by card, files used") {
  TemporaryDirectory dir;
  const labrun::Aggregate aggregate = labrun::testing::two_synthetic_cards_and_the_lesson(dir.path);
  const std::string md = labrun::aggregate_to_markdown(aggregate, "\n## Plots\n\n![x](aggregate.x.svg)\n");
  CHECK_THAT(md, ContainsSubstring("# Evidence across cards"));
  CHECK_THAT(md, ContainsSubstring("4 files: 4 transcripts used, 0 left out"));
  CHECK_THAT(md,
             ContainsSubstring("## Day 48: kernel fusion and what a launch really costs (`day48-fusion`)"));
  CHECK_THAT(md, ContainsSubstring("| card "));
  // The lesson's row first, marked transcribed; its source named under the table.
  CHECK(md.find("| Tesla T4 (transcribed)") < md.find("| Synthetic, \"Card\" A (synthetic)"));
  CHECK_THAT(md, ContainsSubstring("Tesla T4 (transcribed): figures copied by hand from day-48 lesson"));
  CHECK_THAT(md, ContainsSubstring("synthetic transcripts, built by a program, never measured"));
  // Two runs: the median 3.10 of 3.0 and 3.2 and its range.
  CHECK_THAT(md, ContainsSubstring(" 3.10 | 3.00 | 3.20 |"));
  CHECK_THAT(md, ContainsSubstring("mixed: held 1 of 2"));
  CHECK_THAT(md, ContainsSubstring("### Claims, card by card"));
  CHECK_THAT(md, ContainsSubstring("fused-and-staged-agree-bitwise (expected to fail)"));
  CHECK_THAT(md, ContainsSubstring("![x](aggregate.x.svg)"));
  CHECK_THAT(md, ContainsSubstring((dir.path / "b.json").string()));
  CHECK(md.find("## Left out") == std::string::npos);
}

TEST_CASE("a figure's text shows its spread only over several runs") {
  CHECK(labrun::spread_text({}, 1) == "-");
  CHECK(labrun::spread_text(labrun::spread_of({2387.94}), 1) == "2387.9");
  CHECK(labrun::spread_text(labrun::spread_of({100.0, 101.0, 99.0}), 1) == "100.0 (2.0%)");
  labrun::CardRow card;
  CHECK(labrun::settling_text(card) == "-");
  card.swept_runs = 2;
  CHECK(labrun::settling_text(card) == "does not settle");
  card.settles_from_elements = labrun::spread_of({4194304.0});
  CHECK(labrun::settling_text(card) == "4194304 (in 1 of 2 runs)");
  card.settles_from_elements = labrun::spread_of({1048576.0, 4194304.0});
  CHECK(labrun::settling_text(card) == "1048576-4194304");
  card.timing_modes = {{"hot", 2}, {"cold", 1}};
  CHECK(labrun::timing_text(card) == "cold 1, hot 2");
}
