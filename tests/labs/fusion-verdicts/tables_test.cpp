#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "evidence/markdown.hpp"
#include "evidence/transcript_json.hpp"
#include "fusion-verdicts/lab.hpp"
#include "verdicts_sample.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

const labrun::Table& table_titled(const std::vector<labrun::Table>& tables, const std::string& start) {
  for (const labrun::Table& table : tables) {
    if (table.title.rfind(start, 0) == 0) {
      return table;
    }
  }
  FAIL("no table titled " << start);
  return tables.front();
}

std::vector<std::string> row_named(const labrun::Table& table, const std::string& first_cell) {
  for (const std::vector<std::string>& row : table.rows) {
    if (!row.empty() && row.front() == first_cell) {
      return row;
    }
  }
  FAIL("no row " << first_cell << " in " << table.title);
  return {};
}

std::size_t column(const labrun::Table& table, const std::string& header) {
  for (std::size_t i = 0; i < table.headers.size(); ++i) {
    if (table.headers[i] == header) {
      return i;
    }
  }
  FAIL("no column " << header << " in " << table.title);
  return 0;
}

}  // namespace

TEST_CASE("the tables, in order, from the transcript alone") {
  const std::vector<labrun::Table> tables = verdicts::render_tables(verdicts::testing::sample_transcript());
  std::vector<std::string> titles;
  for (const labrun::Table& table : tables) {
    titles.push_back(table.title);
    CHECK(table.headers.size() == table.right_aligned.size());
    for (const std::vector<std::string>& row : table.rows) {
      CHECK(row.size() == table.headers.size());
    }
  }
  REQUIRE(titles.size() == 7);
  CHECK_THAT(titles[0], StartsWith("The chapter's verdict table, measured: n = 16777216 (lesson)"));
  CHECK_THAT(titles[1], StartsWith("The chapter's verdict table, measured: n = 134217728 (card-scaled)"));
  CHECK_THAT(titles[2], StartsWith("The L2 crossover"));
  CHECK_THAT(titles[3], StartsWith("The reductions"));
  CHECK_THAT(titles[4],
             StartsWith("Stencil then stencil, fused through a shared tile: n = 16777216 (lesson)"));
  CHECK_THAT(titles[5],
             StartsWith("Stencil then stencil, fused through a shared tile: n = 134217728 (card-scaled)"));
  CHECK_THAT(titles[6], StartsWith("Recompute or materialise"));
}

TEST_CASE("the verdict table: one row per row of the chapter's table") {
  const std::vector<labrun::Table> tables = verdicts::render_tables(verdicts::testing::sample_transcript());
  const labrun::Table card = table_titled(tables, "The chapter's verdict table, measured: n = 134217728");
  REQUIRE(card.rows.size() == 6);
  const std::vector<std::string> pair = row_named(card, "Elementwise then elementwise");
  CHECK(pair[column(card, "chapter")] == "Fuse");
  CHECK(pair[column(card, "speedup")] == "1.96");
  CHECK(pair[column(card, "byte ratio")] == "2.00");
  CHECK(pair[column(card, "on this card")] == "fusing pays (x1.96)");
  CHECK(pair[column(card, "claim")] == "held");
  const std::vector<std::string> sum = row_named(card, "Elementwise then reduction");
  CHECK(sum[column(card, "chapter")] == "Fuse with care");
  CHECK(sum[column(card, "unfused (ms)")] == "0.6000");
  CHECK(sum[column(card, "fused (ms)")] == "0.2000");
  CHECK(sum[column(card, "elim. GB/s")] == "2684.4");
  CHECK(sum[column(card, "x copy")] == "1.00");
  const std::vector<std::string> normalise = row_named(card, "Reduction then elementwise");
  CHECK(normalise[column(card, "chapter")] == "Do not fuse");
  CHECK(normalise[column(card, "elim. GB/s")] == "-");  // the same bytes: nothing eliminated
  CHECK(normalise[column(card, "on this card")] == "no difference (x1.02)");
  const std::vector<std::string> sort = row_named(card, "Sort then gather");
  CHECK(sort[column(card, "on this card")] == "not measured: a documented non-case");
  CHECK(sort[column(card, "claim")] == "-");
  const std::vector<std::string> blocks = row_named(card, "Two stages with different block sizes");
  CHECK(blocks[column(card, "chapter")] == "Case by case");
  CHECK_THAT(blocks[column(card, "on this card")],
             ContainsSubstring("expensive: recompute up to R = 1, materialise from R = 2"));
  CHECK(blocks[column(card, "claim")] == "held");

  // The lesson-size table has no claim column: the claims are judged at the card-scaled size.
  const labrun::Table lesson = table_titled(tables, "The chapter's verdict table, measured: n = 16777216");
  CHECK(std::find(lesson.headers.begin(), lesson.headers.end(), "claim") == lesson.headers.end());
}

