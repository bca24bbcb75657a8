#include "plots.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "support/sample_transcript.hpp"

namespace fs = std::filesystem;
using labrun::ByteModel;
using labrun::CaseResult;
using labrun::PlotSpec;
using labrun::Transcript;
using labrun::testing::floats;
using labrun::testing::make_case_result;

namespace {

constexpr std::uint64_t kLesson = 16777216;

CaseResult result(const std::string& part, const std::string& name, const std::string& size_label,
                  std::uint64_t elements, ByteModel model, double median_ms) {
  return make_case_result("day48-fusion/" + part + "/" + name, part, size_label, elements, model,
                          {median_ms, median_ms, median_ms});
}

const PlotSpec* find_plot(const std::vector<PlotSpec>& specs, const std::string& id) {
  for (const PlotSpec& spec : specs) {
    if (spec.id == id) {
      return &spec;
    }
  }
  return nullptr;
}

std::vector<std::string> ids_of(const std::vector<PlotSpec>& specs) {
  std::vector<std::string> ids;
  ids.reserve(specs.size());
  for (const PlotSpec& spec : specs) {
    ids.push_back(spec.id);
  }
  return ids;
}

// Part 3 at two sweep sizes and the card-scaled one, in run order (not sorted by n).
Transcript sweep_transcript() {
  Transcript t;
  t.lab_name = "day48-fusion";
  t.cases = {result("part3", "staged-chain", "sweep", 4096, floats(5, 4, 4), 0.020),
             result("part3", "staged-chain", "sweep", 1024, floats(5, 4, 4), 0.018),
             result("part3", "staged-chain", "card-scaled", 1U << 20U, floats(5, 4, 4), 0.090),
             result("part3", "fused-chain", "sweep", 1024, floats(2, 1, 1), 0.006),
             result("part3", "fused-chain", "sweep", 4096, floats(2, 1, 1), 0.008),
             result("part3", "fused-chain", "card-scaled", 1U << 20U, floats(2, 1, 1), 0.030)};
  return t;
}

}  // namespace

TEST_CASE("day 48 declares its plots", "[plots]") {
  const labrun::Lab lab = day48::make_lab();
  REQUIRE(lab.plots);
  CHECK(ids_of(lab.plots(labrun::testing::sample_day48_transcript())) ==
        std::vector<std::string>{"bandwidth-lesson", "sweep", "width-lesson"});
}

TEST_CASE("the sweep plot carries part 3's medians and the byte and launch ratios", "[plots]") {
  Transcript t = sweep_transcript();
  t.environment = {labrun::FactGroup{"device", {labrun::Fact::known("l2_bytes", std::int64_t{62914560})}}};
  const std::vector<PlotSpec> specs = day48::plots(t);
  REQUIRE(ids_of(specs) == std::vector<std::string>{"sweep"});
  const PlotSpec& sweep = specs[0];
  REQUIRE(sweep.panels.size() == 2);

  const labrun::PlotPanel& times = sweep.panels[0];
  CHECK(times.kind == "line");
  CHECK(times.x_log);
  CHECK(times.y_log);
  REQUIRE(times.lines.size() == 2);
  CHECK(times.lines[0].label == "staged-chain");  // the case's row label
  CHECK(times.lines[0].x == std::vector<double>{1024, 4096, 1U << 20U});
  CHECK(times.lines[0].y == std::vector<double>{0.018, 0.020, 0.090});
  CHECK(times.lines[1].label == "fused-chain");
  CHECK(times.lines[1].x == std::vector<double>{1024, 4096, 1U << 20U});
  CHECK(times.lines[1].y == std::vector<double>{0.006, 0.008, 0.030});

  const labrun::PlotPanel& ratio = sweep.panels[1];
  CHECK(ratio.x_log);
  CHECK_FALSE(ratio.y_log);
  REQUIRE(ratio.lines.size() == 1);
  REQUIRE(ratio.lines[0].y.size() == 3);
  CHECK(ratio.lines[0].y[0] == Catch::Approx(3.0));
  CHECK(ratio.lines[0].y[1] == Catch::Approx(2.5));
  CHECK(ratio.lines[0].y[2] == Catch::Approx(3.0));
  REQUIRE(ratio.reference_lines.size() == 2);
  CHECK(ratio.reference_lines[0].y == Catch::Approx(3.0));  // 36 / 12 B per element
  CHECK(ratio.reference_lines[0].label.find("byte ratio 3.00") == 0);
  CHECK(ratio.reference_lines[1].y == Catch::Approx(4.0));  // 4 / 1 launches
  CHECK(ratio.reference_lines[1].label.find("launch ratio 4.00") == 0);

  // n x 4 B = L2, on both panels.
  for (const labrun::PlotPanel* panel : {&times, &ratio}) {
    REQUIRE(panel->vertical_lines.size() == 1);
    CHECK(panel->vertical_lines[0].x == 62914560.0 / 4.0);
    CHECK(panel->vertical_lines[0].label.find("60.0 MiB") != std::string::npos);
  }
}

