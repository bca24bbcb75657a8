#pragma once
// `labrun plot FILE.json`: a transcript's plots drawn beside it.

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>

namespace labrun {

struct PlotRequest {
  std::string file;    //!< the transcript, named .json
  std::string format;  //!< "svg" or "png"
  bool overwrite = false;
};

//! Adds the subcommand and its options to `app`, filling `request` when parsed.
CLI::App* add_plot_command(CLI::App& app, PlotRequest& request);

//! Draws the plots beside the transcript as <stem>.<plot>.<format> and prints each file's path on
//! `out`; with svg plots and `overwrite`, renders <stem>.md beside it again, linking them, written
//! with the plots as one set (`info`); without `overwrite` the Markdown is never written, and
//! `warn` says when it is missing or does not link the plots. Returns 0, or 1 (with the line on
//! `err`) when the renderer is missing; throws UsageError for a file not named .json or a lab
//! that draws no plots, FileExistsError for a plot file that exists, WriteError for a file that
//! cannot be written (none of the set is then written).
int run_plot_command(const PlotRequest& request, std::ostream& out, std::ostream& err,
                     const std::function<void(const std::string&)>& info,
                     const std::function<void(const std::string&)>& warn);

}  // namespace labrun
