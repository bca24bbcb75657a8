#pragma once
// A plot as plain data: what to draw, computed by a lab from a transcript alone. The drawing
// itself (src/plots/draw_plots, scripts/draw_plots.py with matplotlib) knows nothing of labs.

#include <string>
#include <vector>

namespace labrun {

//! A line (or point) series on a numeric x axis.
struct LineSeries {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;  //!< same length as x
  //! "line": a line through markers; "points": markers alone (a scatter); "plain": a line alone (a
  //! ceiling); "dashed": a dashed line alone (a theoretical one).
  std::string style = "line";
  //! Empty, or one per point: a short text drawn beside each point (a roofline's case names).
  std::vector<std::string> point_labels = {};
};

//! A horizontal reference line across a panel ("measured ceiling", "byte ratio 3.00").
struct ReferenceLine {
  std::string label;
  double y = 0.0;
};

//! A vertical reference line ("L2 = 62,914,560 B").
struct VerticalLine {
  std::string label;
  double x = 0.0;
};

//! One set of axes. kind "line": `lines` on numeric x. kind "bar": one bar per category with
//! `bar_values` (same length as `categories`), drawn horizontally so long case names stay readable,
//! each bar's range from `bar_low` to `bar_high` when given. kind "matrix": one row per category,
//! one column per entry of `columns`, `cells` (rows x columns, row by row) in 0..1 coloured from
//! red (0) to green (1), NaN grey, each cell labelled with `cell_labels` when given.
struct PlotPanel {
  std::string kind = "line";  //!< "line", "bar" or "matrix"
  std::string x_label;        //!< for a matrix, what the columns are
  std::string y_label;        //!< for a matrix, what the rows are
  bool x_log = false;         //!< base-2 log scale on x
  bool y_log = false;         //!< base-10 log scale on y
  int value_decimals = 1;     //!< decimals of the values printed on bars (and unlabelled cells)
  std::vector<LineSeries> lines;
  std::vector<std::string> categories;
  std::vector<double> bar_values;
  std::vector<double> bar_low;   //!< empty, or one per category
  std::vector<double> bar_high;  //!< empty, or one per category
  std::vector<std::string> columns;
  std::vector<double> cells;
  std::vector<std::string> cell_labels;  //!< empty, or one per cell
  std::vector<ReferenceLine> reference_lines;
  std::vector<VerticalLine> vertical_lines;
};

//! A figure of one or more panels stacked vertically.
struct PlotSpec {
  std::string id;  //!< file-name part: lower-case words joined by '-', unique within a lab
  std::string title;
  std::vector<PlotPanel> panels;
};

//! Text from a transcript (a lab name, a size label) as part of a plot id: lower-case letters and
//! digits, every other run of characters one '-' ("Big Size" -> "big-size"); "x" when none is left.
[[nodiscard]] inline std::string plot_id_part(const std::string& text) {
  std::string id;
  for (const char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      id += c;
    } else if (c >= 'A' && c <= 'Z') {
      id += static_cast<char>(c - 'A' + 'a');
    } else if (!id.empty() && id.back() != '-') {
      id += '-';
    }
  }
  while (!id.empty() && id.back() == '-') {
    id.pop_back();
  }
  return id.empty() ? "x" : id;
}

}  // namespace labrun
