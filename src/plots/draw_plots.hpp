#pragma once
// Drawing a lab's plots (plots/plot_spec.hpp) to files: the specs go to scripts/draw_plots.py as
// JSON and matplotlib draws them. Nothing here knows a lab; no GPU is needed. When no Python with
// matplotlib can be found, nothing is drawn and the outcome says why: plots are optional evidence.

#include <filesystem>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "plots/plot_spec.hpp"

namespace labrun {

//! The format `labrun run` draws plots in beside a transcript, and the one its Markdown links.
inline constexpr const char* kPlotsBesideFormat = "svg";

//! A plot drawn to a file (or found drawn earlier).
struct DrawnPlot {
  std::string id;
  std::string title;
  std::filesystem::path file;
};

struct PlotOutcome {
  std::vector<DrawnPlot> drawn;  //!< in spec order
  //! Non-empty exactly when nothing could be drawn because no renderer could run (no Python that
  //! can import matplotlib, the renderer script not found); says what was tried and how to fix it.
  std::string skipped_reason;
};

//! `<dir>/<stem>.<plot_id>.<format>`. Throws std::invalid_argument for a format other than "svg"
//! or "png", or a plot id that is empty or holds anything but 'a'-'z', '0'-'9' and '-'.
[[nodiscard]] std::filesystem::path plot_file_path(const std::filesystem::path& dir, const std::string& stem,
                                                   const std::string& plot_id, const std::string& format);

//! The renderer's input: {"format", "plots": [{"id", "title", "file", "panels": [...]}]}, each
//! panel's fields named as in PlotPanel, each file plot_file_path(dir, stem, id, format) made
//! absolute. Non-finite numbers are written null (JSON has no NaN) and drawn as gaps (grey cells).
//! Throws std::invalid_argument for an invalid format or id, a repeated id, a panel kind other than
//! "line", "bar" or "matrix", a series whose x and y differ in length (or whose style or point labels
//! are not as LineSeries says), bar values or ranges that do
//! not match the categories, cells that do not fill rows x columns, or vertical lines on a bar or
//! matrix panel.
[[nodiscard]] std::string plot_specs_to_json(const std::vector<PlotSpec>& specs,
                                             const std::filesystem::path& dir, const std::string& stem,
                                             const std::string& format);

//! A plot drawn, not yet written anywhere: the file's bytes.
struct RenderedPlot {
  std::string id;
  std::string title;
  std::string content;
};

struct RenderedPlots {
  std::vector<RenderedPlot> plots;  //!< in spec order; empty when skipped
  std::string skipped_reason;       //!< as PlotOutcome's
};

//! Draws every spec in a private scratch folder under the system's temporary folder (removed
//! before it returns, and by a catchable signal: base/temporary_files.hpp) and returns the
//! files' bytes, for the caller to write with the rest of its set. Python is LABRUN_PYTHON when
//! set, else the first of `python3` on PATH and /usr/bin/python3 that can import matplotlib; the
//! script is draw_plots.py in LABRUN_SCRIPTS_DIR when set, else labrun's data file
//! scripts/draw_plots.py (core/install_layout.hpp: beside the build tree's or the installed
//! labrun). The renderer runs under a time limit; its failure (time-out, bad input, a file it did
//! not write) throws std::runtime_error with its output; a scratch folder that cannot be written
//! (by labrun or by the renderer) throws WriteError. No specs: nothing is run.
[[nodiscard]] RenderedPlots render_plots(const std::vector<PlotSpec>& specs, const std::string& stem,
                                         const std::string& format);

//! Adds the rendered plots to `files` as plot_file_path(dir, stem, id, format); returns them as
//! drawn, in order. Throws WriteError as FileSet::add does.
std::vector<DrawnPlot> add_plots(FileSet& files, const RenderedPlots& rendered,
                                 const std::filesystem::path& dir, const std::string& stem,
                                 const std::string& format);

//! plot_file_path of every spec, in order.
[[nodiscard]] std::vector<std::filesystem::path> plot_files(const std::vector<PlotSpec>& specs,
                                                            const std::filesystem::path& dir,
                                                            const std::string& stem,
                                                            const std::string& format);

//! render_plots, then the plots written to plot_file_path(dir, stem, id, format) as one set,
//! creating `dir` if needed. Without `overwrite`, throws FileExistsError (base/atomic_file.hpp)
//! naming the first target that exists, before anything is drawn. No specs: nothing is run and
//! the outcome is empty.
[[nodiscard]] PlotOutcome draw_plots(const std::vector<PlotSpec>& specs, const std::filesystem::path& dir,
                                     const std::string& stem, const std::string& format, bool overwrite);

//! The specs whose files exist in `dir` (drawn by an earlier run), in spec order.
[[nodiscard]] std::vector<DrawnPlot> existing_plots(const std::vector<PlotSpec>& specs,
                                                    const std::filesystem::path& dir, const std::string& stem,
                                                    const std::string& format);

//! A "## Plots" Markdown section with one `![title](file)` image per plot, each file relative to
//! `markdown_dir` (the folder the Markdown is written to) and percent-encoded where a URL needs
//! it; "" when `plots` is empty.
[[nodiscard]] std::string plot_links_markdown(const std::vector<DrawnPlot>& plots,
                                              const std::filesystem::path& markdown_dir);

}  // namespace labrun
