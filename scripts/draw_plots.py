#!/usr/bin/env python3
"""Draws labrun's plots with matplotlib (Agg): a generic renderer that knows no lab.

    scripts/draw_plots.py SPEC.json

SPEC.json is written by labrun (src/plots/draw_plots.cpp, plot_specs_to_json), fields as in
src/plots/plot_spec.hpp:

    {"format": "svg" | "png",
     "plots": [{"id", "title", "file",
                "panels": [{"kind": "line" | "bar" | "matrix", "x_label", "y_label", "x_log", "y_log",
                            "value_decimals",
                            "lines": [{"label", "x": [..], "y": [..], "style", "point_labels": [..]}],
                            "categories": [..], "bar_values": [..], "bar_low": [..], "bar_high": [..],
                            "columns": [..], "cells": [..], "cell_labels": [..],
                            "reference_lines": [{"label", "y"}],
                            "vertical_lines": [{"label", "x"}]}]}]}

Each figure stacks its panels vertically and is written to its "file" (through a temporary file in
the same folder, then a rename). Line panels: x base-2 log when x_log, y base-10 log when y_log;
a series' style is "line" (a line through markers), "points" (markers alone), "plain" (a line
alone) or "dashed" (a dashed line alone), and point_labels (empty, or one per point) are small texts
beside its points.
Bar panels are drawn horizontally, one bar per category, first category on top: the bars' values
are the panel's y quantity, so y_label names the value axis (drawn across), x_label the categories,
y_log makes the value axis base-10 log, and a reference line marks its value across the bars.
Bar values are printed with value_decimals decimals; bar_low and bar_high (empty, or one per
category) draw each bar's range as an error bar. Matrix panels draw one row per category and one
column per entry of columns; cells holds rows x columns values in 0..1, row by row, coloured from
red (0) to green (1), a null cell grey, each labelled with its cell_labels text; x_label names the
columns, y_label the rows. Reference lines are dashed, vertical lines dotted, each labelled in the
legend. A null number is a value that is not known, drawn as a gap. The output is byte-for-byte reproducible for the same
input and matplotlib version: fixed size, DPI, SVG hash salt, and no date or software metadata.

Every plot that can be drawn is drawn. With more than one plot and more than one CPU to use, they are
drawn side by side, each in a forked worker (at most MAX_WORKERS), matplotlib being imported once
before the fork; the files are the same bytes as when drawn one after another.

Exit status: 0 drawn; 1 a file could not be written; 2 bad input (one line on stderr);
3 matplotlib cannot be imported (one line on stderr); 4 matplotlib could not draw a plot (one line
on stderr, naming the plot and matplotlib's error). When several plots fail, the status and the line
are those of the first in the spec's order.
"""

import json
import math
import os
import sys

EXIT_CANNOT_WRITE = 1
EXIT_BAD_INPUT = 2
EXIT_NO_MATPLOTLIB = 3
EXIT_CANNOT_DRAW = 4

FIGURE_WIDTH_IN = 8.0
LINE_PANEL_HEIGHT_IN = 3.6
BAR_HEIGHT_IN = 0.38  # per category of a bar panel
BAR_PANEL_MIN_HEIGHT_IN = 2.4
MATRIX_ROW_HEIGHT_IN = 0.34  # per category (row) of a matrix panel
MATRIX_LABEL_HEIGHT_IN = 1.6  # room for the column labels, drawn slanted
TITLE_HEIGHT_IN = 0.5
DPI = {"svg": 100, "png": 150}
SVG_HASH_SALT = "labrun-plots"
MAX_WORKERS = 8  # plots drawn at once, at most (one forked worker each)


class BadInput(Exception):
    """The spec is not what this renderer draws; the message names where."""


def fail(status, message):
    print("draw_plots: " + message, file=sys.stderr)
    return status


# ---- reading the spec --------------------------------------------------------------------------

