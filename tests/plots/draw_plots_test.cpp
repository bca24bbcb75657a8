#include "plots/draw_plots.hpp"

#include <stdlib.h>  // setenv, unsetenv

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/atomic_file.hpp"
#include "core/install_layout.hpp"
#include "core/transcript.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "lab.hpp"
#include "process/process.hpp"
#include "support/scoped_environment.hpp"
#include "support/temporary_directory.hpp"
#include "timeline/timeline.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using labrun::testing::ScopedEnvironment;
using labrun::testing::TemporaryDirectory;

namespace {

labrun::PlotSpec line_plot(const std::string& id) {
  labrun::PlotPanel panel;
  panel.x_label = "n (elements)";
  panel.y_label = "median time (ms)";
  panel.x_log = true;
  panel.y_log = true;
  panel.lines = {{"staged", {1024.0, 4096.0}, {0.02, std::numeric_limits<double>::quiet_NaN()}}};
  panel.reference_lines = {{"byte ratio 3.00", 3.0}};
  panel.vertical_lines = {{"L2", 15728640.0}};
  return {id, "A line plot", {panel}};
}

labrun::PlotSpec bar_plot(const std::string& id) {
  labrun::PlotPanel panel;
  panel.kind = "bar";
  panel.x_label = "case";
  panel.y_label = "GB/s";
  panel.categories = {"copyFloor", "chainFused"};
  panel.bar_values = {2315.5, 2100.0};
  panel.reference_lines = {{"measured ceiling", 2315.5}};
  return {id, "A bar plot", {panel}};
}

std::string text_of(const fs::path& file) {
  return labrun::read_file(file);
}

bool any_python_exists() {
  return !labrun::find_on_path("python3").empty() || fs::exists("/usr/bin/python3");
}

// The newest committed H200 transcript of the current schema version.
labrun::Transcript newest_h200_transcript() {
  const fs::path folder = fs::path(LABRUN_TEST_DATA_DIR).parent_path() / "evidence/day48-fusion/nvidia-h200";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (labrun::named_as_transcript(entry.path()) &&
        !labrun::is_trace_file(entry.path().filename().string())) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.rbegin(), files.rend());  // names are UTC timestamps: newest first
  for (const fs::path& file : files) {
    labrun::Transcript transcript = labrun::transcript_from_text(labrun::read_evidence_text(file));
    if (transcript.schema_version == "1.1.0") {
      return transcript;
    }
  }
  FAIL("no 1.1.0 transcript under " << folder);
  return {};
}

}  // namespace

TEST_CASE("plot files are named <stem>.<plot id>.<format> in their folder", "[plots]") {
  CHECK(labrun::plot_file_path("out/h200", "2026-11-30T06-03-39Z", "sweep", "svg") ==
        fs::path("out/h200/2026-11-30T06-03-39Z.sweep.svg"));
  CHECK(labrun::plot_file_path("out", "run", "width-card-scaled", "png") ==
        fs::path("out/run.width-card-scaled.png"));
  CHECK_THROWS_AS(labrun::plot_file_path("out", "run", "sweep", "gif"), std::invalid_argument);
  CHECK_THROWS_AS(labrun::plot_file_path("out", "run", "", "svg"), std::invalid_argument);
  CHECK_THROWS_AS(labrun::plot_file_path("out", "run", "../sweep", "svg"), std::invalid_argument);
  CHECK_THROWS_AS(labrun::plot_file_path("out", "run", "Sweep", "svg"), std::invalid_argument);
}

