#include "evidence/markdown.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "registry/registry.hpp"
#include "support/sample_transcript.hpp"
#include "timeline/timeline.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

std::string render(const labrun::Transcript& t) {
  return labrun::render_markdown(t, labrun::registered_labs().find(t.lab_name));
}

// "2.823 to 3.188": an interval as the Markdown shows it, to 3 decimals.
std::string shown_interval(const std::optional<labrun::Interval>& interval) {
  return interval ? labrun::fixed(interval->low, 3) + " to " + labrun::fixed(interval->high, 3) : "none";
}

}  // namespace

TEST_CASE("tables are padded pipe tables with right-aligned number columns") {
  labrun::Table table;
  table.headers = {"row", "ms"};
  table.right_aligned = {false, true};
  table.rows = {{"copyFloor", "0.548"}, {"a|b", "12.5"}};
  CHECK(labrun::render_table(table) ==
        "| row       |    ms |\n"
        "| --------- | ----: |\n"
        "| copyFloor | 0.548 |\n"
        "| a\\|b      |  12.5 |\n");
}

TEST_CASE("the report shows the model - correctness - the lab's tables and unknowns") {
  const labrun::Transcript sample = labrun::testing::sample_day48_transcript();
  const std::string md = render(sample);
  CHECK_THAT(md, ContainsSubstring("# Day 48: kernel fusion and what a launch really costs"));
  CHECK_THAT(md, ContainsSubstring("| day48-fusion/part2/staged-chain        |          20 |           16 |  "
                                   "         36 |        4 |"));
  CHECK_THAT(md, ContainsSubstring("| broken      |  1049187 |"));
  CHECK_THAT(md, ContainsSubstring("| FAIL   | 1049186: nan / 5.00e-01"));
  CHECK_THAT(md, ContainsSubstring("unknown (NVML absent)"));
  // Part 2: the four stages summed are 0.1 * 3 + 0.15 = 0.45 ms for 36 bytes.
  CHECK_THAT(md,
             ContainsSubstring("| four stages, summed  | 0.4500 |         36 | 1342.2 |   1.00 |      - |"));
  // Part 1: 2.5 ms per 1000 launches is 2.5 us per launch.
  CHECK_THAT(md, ContainsSubstring("|           2.500 |  40.0% |"));
  // Part 3: 0.011 / 0.005 = 2.20, and 11 us over 4 launches.
  CHECK_THAT(
      md, ContainsSubstring("| 1024 | sweep |      0.0110 |     0.0050 |         2.20 |            2.750 |"));
  // Predictions: 0.45 / 0.15 against 3.00 and 4.00, with the interval the run recorded (1.6.0).
  CHECK_THAT(
      md, ContainsSubstring("| staged over fused | lesson | 16777216 |       3.00 |         4.00 |     3.00 "
                            "| " +
                            shown_interval(sample.predictions.front().measured.front().interval) + " |"));
  CHECK_THAT(md, ContainsSubstring("## Timing stability"));
}

TEST_CASE("from 1.6.0 a claim is shown with its interval and bound - and how its verdict was reached") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.claims.front().verdict = labrun::Verdict::kInconclusive;
  const std::string md = render(t);
  CHECK_THAT(md, ContainsSubstring("| claim "));
  CHECK_THAT(md, ContainsSubstring(" 95% interval |"));
  CHECK_THAT(md, ContainsSubstring("| " + shown_interval(t.claims.front().measured_interval) + " |"));
  CHECK_THAT(md, ContainsSubstring("| 2.700 to 3.300 |"));
  CHECK_THAT(md, ContainsSubstring("| inconclusive |"));
  CHECK_THAT(md, ContainsSubstring("inconclusive when it straddles the bound"));
  // The samples table counts each case's rounds and shows its median's interval.
  CHECK_THAT(md, ContainsSubstring("| median 95% interval |"));
  CHECK_THAT(md, ContainsSubstring("0.1000 to 0.1000"));
  CHECK_THAT(md, ContainsSubstring("| rounds "));
  // An older transcript (read without rounds) renders as its run wrote it: no interval column.
  t.rounds_recorded = false;
  const std::string old = render(t);
  CHECK(old.find(shown_interval(t.claims.front().measured_interval)) == std::string::npos);
  CHECK(old.find("| from ") == std::string::npos);
  CHECK(old.find("median 95% interval") == std::string::npos);
}

