#include "cli/aggregate_command.hpp"

#include <chrono>

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

struct OutputFile {
  fs::path path;
  std::string content;
};

}  // namespace

CLI::App* add_aggregate_command(CLI::App& app, AggregateRequest& request) {
  CLI::App* command = app.add_subcommand(
      "aggregate",
      "Summarise transcripts from many cards, one row per card: runs, the predicted ratios measured (median "
      "and spread), each claim's verdict and how many runs held it, copy floor and ceiling, share of peak, "
      "launch cost and where a swept pair settles at its byte ratio; writes Markdown, JSON, CSV and two "
      "plots "
      "(no GPU needed). Invalid, smoke and duplicate runs are left out, one line each.");
  command->add_option("paths", request.paths, "Transcript files, and folders searched for *.json")
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
             " JSON files found in folders that are not transcripts (comparisons, grade reports, schemas)");
  }
  if (aggregate.used() == 0) {
    err << "labrun: error: nothing to aggregate: none of the " << files.size()
        << " files is a usable transcript\n";
    return exit_code::kFailure;
  }
  progress("aggregated " + std::to_string(aggregate.used()) + " transcripts of " +
           std::to_string(aggregate.labs.size()) + " labs in " +
           fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2) + " s");

  const fs::path dir(request.out_dir);
  std::vector<OutputFile> outputs{{dir / "aggregate.json", aggregate_to_json(aggregate).dump(2) + "\n"}};
  for (const LabAggregate& lab : aggregate.labs) {
    outputs.push_back({dir / ("aggregate." + lab.name + ".csv"), aggregate_lab_to_csv(lab)});
  }
  const std::vector<PlotSpec> plots = aggregate_plots(aggregate);
  // Nothing is written when any output exists and --force was not given.
  if (!request.overwrite) {
    std::vector<fs::path> targets{dir / "aggregate.md"};
    for (const OutputFile& file : outputs) {
      targets.push_back(file.path);
    }
    for (const PlotSpec& plot : plots) {
      targets.push_back(plot_file_path(dir, kAggregateStem, plot.id, kPlotsBesideFormat));
    }
    for (const fs::path& target : targets) {
      if (fs::exists(target)) {
        err << "labrun: error: " << target.string()
            << " exists; refusing to overwrite it (pass --force to replace it)\n";
        return exit_code::kFileExists;
      }
    }
  }
  std::error_code created;
  fs::create_directories(dir, created);
  if (created) {
    err << "labrun: error: cannot create " << dir.string() << ": " << created.message() << "\n";
    return exit_code::kFailure;
  }
  for (const OutputFile& file : outputs) {
    write_file_atomically(file.path, file.content, request.overwrite);
  }
  std::vector<DrawnPlot> drawn;
  if (!plots.empty()) {
    progress("drawing " + std::to_string(plots.size()) + " plots");
    // A renderer failure costs the plots, not the aggregate: the Markdown then links none.
    try {
      const PlotOutcome outcome =
          draw_plots(plots, dir, kAggregateStem, kPlotsBesideFormat, request.overwrite);
      if (!outcome.skipped_reason.empty()) {
        progress("plots not drawn: " + outcome.skipped_reason);
      }
      drawn = outcome.drawn;
    } catch (const FileExistsError&) {
      throw;
    } catch (const std::exception& error) {
      progress("plots not drawn: " + std::string(error.what()));
    }
  }
  const std::string markdown = aggregate_to_markdown(aggregate, plot_links_markdown(drawn, dir));
  write_file_atomically(dir / "aggregate.md", markdown, request.overwrite);
  out << markdown;
  progress("wrote aggregate.md, aggregate.json, " + std::to_string(aggregate.labs.size()) +
           " CSV files and " + std::to_string(drawn.size()) + " plots in " + dir.string());
  return exit_code::kOk;
}

}  // namespace labrun
