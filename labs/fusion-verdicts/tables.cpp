// The lab's tables, rendered from a transcript alone (medians, byte models, attributes, facts and
// recorded claims), so that `labrun report` reproduces a run's Markdown exactly.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "base/format.hpp"
#include "case_names.hpp"
#include "constants.hpp"
#include "lab.hpp"

namespace verdicts {
namespace {

using labrun::CaseResult;
using labrun::fixed;
using labrun::Table;
using labrun::Transcript;

// A speedup within this fraction of 1 is reported as "no difference" in the verdict table.
constexpr double kNoDifference = 0.05;
// The crossover table marks the sizes whose speedup is within this fraction of the byte ratio
// (the crossover claim's own tolerance).
constexpr double kSettledTolerance = 0.10;

std::string ms_text(double ms) {
  return ms > 0.0 ? fixed(ms, 4) : "-";
}

std::string optional_text(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : "-";
}

std::string speedup_text(double speedup) {
  std::string text = "x";  // appended: GCC 12 reports a false -Wrestrict for "x" + std::string&&
  text += fixed(speedup, 2);
  return text;
}

// The measured verdict from a speedup: "fusing pays", "no difference", "fusing costs".
std::string measured_verdict(double speedup) {
  if (speedup >= 1.0 + kNoDifference) {
    return "fusing pays (" + speedup_text(speedup) + ")";
  }
  if (speedup <= 1.0 - kNoDifference) {
    return "fusing costs (" + speedup_text(speedup) + ")";
  }
  return "no difference (" + speedup_text(speedup) + ")";
}

std::string claim_verdict(const Transcript& t, const std::string& id) {
  for (const labrun::ClaimResult& c : t.claims) {
    if (c.id == id) {
      return labrun::verdict_name(c.verdict);
    }
  }
  return "-";
}

std::string attribute_text(const CaseResult* c, const char* key, int decimals) {
  if (c == nullptr) {
    return "?";
  }
  const auto found = c->attributes.find(key);
  return found != c->attributes.end() ? fixed(found->second, decimals) : "?";
}

std::string attribute_percent(const CaseResult* c, const char* key) {
  if (c == nullptr) {
    return "?";
  }
  const auto found = c->attributes.find(key);
  return found != c->attributes.end() ? labrun::percent(found->second) : "?";
}

// ---- the chapter's verdict table, measured ---------------------------------------------------

struct VerdictRow {
  const char* structure;
  const char* chapter;  // the chapter's verdict, as its table gives it
  std::string unfused;  // empty: not a measured pair
  std::string fused;
  const char* claim_id;
};

std::vector<VerdictRow> verdict_rows() {
  return {
      {"Elementwise then elementwise", "Fuse", cases::kPairTwoPasses, cases::kPairFused, kPairClaim},
      {"Elementwise then reduction", "Fuse with care", cases::kSumTwoKernels, cases::kSumFolded, kSumClaim},
      {"Reduction then elementwise", "Do not fuse", cases::kNormaliseTwoKernels, cases::kNormaliseCooperative,
       kNormaliseClaim},
      {"Stencil then stencil", "Fuse", cases::stencil(1, false), cases::stencil(1, true), kStencilClaim},
      {"Sort then gather", "Do not fuse", "", "", ""},
      {"Two stages with different block sizes", "Case by case", "", "", kExpensiveReuseClaim},
  };
}

Table verdict_table(const Transcript& t, const std::string& size_label) {
  const bool with_claims = size_label == kClaimSize;
  Table table;
  table.title = "The chapter's verdict table, measured: " + labrun::size_title(t, kPairPart, size_label);
  table.notes = {
      "Chapter is the verdict the chapter's table gives. Speedup is the unfused median over the fused; the "
      "byte "
      "ratio is that of their models. Eliminated GB/s is (unfused - fused model bytes) / (unfused - fused "
      "median), the bandwidth at which the removed traffic cost time; x copy is that over the copy floor's "
      "GB/s.",
      "Sort then gather is a documented non-case (the lab's README says why it cannot fuse). Different block "
      "sizes is measured as recompute or materialise (a value per R outputs: one grid, or each stage its "
      "own), "
      "at the lesson size; see its table."};
  if (with_claims) {
    table.notes.push_back("Claim is the verdict of the row's claim, judged at the " +
                          std::string(kClaimSize) + " size (the recompute sweep's at the lesson size).");
  }
  table.headers = {"structure",  "chapter",    "unfused (ms)", "fused (ms)",  "speedup",
                   "byte ratio", "elim. GB/s", "x copy",       "on this card"};
  table.right_aligned = {false, false, true, true, true, true, true, true, false};
  if (with_claims) {
    table.headers.emplace_back("claim");
    table.right_aligned.push_back(false);
  }
  const std::optional<double> copy = case_gb_per_s(t, cases::kCopy, size_label);
  for (const VerdictRow& row : verdict_rows()) {
    std::vector<std::string> cells{row.structure, row.chapter};
    if (!row.unfused.empty()) {
      const std::optional<PairPoint> p = pair_at(t, row.unfused, row.fused, size_label);
      if (p) {
        std::string multiple = "-";
        if (p->eliminated_gb_per_s && copy) {
          multiple = fixed(*p->eliminated_gb_per_s / *copy, 2);
        }
        cells.insert(cells.end(), {ms_text(p->unfused_ms), ms_text(p->fused_ms), fixed(p->speedup, 2),
                                   fixed(p->byte_ratio, 2), optional_text(p->eliminated_gb_per_s, 1),
                                   multiple, measured_verdict(p->speedup)});
      } else {
        cells.insert(cells.end(), {"-", "-", "-", "-", "-", "-", "not timed at this size"});
      }
    } else if (std::string(row.chapter) == "Case by case") {
      cells.insert(cells.end(), {"-", "-", "-", "-", "-", "-",
                                 "cheap: " + reuse_summary(reuse_sweep(t, false)) +
                                     "; expensive: " + reuse_summary(reuse_sweep(t, true))});
    } else {
      cells.insert(cells.end(), {"-", "-", "-", "-", "-", "-", "not measured: a documented non-case"});
    }
    if (with_claims) {
      cells.push_back(std::string(row.claim_id).empty() ? "-" : claim_verdict(t, row.claim_id));
    }
    table.rows.push_back(cells);
  }
  return table;
}

// ---- the L2 crossover ------------------------------------------------------------------------

Table crossover_table(const Transcript& t) {
  const std::vector<PairPoint> points = pair_sweep(t, cases::kPairTwoPasses, cases::kPairFused);
  const std::optional<double> l2 = l2_bytes(t);
  const std::optional<std::size_t> settled = settling_index(points, kSettledTolerance);
  Table table;
  table.title = "The L2 crossover: scale then bias, two passes against one, swept over n";
  table.notes.push_back(
      l2 ? "L2 = " + std::to_string(static_cast<std::uint64_t>(*l2)) + " B (" +
               labrun::binary_size(static_cast<std::uint64_t>(*l2)) +
               ", the device's l2_bytes); n x 4 B / L2 is the size of one buffer, the intermediate, in L2s."
         : "The transcript records no L2 size, so sizes are not related to it.");
  if (settled) {
    const PairPoint& s = points[*settled];
    std::string where = "The speedup settles within " + fixed(kSettledTolerance * 100.0, 0) +
                        "% of the byte ratio from n = " + std::to_string(s.elements);
    if (l2) {
      where += " (n x 4 B = " + fixed(static_cast<double>(s.elements) * kElementBytes / *l2, 2) + " x L2)";
    }
    table.notes.push_back(where + " on: every size from there is marked settled.");
  } else if (!points.empty()) {
    table.notes.push_back("The speedup is not within " + fixed(kSettledTolerance * 100.0, 0) +
                          "% of the byte ratio at the largest n: it never settles in this sweep.");
  }
  table.notes.push_back(
      "Elim. GB/s is (16 - 8 B) x n / (two passes - fused median): the bandwidth of the traffic the fusion "
      "removed; where the intermediate sits in L2 it can exceed the card's DRAM bandwidth.");
  table.headers = {"n",       "size",       "n x 4 B / L2", "two passes (ms)", "fused (ms)",
                   "speedup", "byte ratio", "elim. GB/s",   "settled"};
  table.right_aligned = {true, false, true, true, true, true, true, true, false};
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PairPoint& p = points[i];
    table.rows.push_back({std::to_string(p.elements), p.size_label,
                          l2 ? fixed(static_cast<double>(p.elements) * kElementBytes / *l2, 4) : "?",
                          ms_text(p.unfused_ms), ms_text(p.fused_ms), fixed(p.speedup, 2),
                          fixed(p.byte_ratio, 2), optional_text(p.eliminated_gb_per_s, 1),
                          settled && i >= *settled ? "yes" : "-"});
  }
  return table;
}

// ---- reductions ------------------------------------------------------------------------------

Table reductions_table(const Transcript& t) {
  Table table;
  table.title = "The reductions: folding a pointwise stage in, and what a grid barrier buys";
  table.notes = {
      "Every reduction runs grid-stride on the same grid: grid blocks = blocks per SM (the cooperative "
      "kernel's "
      "occupancy) x SMs, so the two-kernel and cooperative versions differ only in the boundary between "
      "their "
      "phases. GB/s is model bytes over the median.",
      "Barrier saves (us) is the two-kernel median minus the cooperative one: what replacing a kernel "
      "boundary "
      "with a grid-wide barrier bought, the bytes being the same."};
  table.headers = {"case", "n", "ms", "GB/s", "launches", "grid blocks", "blocks/SM", "barrier saves (us)"};
  table.right_aligned = {false, true, true, true, true, true, true, true};
  const auto add = [&](const std::string& name, const std::string& label, const std::string& barrier) {
    const CaseResult* c = t.find_case(name, label);
    if (c == nullptr) {
      return;
    }
    table.rows.push_back({c->label, std::to_string(c->elements), ms_text(c->central_ms()),
                          c->central_ms() > 0.0 ? fixed(c->gb_per_s(), 1) : "-",
                          std::to_string(c->model.launches), attribute_text(c, "grid_blocks", 0),
                          attribute_text(c, "blocks_per_sm", 0), barrier});
  };
  std::vector<std::string> labels = t.size_labels_of(kSumPart);
  for (const std::string& label : t.size_labels_of(kNormalisePart)) {
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) {
      labels.push_back(label);
    }
  }
  for (const std::string& label : labels) {
    add(cases::kSumTwoKernels, label, "-");
    add(cases::kSumFolded, label, "-");
    const std::optional<PairPoint> barrier =
        pair_at(t, cases::kNormaliseTwoKernels, cases::kNormaliseCooperative, label);
    add(cases::kNormaliseTwoKernels, label, "-");
    add(cases::kNormaliseCooperative, label,
        barrier ? fixed((barrier->unfused_ms - barrier->fused_ms) * 1000.0, 2) : "-");
  }
  return table;
}

