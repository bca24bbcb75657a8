#include "plots/draw_plots.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "core/install_layout.hpp"
#include "process/process.hpp"

namespace labrun {

using Json = nlohmann::ordered_json;  // the same alias as evidence/transcript_json.hpp's

namespace {

namespace fs = std::filesystem;

constexpr const char* kRendererScript = "draw_plots.py";
// The stem of the files the renderer writes in its scratch folder: plain letters, whatever the stem
// (any bytes a transcript's name has) the plots are written under afterwards.
constexpr const char* kScratchStem = "plot";
// Long enough for matplotlib's first run on a machine, which builds its font cache.
constexpr double kRendererLimitSeconds = 180.0;
// The renderer's own exit status for "matplotlib cannot be imported": try the next Python.
constexpr int kRendererNoMatplotlib = 3;
// Its exit status and message when a plot file cannot be written (and Python's own status for an
// uncaught exception, hence the message too).
constexpr int kRendererCannotWrite = 1;
constexpr const char* kRendererCannotWriteLine = "draw_plots: cannot write ";
// The shell's convention (and run_with_limit's) for a program that could not be executed.
constexpr int kCannotExecute = 126;
constexpr int kNotFound = 127;

void check_format(const std::string& format) {
  if (format != "svg" && format != "png") {
    throw std::invalid_argument("plot format '" + format + "' is not one of svg, png");
  }
}

void check_plot_id(const std::string& plot_id) {
  const bool valid = !plot_id.empty() &&
                     plot_id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  if (!valid) {
    throw std::invalid_argument("plot id '" + plot_id + "' must be lower-case letters, digits and '-'");
  }
}

Json number(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

Json numbers(const std::vector<double>& values) {
  Json list = Json::array();
  for (const double value : values) {
    list.push_back(number(value));
  }
  return list;
}

void check_panel(const PlotPanel& panel, const std::string& where) {
  if (panel.kind != "line" && panel.kind != "bar" && panel.kind != "matrix") {
    throw std::invalid_argument(where + ": panel kind '" + panel.kind + "' is not one of line, bar, matrix");
  }
  const bool matrix = panel.kind == "matrix";
  if (!matrix && panel.categories.size() != panel.bar_values.size()) {
    throw std::invalid_argument(where + ": " + std::to_string(panel.bar_values.size()) + " bar values for " +
                                std::to_string(panel.categories.size()) + " categories");
  }
  for (const auto* range : {&panel.bar_low, &panel.bar_high}) {
    if (!range->empty() && range->size() != panel.categories.size()) {
      throw std::invalid_argument(where + ": a bar range needs one value per category");
    }
  }
  if (panel.kind != "line" && !panel.vertical_lines.empty()) {
    throw std::invalid_argument(where + ": a " + panel.kind + " panel has no numeric x for vertical lines");
  }
  const std::size_t cells = matrix ? panel.categories.size() * panel.columns.size() : 0;
  if (panel.cells.size() != cells || (matrix && cells == 0)) {
    throw std::invalid_argument(where + ": " + std::to_string(panel.cells.size()) + " cells for " +
                                std::to_string(panel.categories.size()) + " rows and " +
                                std::to_string(panel.columns.size()) + " columns");
  }
  if (!panel.cell_labels.empty() && panel.cell_labels.size() != panel.cells.size()) {
    throw std::invalid_argument(where + ": cell labels need one per cell");
  }
  if (panel.value_decimals < 0 || panel.value_decimals > 6) {
    throw std::invalid_argument(where + ": value_decimals must be from 0 to 6");
  }
}

Json panel_to_json(const PlotPanel& panel, const std::string& where) {
  check_panel(panel, where);
  Json node;
  node["kind"] = panel.kind;
  node["x_label"] = panel.x_label;
  node["y_label"] = panel.y_label;
  node["x_log"] = panel.x_log;
  node["y_log"] = panel.y_log;
  node["value_decimals"] = panel.value_decimals;
  node["lines"] = Json::array();
  for (const LineSeries& series : panel.lines) {
    if (series.x.size() != series.y.size()) {
      throw std::invalid_argument(where + ": series '" + series.label + "' has " +
                                  std::to_string(series.x.size()) + " x and " +
                                  std::to_string(series.y.size()) + " y values");
    }
    if (series.style != "line" && series.style != "points" && series.style != "plain" &&
        series.style != "dashed") {
      throw std::invalid_argument(where + ": series '" + series.label + "' has the style '" + series.style +
                                  "', not one of line, points, plain, dashed");
    }
    if (!series.point_labels.empty() && series.point_labels.size() != series.x.size()) {
      throw std::invalid_argument(where + ": series '" + series.label + "' labels " +
                                  std::to_string(series.point_labels.size()) + " of its " +
                                  std::to_string(series.x.size()) + " points");
    }
    node["lines"].push_back(Json{{"label", series.label},
                                 {"x", numbers(series.x)},
                                 {"y", numbers(series.y)},
                                 {"style", series.style},
                                 {"point_labels", series.point_labels}});
  }
  node["categories"] = panel.categories;
  node["bar_values"] = numbers(panel.bar_values);
  node["bar_low"] = numbers(panel.bar_low);
  node["bar_high"] = numbers(panel.bar_high);
  node["columns"] = panel.columns;
  node["cells"] = numbers(panel.cells);
  node["cell_labels"] = panel.cell_labels;
  node["reference_lines"] = Json::array();
  for (const ReferenceLine& line : panel.reference_lines) {
    node["reference_lines"].push_back(Json{{"label", line.label}, {"y", number(line.y)}});
  }
  node["vertical_lines"] = Json::array();
  for (const VerticalLine& line : panel.vertical_lines) {
    node["vertical_lines"].push_back(Json{{"label", line.label}, {"x", number(line.x)}});
  }
  return node;
}

// A private folder under the system's temporary directory, removed with everything in it, on a
// catchable signal too (base/temporary_files.hpp).
class ScratchDirectory {
 public:
  ScratchDirectory() {
    // Registered before it exists: no signal can leave it behind (base/temporary_files.hpp).
    const std::string stem = (fs::temp_directory_path() / "labrun-plots-").string();
    try {
      CreatedTemporary created = create_registered_folder(stem);
      path_ = created.path;
      registered_ = std::move(created.registered);
    } catch (const std::system_error& error) {
      throw WriteError("cannot create a temporary folder for the plot specs from " + stem +
                       "XXXXXX: " + error.code().message());
    }
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  RegisteredTemporary registered_{fs::path()};
};

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

// The Pythons to try, in order (see draw_plots in the header).
std::vector<fs::path> python_candidates() {
  const std::string chosen = environment_value("LABRUN_PYTHON");
  if (!chosen.empty()) {
    return {fs::path(chosen)};
  }
  std::vector<fs::path> candidates;
  const fs::path on_path = find_on_path("python3");
  if (!on_path.empty()) {
    candidates.push_back(on_path);
  }
  const fs::path system_python = "/usr/bin/python3";
  std::error_code error;
  if (fs::exists(system_python, error) &&
      (on_path.empty() || !fs::equivalent(on_path, system_python, error))) {
    candidates.push_back(system_python);
  }
  return candidates;
}

// LABRUN_SCRIPTS_DIR when set, else labrun's data folder (core/install_layout.hpp); empty with the
// reason when neither has the script.
fs::path renderer_script(std::string& not_found) {
  const std::string chosen = environment_value("LABRUN_SCRIPTS_DIR");
  if (!chosen.empty()) {
    return fs::path(chosen) / kRendererScript;
  }
  try {
    return find_data_file(fs::path("scripts") / kRendererScript);
  } catch (const DataFileNotFound& error) {
    not_found = error.what();
    return {};
  }
}

std::string first_line(const std::string& text) {
  const std::size_t end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

std::string without_trailing_space(const std::string& text) {
  const std::size_t last = text.find_last_not_of(" \n\r\t");
  return last == std::string::npos ? std::string() : text.substr(0, last + 1);
}

bool url_safe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/';
}

std::string percent_encoded(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (const char c : text) {
    if (url_safe(c)) {
      encoded += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      encoded += '%';
      encoded += kHex[byte >> 4U];
      encoded += kHex[byte & 0x0FU];
    }
  }
  return encoded;
}

std::string escaped_alt_text(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '[' || c == ']' || c == '\\') {
      escaped += '\\';
    }
    escaped += c == '\n' ? ' ' : c;
  }
  return escaped;
}

}  // namespace

fs::path plot_file_path(const fs::path& dir, const std::string& stem, const std::string& plot_id,
                        const std::string& format) {
  check_format(format);
  check_plot_id(plot_id);
  return dir / (stem + "." + plot_id + "." + format);
}

std::string plot_specs_to_json(const std::vector<PlotSpec>& specs, const fs::path& dir,
                               const std::string& stem, const std::string& format) {
  check_format(format);
  Json document;
  document["format"] = format;
  document["plots"] = Json::array();
  std::set<std::string> ids;
  for (const PlotSpec& spec : specs) {
    if (!ids.insert(spec.id).second) {
      throw std::invalid_argument("plot id '" + spec.id + "' appears twice");
    }
    Json plot;
    plot["id"] = spec.id;
    plot["title"] = spec.title;
    // Names are data: a folder or stem that is not UTF-8 is escaped (base/format.hpp), not refused by
    // the JSON writer. render_plots names the renderer's files itself, in plain letters.
    plot["file"] =
        name_text(fs::absolute(plot_file_path(dir, stem, spec.id, format)).lexically_normal().string());
    plot["panels"] = Json::array();
    for (std::size_t i = 0; i < spec.panels.size(); ++i) {
      plot["panels"].push_back(
          panel_to_json(spec.panels[i], "plot '" + spec.id + "' panel " + std::to_string(i)));
    }
    document["plots"].push_back(plot);
  }
  return document.dump(2) + "\n";
}

RenderedPlots render_plots(const std::vector<PlotSpec>& specs, const std::string& stem,
                           const std::string& format) {
  static_cast<void>(plot_specs_to_json(specs, ".", kScratchStem, format));  // validates everything first
  RenderedPlots rendered;
  if (specs.empty()) {
    return rendered;
  }
  // The names the plots will be written under, refused before anything is drawn when one is longer
  // than a file name may be.
  for (const fs::path& file : plot_files(specs, ".", stem, format)) {
    if (const std::optional<std::string> too_long = file_name_too_long(file)) {
      throw WriteError(*too_long);
    }
  }
  std::string not_found;
  const fs::path script = renderer_script(not_found);
  if (!fs::is_regular_file(script)) {
    rendered.skipped_reason =
        (script.empty() ? not_found : "the plot renderer " + script.string() + " was not found") +
        " (set LABRUN_SCRIPTS_DIR to the folder holding " + kRendererScript + ")";
    return rendered;
  }
  const std::vector<fs::path> pythons = python_candidates();
  if (pythons.empty()) {
    rendered.skipped_reason =
        "no python3 found on PATH or at /usr/bin/python3 (install python3-matplotlib, e.g. with "
        "scripts/install-deps.sh, or set LABRUN_PYTHON)";
    return rendered;
  }
  // The renderer draws into a private scratch folder, removed however labrun ends (but SIGKILL);
  // the plots are read back, and the caller puts them in place with the rest of its files.
  const ScratchDirectory scratch;
  const fs::path input_file = scratch.path() / "plots.json";
  write_file_atomically(input_file, plot_specs_to_json(specs, scratch.path(), kScratchStem, format), false);

  std::string tried;
  for (const fs::path& python : pythons) {
    const ProcessResult run =
        run_with_limit({python.string(), script.string(), input_file.string()}, kRendererLimitSeconds);
    if (run.succeeded()) {
      for (const PlotSpec& spec : specs) {
        const fs::path drawn = plot_file_path(scratch.path(), kScratchStem, spec.id, format);
        if (!fs::is_regular_file(drawn)) {
          throw std::runtime_error(script.string() + " reported success but did not write " + drawn.string() +
                                   " (to be " +
                                   plot_file_path(".", stem, spec.id, format).filename().string() + ")");
        }
        rendered.plots.push_back({spec.id, spec.title, read_file(drawn)});
      }
      return rendered;
    }
    const std::string last_line = last_output_line(run.output);
    if (run.started && !run.timed_out && run.signal == 0 && run.exit_code == kRendererCannotWrite &&
        last_line.rfind(kRendererCannotWriteLine, 0) == 0) {
      // Its scratch folder could not be written (a full or limited temporary folder): a write
      // error, as labrun's own would be.
      throw WriteError("drawing plots in " + scratch.path().string() + ": " + last_line);
    }
    const bool try_next = run.started && !run.timed_out && run.signal == 0 &&
                          (run.exit_code == kRendererNoMatplotlib || run.exit_code == kCannotExecute ||
                           run.exit_code == kNotFound);
    if (!try_next) {
      // One line: the renderer's own message is its last line (a traceback ends with the error).
      throw std::runtime_error("drawing plots with " + python.string() + " " + script.string() + " failed (" +
                               run.describe() + "): " + last_line);
    }
    tried +=
        (tried.empty() ? "" : "; ") + python.string() + ": " + first_line(without_trailing_space(run.output));
  }
  rendered.skipped_reason = "no Python that can import matplotlib (" + tried +
                            "); install python3-matplotlib (scripts/install-deps.sh) or set LABRUN_PYTHON";
  return rendered;
}

std::vector<DrawnPlot> add_plots(FileSet& files, const RenderedPlots& rendered, const fs::path& dir,
                                 const std::string& stem, const std::string& format) {
  std::vector<DrawnPlot> placed;
  placed.reserve(rendered.plots.size());
  for (const RenderedPlot& plot : rendered.plots) {
    const fs::path file = plot_file_path(dir, stem, plot.id, format);
    files.add(file, plot.content);
    placed.push_back({plot.id, plot.title, file});
  }
  return placed;
}

std::vector<fs::path> plot_files(const std::vector<PlotSpec>& specs, const fs::path& dir,
                                 const std::string& stem, const std::string& format) {
  std::vector<fs::path> files;
  files.reserve(specs.size());
  for (const PlotSpec& spec : specs) {
    files.push_back(plot_file_path(dir, stem, spec.id, format));
  }
  return files;
}

PlotOutcome draw_plots(const std::vector<PlotSpec>& specs, const fs::path& dir, const std::string& stem,
                       const std::string& format, bool overwrite) {
  static_cast<void>(plot_specs_to_json(specs, dir, kScratchStem, format));  // validates everything first
  PlotOutcome outcome;
  if (specs.empty()) {
    return outcome;
  }
  if (!overwrite) {
    if (const std::optional<fs::path> existing = first_existing(plot_files(specs, dir, stem, format))) {
      throw FileExistsError("plot file " + existing->string() + " exists; pass --force to overwrite it");
    }
  }
  const RenderedPlots rendered = render_plots(specs, stem, format);
  outcome.skipped_reason = rendered.skipped_reason;
  if (rendered.plots.empty()) {
    return outcome;
  }
  fs::create_directories(dir);
  // Put in place as one set, through FileSet (temporary files, fsynced, then linked or renamed,
  // and the folder fsynced): without `overwrite` the link refuses a file that appeared meanwhile,
  // so of two runs at once the second refuses (FileExistsError) instead of replacing the first's.
  FileSet files;
  outcome.drawn = add_plots(files, rendered, dir, stem, format);
  files.commit(overwrite);
  return outcome;
}

std::vector<DrawnPlot> existing_plots(const std::vector<PlotSpec>& specs, const fs::path& dir,
                                      const std::string& stem, const std::string& format) {
  std::vector<DrawnPlot> found;
  for (const PlotSpec& spec : specs) {
    const fs::path file = plot_file_path(dir, stem, spec.id, format);
    std::error_code error;  // a name too long to exist (ENAMETOOLONG) is a plot not drawn
    if (fs::is_regular_file(file, error)) {
      found.push_back({spec.id, spec.title, file});
    }
  }
  return found;
}

std::string plot_links_markdown(const std::vector<DrawnPlot>& plots, const fs::path& markdown_dir) {
  if (plots.empty()) {
    return "";
  }
  const fs::path base = fs::absolute(markdown_dir).lexically_normal();
  std::string text = "\n## Plots\n";  // a section of its own, like every other
  for (const DrawnPlot& plot : plots) {
    const fs::path file = fs::absolute(plot.file).lexically_normal();
    fs::path relative = file.lexically_relative(base);
    if (relative.empty()) {
      relative = file;
    }
    text += "\n![" + escaped_alt_text(plot.title) + "](" + percent_encoded(relative.generic_string()) + ")\n";
  }
  return text;
}

}  // namespace labrun