def field(node, key, kind, where):
    if not isinstance(node, dict) or key not in node:
        raise BadInput("%s.%s: missing" % (where, key))
    value = node[key]
    if kind is float:
        if value is None:
            return math.nan
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadInput("%s.%s: expected a number or null" % (where, key))
        return float(value)
    if not isinstance(value, kind):
        raise BadInput("%s.%s: expected %s" % (where, key, kind.__name__))
    return value


def number_list(node, key, where):
    values = field(node, key, list, where)
    return [field({"v": v}, "v", float, "%s.%s[%d]" % (where, key, i)) for i, v in enumerate(values)]


def text_list(node, key, where):
    values = field(node, key, list, where)
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise BadInput("%s.%s[%d]: expected str" % (where, key, i))
    return values


def read_panel(node, where):
    kind = field(node, "kind", str, where)
    if kind not in ("line", "bar", "matrix"):
        raise BadInput("%s.kind: '%s' is not one of line, bar, matrix" % (where, kind))
    panel = {
        "kind": kind,
        "x_label": field(node, "x_label", str, where),
        "y_label": field(node, "y_label", str, where),
        "x_log": field(node, "x_log", bool, where),
        "y_log": field(node, "y_log", bool, where),
        "lines": [],
        "value_decimals": field(node, "value_decimals", int, where),
        "categories": text_list(node, "categories", where),
        "bar_values": number_list(node, "bar_values", where),
        "bar_low": number_list(node, "bar_low", where),
        "bar_high": number_list(node, "bar_high", where),
        "columns": text_list(node, "columns", where),
        "cells": number_list(node, "cells", where),
        "cell_labels": text_list(node, "cell_labels", where),
        "reference_lines": [],
        "vertical_lines": [],
    }
    if not 0 <= panel["value_decimals"] <= 6:
        raise BadInput("%s.value_decimals: %d is not in 0..6" % (where, panel["value_decimals"]))
    for i, series in enumerate(field(node, "lines", list, where)):
        at = "%s.lines[%d]" % (where, i)
        x, y = number_list(series, "x", at), number_list(series, "y", at)
        if len(x) != len(y):
            raise BadInput("%s: %d x and %d y values" % (at, len(x), len(y)))
        style = field(series, "style", str, at) if "style" in series else "line"
        if style not in ("line", "points", "plain", "dashed"):
            raise BadInput("%s.style: '%s' is not one of line, points, plain, dashed" % (at, style))
        labels = text_list(series, "point_labels", at) if "point_labels" in series else []
        if labels and len(labels) != len(x):
            raise BadInput("%s.point_labels: %d labels for %d points" % (at, len(labels), len(x)))
        panel["lines"].append({"label": field(series, "label", str, at), "x": x, "y": y, "style": style,
                               "point_labels": labels})
    if kind != "matrix" and len(panel["categories"]) != len(panel["bar_values"]):
        raise BadInput("%s: %d bar values for %d categories"
                       % (where, len(panel["bar_values"]), len(panel["categories"])))
    for i, line in enumerate(field(node, "reference_lines", list, where)):
        at = "%s.reference_lines[%d]" % (where, i)
        panel["reference_lines"].append({"label": field(line, "label", str, at),
                                         "y": field(line, "y", float, at)})
    for i, line in enumerate(field(node, "vertical_lines", list, where)):
        at = "%s.vertical_lines[%d]" % (where, i)
        panel["vertical_lines"].append({"label": field(line, "label", str, at),
                                        "x": field(line, "x", float, at)})
    if kind != "line" and panel["vertical_lines"]:
        raise BadInput("%s.vertical_lines: a %s panel has no numeric x" % (where, kind))
    for key in ("bar_low", "bar_high"):
        if panel[key] and len(panel[key]) != len(panel["categories"]):
            raise BadInput("%s.%s: %d values for %d categories"
                           % (where, key, len(panel[key]), len(panel["categories"])))
    cells = len(panel["categories"]) * len(panel["columns"])
    if len(panel["cells"]) != (cells if kind == "matrix" else 0):
        raise BadInput("%s.cells: %d values for %d rows x %d columns"
                       % (where, len(panel["cells"]), len(panel["categories"]), len(panel["columns"])))
    if panel["cell_labels"] and len(panel["cell_labels"]) != len(panel["cells"]):
        raise BadInput("%s.cell_labels: %d labels for %d cells"
                       % (where, len(panel["cell_labels"]), len(panel["cells"])))
    if kind == "matrix" and not cells:
        raise BadInput("%s: a matrix panel needs rows and columns" % where)
    return panel