TEST_CASE("plot specs become the renderer's JSON, field for field", "[plots]") {
  const std::string text =
      labrun::plot_specs_to_json({line_plot("sweep"), bar_plot("bandwidth")}, "out", "run", "svg");
  const nlohmann::json document = nlohmann::json::parse(text);
  CHECK(document["format"] == "svg");
  REQUIRE(document["plots"].size() == 2);
  const nlohmann::json& line = document["plots"][0];
  CHECK(line["id"] == "sweep");
  CHECK(line["title"] == "A line plot");
  const fs::path file = line["file"].get<std::string>();
  CHECK(file.is_absolute());
  CHECK(file == fs::absolute("out/run.sweep.svg").lexically_normal());
  REQUIRE(line["panels"].size() == 1);
  const nlohmann::json& panel = line["panels"][0];
  CHECK(panel["kind"] == "line");
  CHECK(panel["x_label"] == "n (elements)");
  CHECK(panel["y_label"] == "median time (ms)");
  CHECK(panel["x_log"] == true);
  CHECK(panel["y_log"] == true);
  CHECK(panel["lines"][0]["label"] == "staged");
  CHECK(panel["lines"][0]["x"] == nlohmann::json({1024.0, 4096.0}));
  CHECK(panel["lines"][0]["y"][0] == 0.02);
  CHECK(panel["lines"][0]["y"][1].is_null());  // NaN: unknown, drawn as a gap
  CHECK(panel["reference_lines"] == nlohmann::json::parse(R"([{"label": "byte ratio 3.00", "y": 3.0}])"));
  CHECK(panel["vertical_lines"] == nlohmann::json::parse(R"([{"label": "L2", "x": 15728640.0}])"));
  CHECK(panel["categories"].empty());
  CHECK(panel["bar_values"].empty());
  const nlohmann::json& bar = document["plots"][1]["panels"][0];
  CHECK(bar["kind"] == "bar");
  CHECK(bar["categories"] == nlohmann::json({"copyFloor", "chainFused"}));
  CHECK(bar["bar_values"] == nlohmann::json({2315.5, 2100.0}));
  CHECK(bar["lines"].empty());
}

TEST_CASE("matrix panels and bar ranges become the renderer's JSON", "[plots]") {
  labrun::PlotPanel matrix;
  matrix.kind = "matrix";
  matrix.x_label = "card";
  matrix.y_label = "claim";
  matrix.categories = {"claim-a", "claim-b"};
  matrix.columns = {"T4", "H200"};
  matrix.cells = {1.0, 0.5, std::numeric_limits<double>::quiet_NaN(), 0.0};
  matrix.cell_labels = {"1/1", "1/2", "not measured", "0/3"};
  labrun::PlotSpec bars = bar_plot("bandwidth");
  bars.panels[0].bar_low = {2300.0, 2000.0};
  bars.panels[0].bar_high = {2320.0, 2150.0};
  bars.panels[0].value_decimals = 2;
  const nlohmann::json document = nlohmann::json::parse(
      labrun::plot_specs_to_json({{"claims", "Claims", {matrix}}, bars}, "out", "aggregate", "svg"));
  const nlohmann::json& cells = document["plots"][0]["panels"][0];
  CHECK(cells["kind"] == "matrix");
  CHECK(cells["columns"] == nlohmann::json({"T4", "H200"}));
  CHECK(cells["cells"][1] == 0.5);
  CHECK(cells["cells"][2].is_null());  // not measured: grey
  CHECK(cells["cell_labels"][2] == "not measured");
  const nlohmann::json& ranged = document["plots"][1]["panels"][0];
  CHECK(ranged["bar_low"] == nlohmann::json({2300.0, 2000.0}));
  CHECK(ranged["value_decimals"] == 2);

  const auto refused = [](labrun::PlotPanel panel) {
    CHECK_THROWS_AS(labrun::plot_specs_to_json({{"bad", "Bad", {std::move(panel)}}}, "out", "run", "svg"),
                    std::invalid_argument);
  };
  labrun::PlotPanel short_cells = matrix;
  short_cells.cells.pop_back();
  refused(short_cells);
  labrun::PlotPanel empty = matrix;
  empty.columns.clear();
  empty.cells.clear();
  empty.cell_labels.clear();
  refused(empty);
  labrun::PlotPanel vertical = matrix;
  vertical.vertical_lines = {{"L2", 1.0}};
  refused(vertical);
  labrun::PlotPanel uneven_range = bars.panels[0];
  uneven_range.bar_high.pop_back();
  refused(uneven_range);
  labrun::PlotPanel decimals = bars.panels[0];
  decimals.value_decimals = 9;
  refused(decimals);
}

TEST_CASE("specs the renderer cannot draw are refused before anything runs", "[plots]") {
  CHECK_THROWS_AS(labrun::plot_specs_to_json({line_plot("sweep")}, "out", "run", "pdf"),
                  std::invalid_argument);
  CHECK_THROWS_AS(labrun::plot_specs_to_json({line_plot("sweep"), bar_plot("sweep")}, "out", "run", "svg"),
                  std::invalid_argument);
  labrun::PlotSpec uneven = line_plot("sweep");
  uneven.panels[0].lines[0].y.pop_back();
  CHECK_THROWS_WITH(labrun::plot_specs_to_json({uneven}, "out", "run", "svg"), ContainsSubstring("staged"));
  labrun::PlotSpec short_bars = bar_plot("bandwidth");
  short_bars.panels[0].bar_values.pop_back();
  CHECK_THROWS_AS(labrun::plot_specs_to_json({short_bars}, "out", "run", "svg"), std::invalid_argument);
  labrun::PlotSpec bar_with_vertical = bar_plot("bandwidth");
  bar_with_vertical.panels[0].vertical_lines = {{"L2", 1.0}};
  CHECK_THROWS_AS(labrun::plot_specs_to_json({bar_with_vertical}, "out", "run", "svg"),
                  std::invalid_argument);
  labrun::PlotSpec pie = bar_plot("bandwidth");
  pie.panels[0].kind = "pie";
  CHECK_THROWS_WITH(labrun::plot_specs_to_json({pie}, "out", "run", "svg"), ContainsSubstring("pie"));
  TemporaryDirectory dir;
  CHECK_THROWS_AS(labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "jpeg", false),
                  std::invalid_argument);
}

