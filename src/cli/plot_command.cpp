#include "cli/plot_command.hpp"

#include <filesystem>
#include <optional>

#include "base/atomic_file.hpp"
#include "cli/command_support.hpp"
#include "cli/exit_codes.hpp"
#include "evidence/markdown.hpp"
#include "evidence/roofline.hpp"
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
  command
      ->add_option("file", request.file,
                   "A transcript written by `labrun run` (.json, or .json.gz compressed)")
      ->required();
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
  // transcript not named .json or .json.gz could be one of them, and be overwritten by its own
  // rendering.
  if (!named_as_transcript(request.file)) {
    throw UsageError(request.file +
                     ": a transcript to plot must be named .json or .json.gz (its plots and Markdown are "
                     "written beside it as <name>.<plot>.svg and <name>.md)");
  }
  const Transcript transcript = read_transcript_file(request.file, registered_lab_lookup());
  const Lab* lab = registered_labs().find(transcript.lab_name);
  // The lab's plots and, from any transcript that has its figures, the roofline.
  const std::vector<PlotSpec> specs = transcript_plots(transcript, lab);
  if (specs.empty()) {
    throw UsageError("lab " + transcript.lab_name +
                     " draws no plots in this build, and the transcript has no roofline to draw");
  }
  const std::filesystem::path json_path(request.file);
  const std::filesystem::path dir = json_path.parent_path().empty() ? "." : json_path.parent_path();
  const std::string stem = transcript_file_stem(json_path);
  if (!request.overwrite) {
    if (const std::optional<std::filesystem::path> existing =
            first_existing(plot_files(specs, dir, stem, request.format))) {
      throw FileExistsError("plot file " + existing->string() + " exists; pass --force to overwrite it");
    }
  }
  const RenderedPlots rendered = render_plots(specs, stem, request.format);
  if (!rendered.skipped_reason.empty()) {
    return report_error(err, exit_code::kFailure, "no plots drawn: " + rendered.skipped_reason);
  }
  // The plots, and with --force the Markdown beside the transcript (a rendering of it, now
  // linking them), are written as one set. Without --force the Markdown is left as it is, or
  // absent: the command says what --force would render.
  FileSet files;
  const std::vector<DrawnPlot> drawn = add_plots(files, rendered, dir, stem, request.format);
  const std::filesystem::path markdown_path = dir / (stem + ".md");
  std::string note;
  if (request.format == kPlotsBesideFormat) {
    const std::string markdown = render_markdown(transcript, lab, plot_links_markdown(drawn, dir));
    if (request.overwrite) {
      files.add(markdown_path, markdown);
      note = "rendered " + markdown_path.string() + " with links to the plots";
    } else if (!std::filesystem::exists(markdown_path)) {
      note = markdown_path.string() + " does not exist; pass --force to render it, linking the plots";
    } else if (read_file(markdown_path) != markdown) {
      note = markdown_path.string() + " does not link the plots; pass --force to render it again with them";
    }
  }
  files.commit(request.overwrite);
  for (const DrawnPlot& plot : drawn) {
    out << plot.file.string() << "\n";
  }
  if (request.overwrite && !note.empty()) {
    info(note);
  } else if (!note.empty()) {
    warn(note);
  }
  return exit_code::kOk;
}

}  // namespace labrun