def read_spec(path):
    try:
        with open(path, encoding="utf-8") as source:
            document = json.load(source)
    except OSError as error:
        raise BadInput("cannot read %s: %s" % (path, error.strerror or error))
    except ValueError as error:
        raise BadInput("%s is not JSON: %s" % (path, error))
    fmt = field(document, "format", str, "spec")
    if fmt not in DPI:
        raise BadInput("spec.format: '%s' is not one of svg, png" % fmt)
    plots = []
    for i, node in enumerate(field(document, "plots", list, "spec")):
        where = "spec.plots[%d]" % i
        plot = {key: field(node, key, str, where) for key in ("id", "title", "file")}
        if not plot["file"]:
            raise BadInput("%s.file: empty" % where)
        panels = field(node, "panels", list, where)
        if not panels:
            raise BadInput("%s.panels: a plot needs at least one panel" % where)
        plot["panels"] = [read_panel(p, "%s.panels[%d]" % (where, j)) for j, p in enumerate(panels)]
        plots.append(plot)
    return fmt, plots


# ---- drawing -----------------------------------------------------------------------------------

def panel_height(panel):
    if panel["kind"] == "bar":
        return max(BAR_PANEL_MIN_HEIGHT_IN, BAR_HEIGHT_IN * len(panel["categories"]) + 1.2)
    if panel["kind"] == "matrix":
        return MATRIX_ROW_HEIGHT_IN * len(panel["categories"]) + MATRIX_LABEL_HEIGHT_IN
    return LINE_PANEL_HEIGHT_IN


def draw_line_panel(axes, panel):
    color = 0
    for series in panel["lines"]:
        shape = {"line": {"marker": "o", "markersize": 4, "linewidth": 1.5},
                 "points": {"marker": "o", "markersize": 6, "linestyle": "none"},
                 "plain": {"linewidth": 2.0},
                 "dashed": {"linewidth": 1.2, "linestyle": "--"}}[series["style"]]
        axes.plot(series["x"], series["y"], color="C%d" % (color % 10), label=series["label"], **shape)
        for x, y, text in zip(series["x"], series["y"], series["point_labels"]):
            if math.isfinite(x) and math.isfinite(y):
                axes.annotate(text, (x, y), textcoords="offset points", xytext=(4, 3), fontsize="x-small")
        color += 1
    if panel["x_log"]:
        axes.set_xscale("log", base=2)
    if panel["y_log"]:
        axes.set_yscale("log", base=10)
    for line in panel["reference_lines"]:
        axes.axhline(line["y"], linestyle="--", linewidth=1.2, color="C%d" % (color % 10),
                     label=line["label"])
        color += 1
    for line in panel["vertical_lines"]:
        axes.axvline(line["x"], linestyle=":", linewidth=1.4, color="C%d" % (color % 10),
                     label=line["label"])
        color += 1
    axes.set_xlabel(panel["x_label"])
    axes.set_ylabel(panel["y_label"])