TEST_CASE("from 1.8.0 the report names the contexts, their costs, and the launch-bound hot cases") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  const std::string md = render(t);
  CHECK_THAT(md, ContainsSubstring("| CUDA contexts "));
  CHECK_THAT(md, ContainsSubstring("1 round per CUDA context, 3 contexts"));
  CHECK_THAT(md, ContainsSubstring("created in 0.27, 0.25, 0.26 s, set up in 0.04, 0.03, 0.03 s"));
  CHECK_THAT(md, ContainsSubstring("| launch check "));
  CHECK_THAT(md, ContainsSubstring("## Hot timing at small n: the host's launch latency"));
  // The small fused chain: hot median 5.00 us, gated 2.00 us, 60% of it the host's.
  const std::size_t section = md.find("## Hot timing at small n");
  const std::size_t row = md.find("| day48-fusion/part3/fused-chain | sweep ", section);
  REQUIRE(row != std::string::npos);
  const std::string line = md.substr(row, md.find('\n', row) - row);
  for (const char* cell : {" 5.00 |", " 2.00 |", " 60.0% |", " yes "}) {
    CHECK_THAT(line, ContainsSubstring(cell));
  }
  CHECK_THAT(md, ContainsSubstring("(from: noise)"));
  // A transcript without contexts or launch checks (before 1.8.0) renders none of it.
  t.schema_version = "1.7.0";
  t.timing->contexts.clear();
  t.timing->launch_check.clear();
  for (labrun::CaseResult& c : t.cases) {
    c.launch_check.reset();
  }
  const std::string old = render(t);
  CHECK(old.find("CUDA contexts") == std::string::npos);
  CHECK(old.find("launch latency") == std::string::npos);
  CHECK(old.find("from: noise") == std::string::npos);
}

TEST_CASE("from 1.10.0 the samples table shows each case's figure beside its samples' median") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic, never measured
  const std::string without = render(t);  // no figure recorded: the table as 1.9.0 wrote it
  CHECK(without.find("| figure ms |") == std::string::npos);
  CHECK_THAT(without, ContainsSubstring("| median 95% interval |"));
  labrun::CaseResult& c = t.cases.front();
  c.figure_ms = 0.123456;
  c.median_interval_ms = labrun::Interval{0.1, 0.15};
  const std::string md = render(t);
  CHECK_THAT(md, ContainsSubstring("| figure ms | figure 95% interval |"));
  CHECK_THAT(md, ContainsSubstring(
                     "figure ms: the case's figure, the geometric mean of its CUDA contexts' medians"));
  const std::size_t section = md.find("Samples, per case");
  REQUIRE(section != std::string::npos);
  const std::size_t row = md.find("| " + c.name + " ", section);  // the first case is the first row
  REQUIRE(row != std::string::npos);
  const std::string line = md.substr(row, md.find('\n', row) - row);
  // The figure's cell, then its interval's in the next column (cells are padded to their column).
  const std::size_t figure = line.find(" 0.1235 |");
  REQUIRE(figure != std::string::npos);
  const std::size_t next = line.find('|', figure) + 1;
  CHECK(line.substr(next, line.find('|', next) - next).find("0.1000 to 0.1500") != std::string::npos);
}

TEST_CASE("a transcript of a lab this build does not know still renders - generically") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.lab_name = "day99-unknown";
  const std::string md = render(t);
  CHECK_THAT(md, ContainsSubstring("is not part of this build"));
  CHECK_THAT(md, ContainsSubstring("## Every case"));
}

TEST_CASE("golden: committed H200 transcripts render to the Markdown their runs wrote") {
  const fs::path golden = fs::path(LABRUN_TEST_DATA_DIR) / "evidence" / "golden";
  // Schema 1.0.0 (read through the migration) and 1.1.0 (with claims).
  for (const char* stem : {"day48-fusion-nvidia-h200", "day48-fusion-nvidia-h200-1.1.0"}) {
    INFO(stem);
    const labrun::Transcript t =
        labrun::transcript_from_text(labrun::read_file(golden / (std::string(stem) + ".json")));
    CHECK(render(t) == labrun::read_file(golden / (std::string(stem) + ".md")));
  }
}