// ---- stencils --------------------------------------------------------------------------------

Table stencil_table(const Transcript& t, const std::string& size_label) {
  Table table;
  table.title =
      "Stencil then stencil, fused through a shared tile: " + labrun::size_title(t, kStencilPart, size_label);
  table.notes = {
      "Two box averages of 2R + 1 points. Tile is the outputs per block; halo the inputs the fused kernel "
      "loads "
      "beyond each side of its tile (2R); recomputed the first-pass values it computes beyond its tile, "
      "which "
      "the neighbouring blocks compute too, as a fraction of the tile (2R / tile). The wider the stencil, "
      "the "
      "more arithmetic per byte and the more recomputed: where fused stops beating two passes, recomputing "
      "the "
      "halo has stopped paying."};
  table.headers = {"radius",          "points",     "tile",    "halo",       "recomputed",
                   "two passes (ms)", "fused (ms)", "speedup", "byte ratio", "elim. GB/s"};
  table.right_aligned = {true, true, true, true, true, true, true, true, true, true};
  for (const int radius : kStencilRadii) {
    const std::string unfused = cases::stencil(radius, false);
    const std::string fused = cases::stencil(radius, true);
    const CaseResult* f = t.find_case(fused, size_label);
    const std::optional<PairPoint> p = pair_at(t, unfused, fused, size_label);
    if (f == nullptr && !p) {
      continue;
    }
    table.rows.push_back(
        {std::to_string(radius), std::to_string(2 * radius + 1), attribute_text(f, "tile", 0),
         attribute_text(f, "halo", 0), attribute_percent(f, "recomputed_fraction"),
         p ? ms_text(p->unfused_ms) : "-", p ? ms_text(p->fused_ms) : "-", p ? fixed(p->speedup, 2) : "-",
         p ? fixed(p->byte_ratio, 2) : "-", p ? optional_text(p->eliminated_gb_per_s, 1) : "-"});
  }
  return table;
}