TEST_CASE("the crossover table: every n, its multiple of the L2, and where it settled") {
  const std::vector<labrun::Table> tables = verdicts::render_tables(verdicts::testing::sample_transcript());
  const labrun::Table sweep = table_titled(tables, "The L2 crossover");
  REQUIRE(sweep.rows.size() == 18);
  CHECK(sweep.rows.front()[0] == "1024");
  CHECK(sweep.rows.back()[column(sweep, "size")] == "card-scaled");
  const std::vector<std::string> lesson = row_named(sweep, "16777216");
  CHECK(lesson[column(sweep, "n x 4 B / L2")] == "1.0667");
  CHECK(lesson[column(sweep, "settled")] == "yes");
  CHECK(row_named(sweep, "8388608")[column(sweep, "settled")] == "-");
  CHECK(row_named(sweep, "1024")[column(sweep, "settled")] == "-");  // at the ratio, but before the dip
  bool named = false;
  for (const std::string& note : sweep.notes) {
    named = named || note.find("from n = 16777216 (n x 4 B = 1.07 x L2)") != std::string::npos;
  }
  CHECK(named);
}

TEST_CASE("the stencil and recompute tables") {
  const std::vector<labrun::Table> tables = verdicts::render_tables(verdicts::testing::sample_transcript());
  const labrun::Table stencils =
      table_titled(tables, "Stencil then stencil, fused through a shared tile: n = 16777216");
  REQUIRE(stencils.rows.size() == 4);
  const std::vector<std::string> wide = row_named(stencils, "64");
  CHECK(wide[column(stencils, "points")] == "129");
  CHECK(wide[column(stencils, "halo")] == "128");
  CHECK(wide[column(stencils, "recomputed")] == "50.0%");
  CHECK(wide[column(stencils, "speedup")] == "0.80");

  const labrun::Table reuse = table_titled(tables, "Recompute or materialise");
  REQUIRE(reuse.rows.size() == 9);
  CHECK(reuse.rows.front()[0] == "1");
  CHECK(reuse.rows.front()[3] == "1.50");
  CHECK(reuse.rows.back()[0] == "256");
}

TEST_CASE("the Markdown of a transcript read back from JSON carries the same tables") {
  const labrun::Transcript t = verdicts::testing::sample_transcript();
  const labrun::Lab lab = verdicts::make_lab();
  const labrun::Transcript back = labrun::transcript_from_text(labrun::transcript_to_text(t));
  const std::vector<labrun::Table> before = verdicts::render_tables(t);
  const std::vector<labrun::Table> after = verdicts::render_tables(back);
  REQUIRE(before.size() == after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    CHECK(before[i].title == after[i].title);
    CHECK(before[i].notes == after[i].notes);
    CHECK(before[i].rows == after[i].rows);
  }
  const std::string markdown = labrun::render_markdown(back, &lab);
  CHECK_THAT(markdown, ContainsSubstring("The chapter's verdict table, measured"));
  CHECK_THAT(markdown, ContainsSubstring("| Sort then gather"));
}