TEST_CASE("every committed measured transcript renders to the Markdown committed beside it, plots linked") {
  // The evidence contract: `labrun report FILE` reproduces what the run wrote, for every version
  // ever committed (1.0.0 and 1.1.0 through their migrations, 1.2.0 with its sampling tables and
  // the plots drawn beside it). A renderer change that breaks this changes committed evidence.
  const fs::path evidence = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence";
  int checked = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(evidence)) {
    const fs::path& path = entry.path();
    const fs::path markdown = path.parent_path() / (labrun::transcript_file_stem(path) + ".md");
    // Transcripts only: `compare` and `grade` write JSON of their own beside their Markdown, and so does
    // scripts/diagnostics/verdict-stability.py (evidence/<lab>/verdict-stability/).
    const std::string where = path.generic_string();
    if (!labrun::named_as_transcript(path) || !fs::exists(markdown) ||
        labrun::is_trace_file(path.filename().string()) || where.find("/comparisons/") != std::string::npos ||
        where.find("/grading/") != std::string::npos ||
        where.find("/verdict-stability/") != std::string::npos) {
      continue;
    }
    INFO(path.string());
    const labrun::Transcript t = labrun::transcript_from_text(labrun::read_evidence_text(path));
    CHECK(labrun::render_markdown_beside(t, labrun::registered_labs().find(t.lab_name), path) ==
          labrun::read_file(markdown));
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE(
    "the figures a lab declares are columns of the table of every case, each said where it comes from") {
  // Synthetic: built by tests/support/sample_transcript.cpp, with two figures on the fused chain.
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.lab_name = "day99-unknown";
  const std::string generic = render(t);
  CHECK_THAT(generic, ContainsSubstring("| global loads (per element) | elements (10^9/s) |"));
  CHECK_THAT(generic,
             ContainsSubstring("global loads (per element): counted from the source: x and the residual."));
  CHECK_THAT(generic, ContainsSubstring("elements (10^9/s): n / median time, in 10^9 a second."));
  // The fused chain's row: 2, and unknown where the formula found no value; other rows have none.
  CHECK_THAT(generic, ContainsSubstring("|                          2 |           unknown |"));
  CHECK_THAT(generic, ContainsSubstring("|                          - |                 - |"));
  // A lab with tables of its own still shows its figures: the generic table follows its tables.
  const std::string own = render(labrun::testing::sample_day48_transcript());
  CHECK_THAT(own, ContainsSubstring("## Every case"));
  CHECK_THAT(own, ContainsSubstring("global loads (per element)"));
  // Without declared figures nothing changes: no columns and no extra table.
  labrun::Transcript plain = labrun::testing::sample_day48_transcript();
  for (labrun::CaseResult& c : plain.cases) {
    c.declared_figures.clear();
  }
  CHECK(render(plain).find("## Every case") == std::string::npos);
}

TEST_CASE("the report names the CUDA environment variables a run was given, and only where it had some") {
  labrun::Transcript sample = labrun::testing::sample_day48_transcript();
  labrun::FactGroup* driver = nullptr;
  for (labrun::FactGroup& group : sample.environment) {
    if (group.name == "driver") {
      driver = &group;
    }
  }
  REQUIRE(driver != nullptr);
  CHECK_THAT(render(sample), !ContainsSubstring("CUDA environment variables"));  // before it was recorded
  driver->facts.push_back(labrun::Fact::known("cuda_environment", std::string("none")));
  CHECK_THAT(render(sample), !ContainsSubstring("CUDA environment variables"));
  driver->facts.back() = labrun::Fact::known("cuda_environment", std::string("CUDA_LAUNCH_BLOCKING=1"));
  CHECK_THAT(render(sample),
             ContainsSubstring("| CUDA environment variables         | CUDA_LAUNCH_BLOCKING=1"));
}
