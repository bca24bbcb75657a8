// GPU smoke test over every registered lab (labrun_register_lab, labs/CMakeLists.txt): a new lab is
// covered by registering it. Skips when no usable CUDA device exists.

#include <unistd.h>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <set>

#include "base/atomic_file.hpp"
#include "core/environment_contract.hpp"
#include "evidence/markdown.hpp"
#include "evidence/roofline.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "plots/draw_plots.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"
#include "support/require_gpu.hpp"

namespace fs = std::filesystem;

TEST_CASE("every registered lab runs in the smoke configuration and its transcript reads back") {
  labrun::testing::require_gpu();
  for (const labrun::Lab& lab : labrun::registered_labs().labs()) {
    DYNAMIC_SECTION(lab.name) {
      std::string pattern = (fs::temp_directory_path() / "labrun-smoke-XXXXXX").string();
      const fs::path out = mkdtemp(pattern.data());
      labrun::RunOptions options;
      options.lab_name = lab.name;
      options.out_dir = out;
      options.smoke = true;
      options.command_line = {"labrun_gpu_tests"};
      const labrun::RunReport report = labrun::run_lab(lab, options, [](const std::string&) {});
      const labrun::Transcript& t = report.transcript;
      CHECK(t.configuration == "smoke");
      CHECK(t.all_correct());
      CHECK_FALSE(t.correctness.empty());

      // Every declared case timed, within the smoke sizes, each sample with its clock.
      std::set<std::string> names;
      for (const labrun::CaseResult& c : t.cases) {
        INFO(c.name << " at " << c.size_label);
        names.insert(c.name);
        CHECK_FALSE(c.samples_ms.empty());
        CHECK(c.summary.median > 0.0);
        CHECK(c.elements <= labrun::kSmokeMaxElements);
        CHECK(c.timing_mode == "hot");
        CHECK(c.sample_sm_clock_mhz.size() == c.samples_ms.size());
      }
      CHECK(names.size() == lab.cases.size());
      REQUIRE(t.stability.has_value());

      // Every metadata group and fact recorded; the GPU's name and UUID and the host name read; the
      // lab's own facts known.
      CHECK(labrun::missing_from_contract(t.environment).empty());
      CHECK(t.group("device")->find("name")->is_known());
      CHECK(t.group("device")->find("uuid")->is_known());
      CHECK(t.group("host")->find("hostname")->is_known());
      if (const labrun::FactGroup* lab_facts = t.group("lab")) {
        for (const labrun::Fact& fact : lab_facts->facts) {
          INFO(fact.key);
          CHECK(fact.is_known());
        }
      }

      // Every claim recorded, and a verdict always says why.
      REQUIRE(t.claims.size() == lab.claims.size());
      for (const labrun::ClaimResult& c : t.claims) {
        INFO(c.id << ": " << labrun::verdict_name(c.verdict) << ", " << c.detail);
        CHECK_FALSE(c.detail.empty());
      }

      // The transcript validates, reads back to the same text, and renders to the same Markdown.
      const std::string json_text = labrun::read_file(report.json_path);
      CHECK(labrun::validate_transcript_text(json_text).empty());
      const labrun::Transcript back = labrun::transcript_from_text(json_text);
      CHECK(labrun::transcript_to_text(back) == json_text);
      CHECK(labrun::render_markdown_beside(back, &lab, report.json_path) ==
            labrun::read_file(report.markdown_path));
      // The Markdown links the plots the run drew beside it (none when matplotlib is missing).
      for (const fs::path& file : report.plot_files) {
        CHECK(fs::file_size(file) > 0);
      }
      // The lab's plots and the roofline (evidence/roofline.hpp), as `labrun plot` draws them.
      const std::vector<labrun::PlotSpec> specs = labrun::transcript_plots(back, &lab);
      if (!specs.empty()) {
        CHECK(labrun::existing_plots(specs, report.json_path.parent_path(), report.json_path.stem().string(),
                                     labrun::kPlotsBesideFormat)
                  .size() == report.plot_files.size());
      }
      // Every timed case carries the figures its lab declares, each with a value (a formula's from
      // the case's own time), and the report shows them as columns.
      bool any_figure = false;
      for (const labrun::CaseResult& c : back.cases) {
        const labrun::CaseSpec* spec = lab.find_case(c.name);
        REQUIRE(spec != nullptr);
        REQUIRE(c.declared_figures.size() == spec->figures.size());
        for (std::size_t f = 0; f < c.declared_figures.size(); ++f) {
          INFO(c.name << ": " << c.declared_figures[f].name << ": " << c.declared_figures[f].unknown_reason);
          CHECK(c.declared_figures[f].name == spec->figures[f].name);
          CHECK(c.declared_figures[f].value.has_value());
          any_figure = true;
        }
      }
      if (any_figure) {
        CHECK(labrun::read_file(report.markdown_path).find("## Every case") != std::string::npos);
      }
      // Every lab of this build declares a roofline, and the smoke run times its ceilings.
      if (!lab.roofline.empty()) {
        const labrun::RooflineOutcome roofline = labrun::roofline_of(back);
        INFO(roofline.not_drawn);
        CHECK(roofline.figures.has_value());
      }

      // A second run into the same file names is refused rather than overwriting.
      CHECK_THROWS_AS(labrun::write_file_atomically(report.json_path, "x", false), labrun::FileExistsError);
      fs::remove_all(out);
    }
  }
}