TEST_CASE("an existing plot file is never overwritten without --force", "[plots]") {
  TemporaryDirectory dir;
  const fs::path existing = labrun::plot_file_path(dir.path, "run", "bandwidth", "svg");
  labrun::write_file_atomically(existing, "drawn earlier", false);
  CHECK_THROWS_AS(
      labrun::draw_plots({line_plot("sweep"), bar_plot("bandwidth")}, dir.path, "run", "svg", false),
      labrun::FileExistsError);
  CHECK_THROWS_WITH(
      labrun::draw_plots({line_plot("sweep"), bar_plot("bandwidth")}, dir.path, "run", "svg", false),
      ContainsSubstring(existing.string()) && ContainsSubstring("--force"));
  CHECK(text_of(existing) == "drawn earlier");
  CHECK_FALSE(fs::exists(labrun::plot_file_path(dir.path, "run", "sweep", "svg")));
}

TEST_CASE("plots drawn earlier are found by their file names", "[plots]") {
  TemporaryDirectory dir;
  const std::vector<labrun::PlotSpec> specs{line_plot("sweep"), bar_plot("bandwidth")};
  CHECK(labrun::existing_plots(specs, dir.path, "run", "svg").empty());
  labrun::write_file_atomically(labrun::plot_file_path(dir.path, "run", "bandwidth", "svg"), "<svg/>", false);
  const std::vector<labrun::DrawnPlot> found = labrun::existing_plots(specs, dir.path, "run", "svg");
  REQUIRE(found.size() == 1);
  CHECK(found[0].id == "bandwidth");
  CHECK(found[0].title == "A bar plot");
  CHECK(found[0].file == dir.path / "run.bandwidth.svg");
  CHECK(labrun::existing_plots(specs, dir.path, "run", "png").empty());
  CHECK(labrun::existing_plots(specs, dir.path, "other-run", "svg").empty());
}

TEST_CASE("plot links are relative to the Markdown's folder", "[plots]") {
  CHECK(labrun::plot_links_markdown({}, "evidence").empty());
  const std::vector<labrun::DrawnPlot> plots{
      {"sweep", "Part 3: swept over n", fs::path("evidence/h200/run.sweep.svg")},
      {"bandwidth", "GB/s [lesson]", fs::path("evidence/h200/my plots/run.bandwidth.svg")}};
  CHECK(labrun::plot_links_markdown(plots, "evidence/h200") ==
        "\n## Plots\n"
        "\n![Part 3: swept over n](run.sweep.svg)\n"
        "\n![GB/s \\[lesson\\]](my%20plots/run.bandwidth.svg)\n");
  CHECK_THAT(labrun::plot_links_markdown(plots, "evidence/other"),
             ContainsSubstring("](../h200/run.sweep.svg)"));
  CHECK_THAT(labrun::plot_links_markdown(plots, fs::absolute("evidence/h200")),
             ContainsSubstring("](run.sweep.svg)"));
}

TEST_CASE("no renderer to run is reported as skipped, not as an error", "[plots]") {
  TemporaryDirectory dir;
  {
    const ScopedEnvironment python("LABRUN_PYTHON", (dir.path / "no-such-python3").string());
    const labrun::PlotOutcome outcome =
        labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "svg", false);
    CHECK(outcome.drawn.empty());
    CHECK_THAT(outcome.skipped_reason,
               ContainsSubstring("no-such-python3") && ContainsSubstring("matplotlib"));
  }
  {
    const ScopedEnvironment scripts("LABRUN_SCRIPTS_DIR", (dir.path / "no-scripts").string());
    const labrun::PlotOutcome outcome =
        labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "svg", false);
    CHECK(outcome.drawn.empty());
    CHECK_THAT(outcome.skipped_reason,
               ContainsSubstring("draw_plots.py") && ContainsSubstring("LABRUN_SCRIPTS_DIR"));
  }
  CHECK_FALSE(fs::exists(labrun::plot_file_path(dir.path, "run", "sweep", "svg")));
  CHECK(labrun::draw_plots({}, dir.path, "run", "svg", false).skipped_reason.empty());
}

