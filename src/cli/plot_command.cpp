#include "cli/plot_command.hpp"

#include <filesystem>

#include "base/atomic_file.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "evidence/markdown.hpp"
#include "evidence/transcript_file.hpp"
#include "plots/draw_plots.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"

namespace labrun {

CLI::App* add_plot_command(CLI::App& app, PlotRequest& request) {
  request.format = kPlotsBesideFormat;
  CLI::App* command = app.add_subcommand(
      "plot",
      "Draw a transcript's plots (matplotlib, no GPU needed) beside it as <stem>.<plot>.svg (or .png); with "
      "--force, also render the Markdown beside it again so that it links them.");
  command->add_option("file", request.file, "A transcript written by `labrun run` (.json)")->required();
  command->add_option("--format", request.format, "svg or png (the Markdown links svg plots only)")
      ->check(CLI::IsMember({"svg", "png"}))
      ->capture_default_str();
  command->add_flag("--force", request.overwrite,
                    "Replace existing plot files and the Markdown beside the transcript");
  return command;
}

int run_plot_command(const PlotRequest& request, std::ostream& out, std::ostream& err,
                     const std::function<void(const std::string&)>& info,
                     const std::function<void(const std::string&)>& warn) {
  // The plots and the Markdown go beside the transcript as <stem>.<plot>.svg and <stem>.md: a
  // transcript not named .json could be one of them, and be overwritten by its own rendering.
  if (std::filesystem::path(request.file).extension() != ".json") {
    throw UsageError(request.file +
                     ": a transcript to plot must be named .json (its plots and Markdown are "
                     "written beside it as <name>.<plot>.svg and <name>.md)");
  }
  const Transcript transcript = read_transcript_file(request.file);
  const Lab* lab = registered_labs().find(transcript.lab_name);
  if (lab == nullptr || !lab->plots) {
    throw UsageError("lab " + transcript.lab_name + " draws no plots in this build");
  }
  const std::filesystem::path json_path(request.file);
  const std::filesystem::path dir = json_path.parent_path().empty() ? "." : json_path.parent_path();
  const std::string stem = json_path.stem().string();
  const PlotOutcome outcome =
      draw_plots(lab->plots(transcript), dir, stem, request.format, request.overwrite);
  if (!outcome.skipped_reason.empty()) {
    return report_error(err, exit_code::kFailure, "no plots drawn: " + outcome.skipped_reason);
  }
  for (const DrawnPlot& drawn : outcome.drawn) {
    out << drawn.file.string() << "\n";
  }
  // The Markdown beside the transcript is a rendering of it: with --force it is rendered again,
  // now linking the plots; without, it is left as it is.
  const std::filesystem::path markdown_path = dir / (stem + ".md");
  if (request.format == kPlotsBesideFormat) {
    const std::string markdown = render_markdown_beside(transcript, lab, json_path);
    if (!std::filesystem::exists(markdown_path) || request.overwrite) {
      write_file_atomically(markdown_path, markdown, true);
      info("rendered " + markdown_path.string() + " with links to the plots");
    } else if (read_file(markdown_path) != markdown) {
      warn(markdown_path.string() + " does not link the plots; pass --force to render it again with them");
    }
  }
  return exit_code::kOk;
}

}  // namespace labrun
