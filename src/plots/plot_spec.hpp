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
//! `bar_values` (same length as `categories`), drawn horizontally so long case names stay readable.
struct PlotPanel {
  std::string kind = "line";  //!< "line" or "bar"
  std::string x_label;
  std::string y_label;
  bool x_log = false;  //!< base-2 log scale on x
  bool y_log = false;  //!< base-10 log scale on y
  std::vector<LineSeries> lines;
  std::vector<std::string> categories;
  std::vector<double> bar_values;
  std::vector<ReferenceLine> reference_lines;
  std::vector<VerticalLine> vertical_lines;
};

//! A figure of one or more panels stacked vertically.
struct PlotSpec {
  std::string id;  //!< file-name part: lower-case words joined by '-', unique within a lab
  std::string title;
  std::vector<PlotPanel> panels;
};

}  // namespace labrun