def draw_bar_panel(axes, panel):
    positions = list(range(len(panel["categories"])))
    error = None
    if panel["bar_low"]:
        # Each bar's range as an error bar; an unknown end draws none.
        error = [[max(0.0, v - low) if math.isfinite(v - low) else 0.0
                  for v, low in zip(panel["bar_values"], panel["bar_low"])],
                 [max(0.0, high - v) if math.isfinite(high - v) else 0.0
                  for v, high in zip(panel["bar_values"], panel["bar_high"])]]
    bars = axes.barh(positions, panel["bar_values"], color="C0", height=0.6, xerr=error,
                     error_kw={"ecolor": "0.25", "capsize": 3, "linewidth": 1})
    axes.bar_label(bars, fmt="%%.%df" % panel["value_decimals"], padding=3, fontsize="small")
    axes.set_yticks(positions)
    axes.set_yticklabels(panel["categories"])
    axes.invert_yaxis()  # first category on top, as in the tables
    if panel["y_log"]:
        axes.set_xscale("log", base=10)
    color = 1
    for line in panel["reference_lines"]:
        axes.axvline(line["y"], linestyle="--", linewidth=1.2, color="C%d" % (color % 10),
                     label=line["label"])
        color += 1
    axes.set_xlabel(panel["y_label"])
    axes.set_ylabel(panel["x_label"])
    # Room on the right for the value labels past the longest bar.
    finite = [v for v in panel["bar_values"] + panel["bar_high"] + [r["y"] for r in panel["reference_lines"]]
              if math.isfinite(v)]
    if finite and max(finite) > 0 and not panel["y_log"]:
        axes.set_xlim(0, max(finite) * 1.15)


def draw_matrix_panel(axes, panel):
    from matplotlib.colors import LinearSegmentedColormap
    rows, columns = len(panel["categories"]), len(panel["columns"])
    values = [[panel["cells"][r * columns + c] for c in range(columns)] for r in range(rows)]
    colours = LinearSegmentedColormap.from_list("failed-held", ["#d73027", "#fee08b", "#1a9850"])
    colours.set_bad("#d9d9d9")
    import numpy
    masked = numpy.ma.masked_invalid(numpy.array(values, dtype=float))
    axes.imshow(masked, cmap=colours, vmin=0.0, vmax=1.0, aspect="auto", interpolation="nearest")
    for r in range(rows):
        for c in range(columns):
            index = r * columns + c
            if panel["cell_labels"]:
                text = panel["cell_labels"][index]
            elif math.isfinite(panel["cells"][index]):
                text = "%%.%df" % panel["value_decimals"] % panel["cells"][index]
            else:
                text = ""
            axes.text(c, r, text, ha="center", va="center", fontsize="x-small")
    axes.set_xticks(range(columns))
    axes.set_xticklabels(panel["columns"], rotation=20, ha="right", fontsize="small")
    axes.set_yticks(range(rows))
    axes.set_yticklabels(panel["categories"], fontsize="small")
    axes.set_xlabel(panel["x_label"])
    axes.set_ylabel(panel["y_label"])


def draw_figure(pyplot, plot, fmt):
    heights = [panel_height(p) for p in plot["panels"]]
    figure = pyplot.figure(figsize=(FIGURE_WIDTH_IN, sum(heights) + TITLE_HEIGHT_IN), dpi=DPI[fmt],
                           layout="constrained")
    grid = figure.add_gridspec(len(heights), 1, height_ratios=heights)
    for row, panel in enumerate(plot["panels"]):
        axes = figure.add_subplot(grid[row, 0])
        if panel["kind"] == "bar":
            draw_bar_panel(axes, panel)
            axes.grid(True, axis="x", alpha=0.35)
        elif panel["kind"] == "matrix":
            draw_matrix_panel(axes, panel)
        else:
            draw_line_panel(axes, panel)
            axes.grid(True, which="major", alpha=0.35)
        if axes.get_legend_handles_labels()[0]:
            if panel["kind"] == "bar":
                # Below the bars, in one row: inside, a long reference label would cover the bars'
                # values; below the value axis's label too, which it would cover otherwise.
                below = 0.12 + (0.5 / panel_height(panel) if panel["y_label"] else 0.0)
                axes.legend(loc="upper center", bbox_to_anchor=(0.5, -below), fontsize="small",
                            framealpha=0.85, ncol=len(axes.get_legend_handles_labels()[0]))
            else:
                axes.legend(loc="best", fontsize="small", framealpha=0.85)
    figure.suptitle(plot["title"])
    return figure


