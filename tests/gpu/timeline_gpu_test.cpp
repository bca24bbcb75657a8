// GPU test of `run --timeline`: CUPTI records part 5's chains; skips without a usable CUDA device.

#include <catch2/catch_test_macros.hpp>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "evidence/markdown.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "runner/runner.hpp"
#include "support/require_gpu.hpp"
#include "support/temporary_directory.hpp"
#include "timeline/timeline.hpp"
#include "timeline/trace_cases.hpp"

namespace fs = std::filesystem;

TEST_CASE("run --timeline traces the staged chain's four kernels and the fused chain's one") {
  labrun::testing::require_gpu();
  const labrun::testing::TemporaryDirectory folder("labrun-timeline-test");
  const fs::path& out = folder.path;
  const labrun::Lab lab = day48::make_lab();
  labrun::RunOptions options;
  options.lab_name = lab.name;
  options.out_dir = out;
  options.smoke = true;
  options.timeline = true;
  options.case_patterns = {"day48-fusion/part5/staged-chain", "day48-fusion/part5/fused-chain",
                           "day48-fusion/part1/empty-single-thread"};
  options.command_line = {"labrun_gpu_tests"};
  const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
  const labrun::Transcript& t = report.transcript;
  REQUIRE(t.timeline.has_value());
  INFO(t.timeline->detail);
  REQUIRE(t.timeline->status == "measured");
  CHECK(t.timeline->dropped_records == 0);
  CHECK(t.timeline->cases.size() == t.cases.size());
  int staged_rows = 0;
  for (const labrun::TimelineCase& c : t.timeline->cases) {
    INFO(c.name << " (" << c.size_label << ")");
    CHECK(c.executions == labrun::kTracedExecutions);
    CHECK(c.gpu_span_median_us > 0.0);
    CHECK(c.event_median_us > 0.0);
    CHECK(c.traced_event_median_us > 0.0);
    CHECK(c.launch_calls_median_us > 0.0);
    if (c.name == "day48-fusion/part5/staged-chain") {
      ++staged_rows;
      CHECK(c.kernels.size() == 4);
      CHECK(c.gaps_us.size() == 3);
    } else if (c.name == "day48-fusion/part5/fused-chain") {
      CHECK(c.kernels.size() == 1);
      CHECK(c.gaps_us.empty());
    }
  }
  CHECK(staged_rows == 2);  // the small and the lesson size (capped in the smoke configuration)
  // The trace beside the transcript reads back to the transcript's figures.
  const fs::path trace_file = out / t.timeline->trace_file;
  REQUIRE(fs::is_regular_file(trace_file));
  const labrun::RecordedTrace trace =
      labrun::read_chrome_trace(nlohmann::ordered_json::parse(labrun::read_file(trace_file)));
  for (const labrun::TimelineCase& c : t.timeline->cases) {
    const labrun::TimelineCase again =
        labrun::timeline_case_from_trace(trace, c.name, c.size_label, c.elements);
    CHECK(again.gaps_us == c.gaps_us);
    CHECK(again.gpu_span_median_us == c.gpu_span_median_us);
  }
  CHECK(fs::file_size(report.json_path.parent_path() /
                      (report.json_path.stem().string() + labrun::kTimelineSvgSuffix)) > 0);
  const std::string json_text = labrun::read_file(report.json_path);
  CHECK(labrun::validate_transcript_text(json_text).empty());
  CHECK(labrun::render_markdown_beside(labrun::transcript_from_text(json_text), &lab, report.json_path) ==
        labrun::read_file(report.markdown_path));
  const labrun::ClaimResult* gaps = nullptr;
  for (const labrun::ClaimResult& claim : t.claims) {
    if (claim.id == "staged-gaps-are-launch-cost") {
      gaps = &claim;
    }
  }
  REQUIRE(gaps != nullptr);
  CHECK(gaps->verdict != labrun::Verdict::kNotMeasured);
}