TEST_CASE("the sweep plot has no L2 line when the L2 size is not known", "[plots]") {
  Transcript t = sweep_transcript();
  t.environment = {labrun::FactGroup{"device", {labrun::Fact::unknown("l2_bytes", "not readable")}}};
  const std::vector<PlotSpec> specs = day48::plots(t);
  REQUIRE(specs.size() == 1);
  CHECK(specs[0].panels[0].vertical_lines.empty());
  CHECK(specs[0].panels[1].vertical_lines.empty());
}

TEST_CASE("the bandwidth plot is every part 2 case's GB/s against the copy ceiling", "[plots]") {
  Transcript t;
  t.cases = {result("part2", "copy-floor", "lesson", kLesson, floats(1, 1, 1), 0.060),
             result("part2", "staged-chain", "lesson", kLesson, floats(5, 4, 4), 0.240),
             result("part2", "fused-chain", "lesson", kLesson, floats(2, 1, 1), 0.080),
             result("part2", "copy-vectorized", "lesson", kLesson, floats(1, 1, 1), 0.055),
             result("part2", "copy-floor", "card-scaled", 8 * kLesson, floats(1, 1, 1), 0.400)};
  const auto gbps = [](const CaseResult& c) {
    return labrun::effective_gb_per_s(c.model, c.elements, c.central_ms());
  };

  SECTION("with the theoretical peak recorded") {
    t.environment = {labrun::FactGroup{"device", {labrun::Fact::known("memory_peak_gb_per_s", 4800.0)}}};
    const std::vector<PlotSpec> specs = day48::plots(t);
    REQUIRE(ids_of(specs) == std::vector<std::string>{"bandwidth-lesson", "bandwidth-card-scaled"});
    const labrun::PlotPanel& lesson = specs[0].panels.at(0);
    CHECK(lesson.kind == "bar");
    CHECK(lesson.categories ==
          std::vector<std::string>{"copy-floor", "staged-chain", "fused-chain", "copy-vectorized"});
    REQUIRE(lesson.bar_values.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      CHECK(lesson.bar_values[i] == gbps(t.cases[i]));
    }
    CHECK(lesson.bar_values[1] == Catch::Approx(36.0 * kLesson / (0.240 * 1e6)));
    REQUIRE(lesson.reference_lines.size() == 2);
    CHECK(lesson.reference_lines[0].y == gbps(t.cases[3]));  // the faster copy is the ceiling
    CHECK(lesson.reference_lines[0].label.find("copy-vectorized") != std::string::npos);
    CHECK(lesson.reference_lines[1].y == 4800.0);
    CHECK(lesson.reference_lines[1].label == "theoretical peak 4800.0 GB/s");
    const labrun::PlotPanel& card = specs[1].panels.at(0);
    CHECK(card.categories == std::vector<std::string>{"copy-floor"});
    REQUIRE(card.reference_lines.size() == 2);
    CHECK(card.reference_lines[0].y == gbps(t.cases[4]));
  }
  SECTION("without the peak and without any copy case") {
    t.cases.erase(t.cases.begin() + 3);
    t.cases.erase(t.cases.begin());
    const std::vector<PlotSpec> specs = day48::plots(t);
    REQUIRE(ids_of(specs) == std::vector<std::string>{"bandwidth-lesson", "bandwidth-card-scaled"});
    CHECK(specs[0].panels.at(0).categories == std::vector<std::string>{"staged-chain", "fused-chain"});
    CHECK(specs[0].panels.at(0).reference_lines.empty());
  }
}