def save(figure, path, fmt):
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    temporary = "%s.tmp-%d" % (path, os.getpid())
    try:
        figure.savefig(temporary, format=fmt, metadata=metadata)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def draw_one(pyplot, plot, fmt):
    """Draws and writes one plot; None, or (exit status, one line) when it could not."""
    try:
        figure = draw_figure(pyplot, plot, fmt)
    except Exception as error:  # matplotlib's own refusal (values it cannot lay out): one line
        return EXIT_CANNOT_DRAW, "cannot draw plot %s: %s: %s" % (plot["id"], type(error).__name__, error)
    try:
        save(figure, plot["file"], fmt)
    except OSError as error:
        return EXIT_CANNOT_WRITE, "cannot write %s: %s" % (plot["file"], error.strerror or error)
    finally:
        pyplot.close(figure)
    return None


def draw_these(pyplot, plots, fmt, indices):
    """Draws plots[i] for each i of `indices`; (i, exit status, one line) of each that could not be."""
    return [(i,) + failure for i in indices for failure in [draw_one(pyplot, plots[i], fmt)] if failure]


def usable_cpus():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def draw_in_workers(pyplot, plots, fmt, workers):
    """Draws plots[k::workers] in worker k, each a fork of this process (matplotlib imported once,
    here). Returns (index, status, line) of every plot that could not be drawn, in plot order."""
    read_end, write_end = os.pipe()
    children = []
    drawn_here = []  # the workers that could not be forked (a process limit): this process draws theirs
    for k in range(workers):
        try:
            pid = os.fork()
        except OSError:
            drawn_here.append(k)
            continue
        if pid == 0:  # a worker: reports "index<TAB>status<TAB>line" per failure, never returns
            os.close(read_end)
            status = 0
            try:
                with os.fdopen(write_end, "w", encoding="utf-8") as report:
                    for index, failed, line in draw_these(pyplot, plots, fmt, range(k, len(plots), workers)):
                        report.write("%d\t%d\t%s\n" % (index, failed, " ".join(line.split())))
            except BaseException:  # noqa: B902 - whatever it was, the parent must hear of it
                status = EXIT_CANNOT_DRAW
            os._exit(status)
        children.append(pid)
    os.close(write_end)
    failures = []
    for k in drawn_here:
        failures += draw_these(pyplot, plots, fmt, range(k, len(plots), workers))
    with os.fdopen(read_end, encoding="utf-8") as reports:
        lines = reports.read().splitlines()
    for pid in children:
        _, wait_status = os.waitpid(pid, 0)
        if not os.WIFEXITED(wait_status) or os.WEXITSTATUS(wait_status) != 0:
            failures.append((len(plots), EXIT_CANNOT_DRAW, "a drawing worker ended without reporting "
                             "(wait status %d)" % wait_status))
    for text in lines:
        index, status, line = text.split("\t", 2)
        failures.append((int(index), int(status), line))
    return sorted(failures)


def main(argv):
    if len(argv) != 2:
        return fail(EXIT_BAD_INPUT, "usage: draw_plots.py SPEC.json")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError as error:
        return fail(EXIT_NO_MATPLOTLIB, "cannot import matplotlib with %s (%s)" % (sys.executable, error))
    matplotlib.rcParams["svg.hashsalt"] = SVG_HASH_SALT
    matplotlib.rcParams["svg.fonttype"] = "path"  # text as paths: looks the same without the fonts
    try:
        fmt, plots = read_spec(argv[1])
    except BadInput as error:
        return fail(EXIT_BAD_INPUT, "bad input: %s" % error)
    # Most of the time is matplotlib laying out and writing each figure, one CPU each; the figures
    # are independent, so with more than one plot and CPU they are drawn side by side in forked
    # workers. The files are the same bytes either way.
    workers = min(len(plots), usable_cpus(), MAX_WORKERS) if hasattr(os, "fork") else 1
    if workers < 2:
        failures = draw_these(pyplot, plots, fmt, range(len(plots)))
    else:
        sys.stdout.flush()
        sys.stderr.flush()
        failures = draw_in_workers(pyplot, plots, fmt, workers)
    if failures:
        return fail(failures[0][1], failures[0][2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
