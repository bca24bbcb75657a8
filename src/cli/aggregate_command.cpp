#include "cli/aggregate_command.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "aggregate/aggregate.hpp"
#include "aggregate/csv.hpp"
#include "aggregate/json.hpp"
#include "aggregate/markdown.hpp"
#include "aggregate/plots.hpp"
#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "cli/exit_codes.hpp"
#include "plots/draw_plots.hpp"
#include "registry/registry.hpp"

namespace labrun {
namespace {

namespace fs = std::filesystem;

}  // namespace

std::vector<fs::path> existing_aggregate_outputs(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    return {};
  }
  const std::string prefix = std::string(kAggregateStem) + ".";
  std::vector<fs::path> found;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) == 0 &&
        (name == prefix + "md" || name == prefix + "json" || ends_with(name, ".csv") ||
         ends_with(name, "-ratios." + std::string(kPlotsBesideFormat)) ||
         ends_with(name, "-claims." + std::string(kPlotsBesideFormat)))) {
      found.push_back(it->path());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<fs::path> existing_aggregate_output(const fs::path& dir) {
  const std::vector<fs::path> found = existing_aggregate_outputs(dir);
  if (found.empty()) {
    return std::nullopt;
  }
  return found.front();
}

CLI::App* add_aggregate_command(CLI::App& app, AggregateRequest& request) {
  CLI::App* command = app.add_subcommand(
      "aggregate",
      "Summarise transcripts from many cards, one row per card: runs, the predicted ratios measured (median "
      "and spread), each claim's verdict and how many runs held it, copy floor and ceiling, share of peak, "
      "launch cost and where a swept pair settles at its byte ratio; writes Markdown, JSON, CSV and two "
      "plots "
      "(no GPU needed). Invalid, smoke and duplicate runs are left out, one line each.");
  command
      ->add_option("paths", request.paths,
                   "Transcript files, and folders searched for *.json and *.json.gz (Chrome traces aside)")
      ->required();
  command->add_option("--out", request.out_dir, "Folder for aggregate.md, aggregate.json, the CSVs and plots")
      ->required();
  command
      ->add_option("--timing", request.timing_mode,
                   "Only runs sampled in this timing mode (transcribed references are always kept)")
      ->check(CLI::IsMember({"any", "hot", "cold", "hot-gated"}))
      ->capture_default_str();
  command->add_flag("--force", request.overwrite, "Replace existing output files");
  return command;
}

int run_aggregate_command(const AggregateRequest& request, std::ostream& out, std::ostream& err,
                          const std::function<void(const std::string&)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path dir(request.out_dir);
  // Before anything is read: an earlier aggregate in --out refuses the run at once (its outputs
  // are named for its labs, so any file named as an aggregate's output counts).
  if (!request.overwrite) {
    if (const std::optional<fs::path> existing = existing_aggregate_output(dir)) {
      err << "labrun: error: " << exists_message(*existing) << "\n";
      return exit_code::kFileExists;
    }
  }
  std::vector<fs::path> paths(request.paths.begin(), request.paths.end());
  const std::vector<AggregateFile> files = aggregate_files(paths);
  progress("reading " + std::to_string(files.size()) + " files");
  AggregateOptions options;
  options.timing_mode = request.timing_mode == "any" ? "" : request.timing_mode;
  const Aggregate aggregate = aggregate_transcripts(
      files, options, [](const std::string& name) { return registered_labs().find(name); });
  std::size_t skipped = 0;
  for (const AggregateInput& input : aggregate.inputs) {
    if (input.not_a_transcript) {
      ++skipped;
    } else if (!input.used()) {
      err << "labrun: left out: " << input.refused << "\n";
    }
  }
  if (skipped > 0) {
    progress("skipped " + std::to_string(skipped) +
             " JSON files found in folders that are not transcripts (comparisons, grade reports, schemas, "
             "traces)");
  }
  if (aggregate.used() == 0) {
    err << "labrun: error: nothing to aggregate: none of the " << files.size()
        << " files is a usable transcript\n";
    return exit_code::kFailure;
  }
  progress("aggregated " + std::to_string(aggregate.used()) + " transcripts of " +
           std::to_string(aggregate.labs.size()) + " labs in " +
           fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2) + " s");

  const std::vector<PlotSpec> plots = aggregate_plots(aggregate);
  // Drawn first, in a scratch folder; then every output is written beside the others under a
  // temporary name, and they take their names together (FileSet): a failure, a full disk or a
  // signal leaves the whole set or none of it.
  RenderedPlots rendered;
  if (!plots.empty()) {
    progress("drawing " + std::to_string(plots.size()) + " plots");
    // A renderer failure costs the plots, not the aggregate: the Markdown then links none. A write
    // failure is an error, as every other one.
    try {
      rendered = render_plots(plots, kAggregateStem, kPlotsBesideFormat);
      if (!rendered.skipped_reason.empty()) {
        progress("plots not drawn: " + rendered.skipped_reason);
      }
    } catch (const WriteError&) {
      throw;
    } catch (const std::exception& error) {
      progress("plots not drawn: " + std::string(error.what()));
    }
  }
  std::error_code created;
  fs::create_directories(dir, created);
  if (created) {
    err << "labrun: error: cannot create " << dir.string() << ": " << created.message() << "\n";
    return exit_code::kFailure;
  }
  FileSet outputs;
  outputs.add(dir / "aggregate.json", aggregate_to_json(aggregate).dump(2) + "\n");
  for (const LabAggregate& lab : aggregate.labs) {
    outputs.add(dir / ("aggregate." + lab.name + ".csv"), aggregate_lab_to_csv(lab));
  }
  const std::vector<DrawnPlot> drawn = add_plots(outputs, rendered, dir, kAggregateStem, kPlotsBesideFormat);
  const std::string markdown = aggregate_to_markdown(aggregate, plot_links_markdown(drawn, dir));
  outputs.add(dir / "aggregate.md", markdown);
  if (request.overwrite) {
    // --force replaces the set an aggregate in this folder owns as a whole: an earlier run's files for
    // labs this one lacks leave with it, never to be read beside the new ones.
    const std::vector<fs::path> written = outputs.targets();
    for (const fs::path& earlier : existing_aggregate_outputs(dir)) {
      if (std::find(written.begin(), written.end(), earlier) == written.end()) {
        outputs.retire(earlier);
      }
    }
  }
  outputs.commit(request.overwrite);
  out << markdown;
  progress("wrote aggregate.md, aggregate.json, " + std::to_string(aggregate.labs.size()) +
           " CSV files and " + std::to_string(drawn.size()) + " plots in " + dir.string());
  return exit_code::kOk;
}

}  // namespace labrun