// ---- recompute or materialise ----------------------------------------------------------------

Table reuse_table(const Transcript& t) {
  const std::vector<ReusePoint> cheap = reuse_sweep(t, false);
  const std::vector<ReusePoint> expensive = reuse_sweep(t, true);
  Table table;
  table.title =
      "Recompute or materialise a value used by R outputs: " + labrun::size_title(t, kReusePart, "lesson");
  table.notes = {
      "y[i] = x[i] * f(a[i / R]). Recompute: one kernel, every thread evaluates f (4 + 4/R B read, 4 written "
      "per "
      "element). Materialise: f once per group into a buffer, then y = x * v (4 + 8/R read, 4 + 4/R written, "
      "two "
      "launches). Cheap f is one multiply-add; expensive f is " +
          std::to_string(kExpensiveTerms) +
          " accurate sines and exponentials. Mat / rec above 1: recomputing wins.",
      "Cheap: " + reuse_summary(cheap) + ". Expensive: " + reuse_summary(expensive) + "."};
  table.headers = {
      "R", "cheap rec (ms)", "cheap mat (ms)", "mat / rec", "exp rec (ms)", "exp mat (ms)", "mat / rec"};
  table.right_aligned = {true, true, true, true, true, true, true};
  for (const unsigned reuse : kReuseFactors) {
    const auto at = [&](const std::vector<ReusePoint>& points) -> const ReusePoint* {
      const auto found =
          std::find_if(points.begin(), points.end(), [&](const ReusePoint& p) { return p.reuse == reuse; });
      return found != points.end() ? &*found : nullptr;
    };
    const ReusePoint* c = at(cheap);
    const ReusePoint* e = at(expensive);
    if (c == nullptr && e == nullptr) {
      continue;
    }
    table.rows.push_back({std::to_string(reuse), c ? ms_text(c->recompute_ms) : "-",
                          c ? ms_text(c->materialise_ms) : "-", c ? fixed(c->ratio, 2) : "-",
                          e ? ms_text(e->recompute_ms) : "-", e ? ms_text(e->materialise_ms) : "-",
                          e ? fixed(e->ratio, 2) : "-"});
  }
  return table;
}

}  // namespace

std::vector<Table> render_tables(const Transcript& t) {
  std::vector<Table> tables;
  for (const std::string& label : t.size_labels_of(kPairPart)) {
    if (label == "lesson" || label == kClaimSize) {
      tables.push_back(verdict_table(t, label));
    }
  }
  if (!t.size_labels_of(kPairPart).empty()) {
    tables.push_back(crossover_table(t));
  }
  if (!t.size_labels_of(kSumPart).empty() || !t.size_labels_of(kNormalisePart).empty()) {
    tables.push_back(reductions_table(t));
  }
  for (const std::string& label : t.size_labels_of(kStencilPart)) {
    tables.push_back(stencil_table(t, label));
  }
  if (!t.size_labels_of(kReusePart).empty()) {
    tables.push_back(reuse_table(t));
  }
  return tables;
}

}  // namespace verdicts