TEST_CASE("the renderer's exit status decides between skipped, failed and drawn", "[plots]") {
  if (!any_python_exists()) {
    SKIP("no python3 on PATH or at /usr/bin/python3 to run a stand-in renderer");
  }
  TemporaryDirectory dir;
  const fs::path scripts = dir.path / "scripts";
  fs::create_directories(scripts);
  const ScopedEnvironment chosen_scripts("LABRUN_SCRIPTS_DIR", scripts.string());
  const auto stand_in = [&](const std::string& body) {
    labrun::write_file_atomically(scripts / "draw_plots.py", "import sys\n" + body + "\n", true);
  };
  SECTION("exit 3, no matplotlib with any Python: skipped, with the renderer's line") {
    stand_in("print('draw_plots: cannot import matplotlib here', file=sys.stderr)\nsys.exit(3)");
    const labrun::PlotOutcome outcome =
        labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "svg", false);
    CHECK(outcome.drawn.empty());
    CHECK_THAT(outcome.skipped_reason, ContainsSubstring("cannot import matplotlib here"));
  }
  SECTION("exit 2, bad input: an error carrying the renderer's output") {
    stand_in("print('draw_plots: bad input: spec.plots[0]: nonsense', file=sys.stderr)\nsys.exit(2)");
    CHECK_THROWS_WITH(
        labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "svg", false),
        ContainsSubstring("bad input: spec.plots[0]: nonsense") && ContainsSubstring("exit status 2"));
  }
  SECTION("a traceback: one line, the error it ends with") {
    stand_in("raise ValueError('Image size of 1000x1e300 pixels is too large')");
    try {
      static_cast<void>(labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "svg", false));
      FAIL("the renderer's failure was not reported");
    } catch (const std::runtime_error& error) {
      const std::string message = error.what();
      CHECK(message.find('\n') == std::string::npos);
      CHECK_THAT(message, ContainsSubstring("ValueError: Image size of 1000x1e300 pixels is too large"));
      CHECK(message.find("Traceback") == std::string::npos);
    }
  }
  SECTION("exit 0 without the files: an error naming the missing file") {
    stand_in("sys.exit(0)");
    CHECK_THROWS_WITH(labrun::draw_plots({line_plot("sweep")}, dir.path, "run", "svg", false),
                      ContainsSubstring("run.sweep.svg"));
  }
}

TEST_CASE("day 48's plots are drawn from a committed H200 transcript, reproducibly", "[plots][draw]") {
  const labrun::Transcript transcript = newest_h200_transcript();
  const labrun::Lab lab = day48::make_lab();
  REQUIRE(lab.plots);
  const std::vector<labrun::PlotSpec> specs = lab.plots(transcript);
  std::vector<std::string> ids;
  ids.reserve(specs.size());
  for (const labrun::PlotSpec& spec : specs) {
    ids.push_back(spec.id);
  }
  CHECK(ids == std::vector<std::string>{"bandwidth-lesson", "bandwidth-card-scaled", "sweep", "width-lesson",
                                        "width-card-scaled"});

  TemporaryDirectory dir;
  const labrun::PlotOutcome outcome = labrun::draw_plots(specs, dir.path, "h200", "svg", false);
  if (!outcome.skipped_reason.empty()) {
    SKIP("plots cannot be drawn on this machine: " << outcome.skipped_reason);
  }
  REQUIRE(outcome.drawn.size() == specs.size());
  std::vector<std::string> first_drawing;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const labrun::DrawnPlot& drawn = outcome.drawn[i];
    CHECK(drawn.id == specs[i].id);
    CHECK(drawn.title == specs[i].title);
    CHECK(drawn.file == labrun::plot_file_path(dir.path, "h200", specs[i].id, "svg"));
    const std::string svg = text_of(drawn.file);
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(svg.find("<svg") != std::string::npos);
    first_drawing.push_back(svg);
  }
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) ==
        static_cast<std::ptrdiff_t>(specs.size()));  // nothing temporary left behind

  const labrun::PlotOutcome again = labrun::draw_plots(specs, dir.path, "h200", "svg", true);
  REQUIRE(again.drawn.size() == specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    CHECK(text_of(again.drawn[i].file) == first_drawing[i]);
  }

  const labrun::PlotOutcome png = labrun::draw_plots({specs.front()}, dir.path, "h200", "png", false);
  REQUIRE(png.drawn.size() == 1);
  const std::string png_bytes = text_of(png.drawn[0].file);
  CHECK(png_bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  REQUIRE(labrun::draw_plots({specs.front()}, dir.path, "h200", "png", true).drawn.size() == 1);
  CHECK(text_of(png.drawn[0].file) == png_bytes);
}