TEST_CASE("the width plot is part 4's medians and occupancy against K", "[plots]") {
  Transcript t;
  // In run order, not sorted by K.
  const std::vector<std::pair<int, double>> widths_and_medians{
      {8, 0.058}, {1, 0.051}, {32, 0.082}, {2, 0.052}};
  for (const auto& [width, median_ms] : widths_and_medians) {
    CaseResult c = result("part4", "fused-wide-k" + std::to_string(width), "lesson", kLesson, floats(2, 1, 1),
                          median_ms);
    c.attributes["theoretical_occupancy"] = width >= 32 ? 0.25 : 1.0;
    t.cases.push_back(c);
  }
  const std::vector<PlotSpec> specs = day48::plots(t);
  REQUIRE(ids_of(specs) == std::vector<std::string>{"width-lesson"});
  REQUIRE(specs[0].panels.size() == 2);
  const labrun::LineSeries& times = specs[0].panels[0].lines.at(0);
  CHECK(specs[0].panels[0].x_log);
  CHECK(times.x == std::vector<double>{1, 2, 8, 32});
  CHECK(times.y == std::vector<double>{0.051, 0.052, 0.058, 0.082});
  const labrun::LineSeries& occupancy = specs[0].panels[1].lines.at(0);
  CHECK(occupancy.x == std::vector<double>{1, 2, 8, 32});
  CHECK(occupancy.y == std::vector<double>{1.0, 1.0, 1.0, 0.25});
}

TEST_CASE("plots whose cases the transcript lacks are left out", "[plots]") {
  CHECK(day48::plots(Transcript{}).empty());

  Transcript staged_only = sweep_transcript();
  std::erase_if(staged_only.cases, [](const CaseResult& c) { return c.name.ends_with("fused-chain"); });
  CHECK(day48::plots(staged_only).empty());

  Transcript part1_only;
  part1_only.cases = {result("part1", "empty-single-thread", "single", 1, floats(0, 0, 1), 5.0)};
  CHECK(day48::plots(part1_only).empty());

  Transcript no_occupancy;
  no_occupancy.cases = {result("part4", "fused-wide-k4", "card-scaled", 8 * kLesson, floats(2, 1, 1), 0.4)};
  const std::vector<PlotSpec> specs = day48::plots(no_occupancy);
  REQUIRE(ids_of(specs) == std::vector<std::string>{"width-card-scaled"});
  CHECK(specs[0].panels.size() == 1);  // the occupancy panel needs recorded occupancy
}

TEST_CASE("the plots of a committed H200 run are that run's figures", "[plots]") {
  const fs::path file = fs::path(LABRUN_TEST_DATA_DIR).parent_path() /
                        "evidence/day48-fusion/nvidia-h200/2026-11-30T06-03-39Z.json.gz";
  const Transcript t = labrun::transcript_from_text(labrun::read_evidence_text(file));
  const std::vector<PlotSpec> specs = day48::plots(t);
  CHECK(ids_of(specs) == std::vector<std::string>{"bandwidth-lesson", "bandwidth-card-scaled", "sweep",
                                                  "width-lesson", "width-card-scaled"});
  const PlotSpec* sweep = find_plot(specs, "sweep");
  REQUIRE(sweep != nullptr);
  const labrun::LineSeries& fused = sweep->panels.at(0).lines.at(1);
  const CaseResult* fused_lesson = t.find_case("day48-fusion/part3/fused-chain", "sweep");
  REQUIRE(fused_lesson != nullptr);
  CHECK(fused.x.front() == static_cast<double>(fused_lesson->elements));
  CHECK(fused.y.front() == fused_lesson->central_ms());
  CHECK(fused.x.size() == t.cases_named("day48-fusion/part3/fused-chain").size());
  CHECK(sweep->panels.at(1).vertical_lines.at(0).x == 62914560.0 / 4.0);

  const PlotSpec* bandwidth = find_plot(specs, "bandwidth-lesson");
  REQUIRE(bandwidth != nullptr);
  const CaseResult* copy = t.find_case("day48-fusion/part2/copy-floor", "lesson");
  REQUIRE(copy != nullptr);
  CHECK(bandwidth->panels.at(0).reference_lines.at(0).y ==
        labrun::effective_gb_per_s(copy->model, copy->elements, copy->central_ms()));
}