TEST_CASE("plots drawn side by side are byte for byte those drawn one after another", "[plots][draw]") {
  const labrun::Transcript transcript = newest_h200_transcript();
  const std::vector<labrun::PlotSpec> specs = day48::make_lab().plots(transcript);
  REQUIRE(specs.size() >= 2);
  if (labrun::find_on_path("taskset").empty()) {
    SKIP("no taskset to hold the renderer to one CPU");
  }
  const labrun::RenderedPlots side_by_side = labrun::render_plots(specs, "h200", "svg");
  if (!side_by_side.skipped_reason.empty()) {
    SKIP("plots cannot be drawn on this machine: " << side_by_side.skipped_reason);
  }
  // The same renderer, held to one CPU: it then draws every plot in its own process, in order.
  TemporaryDirectory dir;
  const fs::path one_cpu = dir.path / "python-on-one-cpu";
  labrun::write_file_atomically(one_cpu,
                                "#!/bin/sh\n"
                                "for p in python3 /usr/bin/python3; do\n"
                                "  if \"$p\" -c 'import matplotlib' 2>/dev/null; then\n"
                                "    exec taskset -c 0 \"$p\" \"$@\"\n"
                                "  fi\n"
                                "done\n"
                                "exit 3\n",
                                true);
  fs::permissions(one_cpu, fs::perms::owner_exec, fs::perm_options::add);
  const ScopedEnvironment python("LABRUN_PYTHON", one_cpu.string());
  const labrun::RenderedPlots in_order = labrun::render_plots(specs, "h200", "svg");
  REQUIRE(in_order.skipped_reason.empty());
  REQUIRE(in_order.plots.size() == side_by_side.plots.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    CHECK(in_order.plots[i].id == side_by_side.plots[i].id);
    CHECK(in_order.plots[i].content == side_by_side.plots[i].content);
  }
}

TEST_CASE("of plots drawn side by side, the first in order that fails is the one reported", "[plots][draw]") {
  const labrun::Transcript transcript = newest_h200_transcript();
  const std::vector<labrun::PlotSpec> specs = day48::make_lab().plots(transcript);
  REQUIRE(specs.size() >= 4);
  // Probe for a renderer that can draw at all (skipped without matplotlib).
  if (!labrun::render_plots({specs.front()}, "probe", "svg").skipped_reason.empty()) {
    SKIP("plots cannot be drawn on this machine");
  }
  TemporaryDirectory dir;
  nlohmann::json input = nlohmann::json::parse(labrun::plot_specs_to_json(specs, dir.path, "run", "svg"));
  input["plots"][2]["file"] = (dir.path / "missing-folder" / "third.svg").string();
  input["plots"][3]["file"] = (dir.path / "missing-folder" / "fourth.svg").string();
  const fs::path spec_file = dir.path / "plots.json";
  labrun::write_file_atomically(spec_file, input.dump(), false);
  const fs::path script = labrun::find_data_file(fs::path("scripts") / "draw_plots.py");
  std::optional<labrun::ProcessResult> run;
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    labrun::ProcessResult attempt =
        labrun::run_with_limit({python, script.string(), spec_file.string()}, 120.0);
    if (attempt.exit_code != 3) {  // 3: this Python has no matplotlib
      run = std::move(attempt);
      break;
    }
  }
  REQUIRE(run);
  CHECK(run->exit_code == 1);
  CHECK_THAT(run->output, ContainsSubstring("third.svg"));
  CHECK(run->output.find("fourth.svg") == std::string::npos);
  CHECK(std::count(run->output.begin(), run->output.end(), '\n') == 1);
  // The plots that could be drawn were written, and nothing temporary was left beside them.
  CHECK(fs::exists(labrun::plot_file_path(dir.path, "run", specs[0].id, "svg")));
  CHECK(fs::exists(labrun::plot_file_path(dir.path, "run", specs[4].id, "svg")));
  for (const auto& entry : fs::directory_iterator(dir.path)) {
    CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
  }
}
