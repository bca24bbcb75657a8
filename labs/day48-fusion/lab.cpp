#include "lab.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "base/format.hpp"
#include "case_names.hpp"
#include "chain_constants.hpp"
#include "declarations.hpp"
#include "plots.hpp"
#include "submission_case.hpp"

namespace day48 {
namespace {

using labrun::ByteModel;
using labrun::CaseResult;
using labrun::fixed;
using labrun::Table;
using labrun::Transcript;

// The timeline's claim (`run --timeline`): at the small size the staged chain's mean gap is within
// a factor of 2 of part 1's time per launch; at the lesson size its gaps add up to at most 10% of
// its kernels' time.
void gaps_are_launch_cost(const Transcript& t, labrun::ClaimResult& result) {
  const std::string staged_name = cases::kLaunchStagedChain;
  const std::string launch_name = cases::kEmptySingleThread;
  result.figures = "the timeline's gaps and kernel times of " + staged_name +
                   " at the small and lesson sizes, and the median time per launch of " + launch_name;
  result.tolerance =
      "mean gap within 0.5x to 2x of a launch at small n; gaps at most 10% of kernel time at the "
      "lesson size";
  const auto traced = [&](const std::string& label) -> const labrun::TimelineCase* {
    if (!t.timeline) {
      return nullptr;
    }
    for (const labrun::TimelineCase& c : t.timeline->cases) {
      if (c.name == staged_name && c.size_label == label && !c.gaps_us.empty()) {
        return &c;
      }
    }
    return nullptr;
  };
  const labrun::TimelineCase* small = traced("small");
  const labrun::TimelineCase* lesson = traced("lesson");
  const CaseResult* launch = t.find_case(launch_name);
  if (small == nullptr || lesson == nullptr || launch == nullptr || launch->central_ms() <= 0.0) {
    result.verdict = labrun::Verdict::kNotMeasured;
    result.detail =
        "needs `run --timeline` with part 5's staged chain at the small and lesson sizes and part 1's "
        "empty launch timed";
    return;
  }
  const auto total = [](const std::vector<double>& v) {
    double sum = 0.0;
    for (const double x : v) {
      sum += x;
    }
    return sum;
  };
  const double mean_gap_us = total(small->gaps_us) / static_cast<double>(small->gaps_us.size());
  const double launch_us = launch->central_ms() * 1000.0 / static_cast<double>(launch->launches_per_sample);
  const double gap_ratio = mean_gap_us / launch_us;
  double lesson_kernels_us = 0.0;  // the kernels of the execution whose gaps are recorded
  for (const labrun::TimelineKernel& k : lesson->kernels) {
    lesson_kernels_us += k.duration_us;
  }
  const double lesson_gap_share = lesson_kernels_us > 0.0 ? total(lesson->gaps_us) / lesson_kernels_us : 0.0;
  result.measured = gap_ratio;
  result.expected = 1.0;
  const bool close_at_small = gap_ratio >= 0.5 && gap_ratio <= 2.0;
  const bool small_at_lesson = lesson_kernels_us > 0.0 && lesson_gap_share <= 0.10;
  result.verdict = close_at_small && small_at_lesson ? labrun::Verdict::kHeld : labrun::Verdict::kFailed;
  result.detail = "small: mean gap " + fixed(mean_gap_us, 2) + " us against " + fixed(launch_us, 2) +
                  " us per launch (" + fixed(gap_ratio, 2) + "x); lesson: gaps " +
                  fixed(total(lesson->gaps_us), 2) + " us against " + fixed(lesson_kernels_us, 1) +
                  " us of kernels (" + fixed(100.0 * lesson_gap_share, 1) + "%)";
}

// Part 5's claim: at the small size the graph beats the stream; at the lesson size the graph is
// within 5% of the stream and the fused kernel beats both.
void graphs_against_fusion(const Transcript& t, labrun::ClaimResult& result) {
  const std::string stream_name = cases::kLaunchStagedChain;
  const std::string graph_name = cases::kLaunchStagedChainGraph;
  const std::string fused_name = cases::kLaunchFusedChain;
  result.figures = "median times of " + stream_name + ", " + graph_name + " and " + fused_name +
                   " at the small and lesson sizes";
  result.tolerance =
      "graph < stream at small n; |graph / stream - 1| <= 5% and fused < graph at the lesson size";
  const CaseResult* small_stream = t.find_case(stream_name, "small");
  const CaseResult* small_graph = t.find_case(graph_name, "small");
  const CaseResult* large_stream = t.find_case(stream_name, "lesson");
  const CaseResult* large_graph = t.find_case(graph_name, "lesson");
  const CaseResult* large_fused = t.find_case(fused_name, "lesson");
  for (const CaseResult* c : {small_stream, small_graph, large_stream, large_graph, large_fused}) {
    if (c == nullptr || c->central_ms() <= 0.0) {
      result.verdict = labrun::Verdict::kNotMeasured;
      result.detail = "part 5 was not timed at both the small and the lesson size";
      return;
    }
  }
  const double small_saving_us = (small_stream->central_ms() - small_graph->central_ms()) * 1000.0;
  const double large_ratio = large_graph->central_ms() / large_stream->central_ms();
  const bool graph_helps_small = small_saving_us > 0.0;
  const bool graph_neutral_large = std::abs(large_ratio - 1.0) <= 0.05;
  const bool fusion_helps_large = large_fused->central_ms() < large_graph->central_ms();
  result.measured = large_ratio;
  result.expected = 1.0;
  result.verdict = graph_helps_small && graph_neutral_large && fusion_helps_large ? labrun::Verdict::kHeld
                                                                                  : labrun::Verdict::kFailed;
  result.detail = "small n: the graph saves " + fixed(small_saving_us, 2) + " us (" +
                  fixed(small_stream->central_ms() * 1000.0, 2) + " -> " +
                  fixed(small_graph->central_ms() * 1000.0, 2) +
                  " us); lesson n: graph / stream = " + fixed(large_ratio, 3) + ", fused " +
                  fixed(large_fused->central_ms(), 4) + " ms against graph " +
                  fixed(large_graph->central_ms(), 4) + " ms";
}

// The lesson's claims ("The four claims, against the card", the exercise's solution), with the
// tolerances this lab judges them by: 10% on a ratio, 5% on bandwidth, 20% on a per-launch time.
// A ratio the byte models predict is derived from them (byte_ratio_claim), never typed in.
std::vector<labrun::ClaimSpec> declare_claims(const std::vector<labrun::CaseSpec>& specs) {
  using labrun::bandwidth_band_claim;
  using labrun::bitwise_equal_claim;
  using labrun::byte_ratio_claim;
  using labrun::custom_claim;
  using labrun::not_faster_claim;
  using labrun::per_launch_converges_claim;
  std::vector<std::string> wider;
  for (const int width : kWidths) {
    if (width != 1) {
      wider.push_back(cases::fused_wide(width));
    }
  }
  return {
      byte_ratio_claim(
          "staged-over-fused-is-the-byte-ratio",
          "At the timed size, staged over fused follows the byte ratio {byte_ratio}, not the launch ratio 4",
          specs, cases::kStagedChain, cases::kFusedChain, "lesson", 0.10),
      byte_ratio_claim(
          "staged-over-fused-is-the-byte-ratio-card-scaled",
          "At the card-scaled size, where the L2 cannot hold the traffic, staged over fused follows "
          "the byte ratio {byte_ratio}",
          specs, cases::kStagedChain, cases::kFusedChain, "card-scaled", 0.10),
      bandwidth_band_claim(
          "chain-rows-at-the-copy-floor",
          "Every chain row runs within 5% of the copy floor's GB/s: the chain is memory bound",
          cases::kCopyFloor, {cases::kStagedChain, cases::kFusedChain, cases::kHalfwayPair}, "lesson", 0.95,
          1.05),
      // Hot timing reads the host's launch rate, as the lesson does; where the run queues a sample's
      // launches ahead of the GPU, the chain's time per launch is the GPU's pace, so it reads empty
      // launches queued the same way.
      per_launch_converges_claim(
          "staged-launch-cost-converges-to-an-empty-launch",
          "At the small end of the sweep, the staged chain's time per launch converges to "
          "part 1's empty-kernel launch",
          cases::kSweepStagedChain, cases::kEmptySingleThread, 0.20, cases::kEmptyStagedLaunches),
      not_faster_claim("widening-does-not-make-it-faster",
                       "Widening the fused kernel to more elements per thread does not make it faster",
                       cases::fused_wide(1), wider, "lesson", 0.98),
      bitwise_equal_claim("fused-and-staged-agree-bitwise", "The fused and staged chains agree bit for bit",
                          "fused-chain", "staged-chain", true),
      byte_ratio_claim(
          "halfway-against-staged",
          "The exercise: staged over the half-way pair follows its byte ratio 36/20 = {byte_ratio}", specs,
          cases::kStagedChain, cases::kHalfwayPair, "lesson", 0.10),
      byte_ratio_claim(
          "halfway-against-fused",
          "The exercise: the half-way pair over fused follows its byte ratio 20/12 = {byte_ratio}", specs,
          cases::kHalfwayPair, cases::kFusedChain, "lesson", 0.10),
      // Not the lesson's: the harness's own check that its practical ceiling is a real one.
      byte_ratio_claim("vectorized-copy-reaches-the-memcpy-ceiling",
                       "At the card-scaled size the vectorised grid-stride copy runs within 10% of a "
                       "device-to-device cudaMemcpy",
                       specs, cases::kCopyVectorized, cases::kCopyMemcpy, "card-scaled", 0.10),
      custom_claim(
          "graphs-remove-launch-cost-fusion-removes-bytes",
          "A CUDA graph of the staged chain is faster than its four stream launches at the small size "
          "but within 5% of them at the lesson size, where only fusion (fewer bytes) is faster",
          {cases::kLaunchStagedChain, cases::kLaunchStagedChainGraph, cases::kLaunchFusedChain},
          graphs_against_fusion),
      custom_claim(
          "staged-gaps-are-launch-cost",
          "On the timeline, the gaps between the staged chain's four kernels are launch cost: close to "
          "part 1's cost of a launch at the small size, and small against the kernels' time at the "
          "lesson size",
          {cases::kLaunchStagedChain, cases::kEmptySingleThread}, gaps_are_launch_cost),
  };
}

// ---- tables ---------------------------------------------------------------------------------

std::string spread(const CaseResult& c) {
  return c.has_samples() ? labrun::percent(c.summary.relative_spread) : "-";
}

Table part1_table(const Transcript& t) {
  Table table;
  table.title = "Part 1: what one launch costs";
  table.notes = {"Each sample times " + std::to_string(kLaunchesPerPart1Sample) +
                 " back-to-back launches of an empty kernel; per launch = median sample / launches."};
  if (t.find_case(cases::kEmptySingleLaunch) != nullptr) {
    table.notes.push_back(
        "The one-launch row times a single launch between two events per sample: its latency as the GPU's "
        "timeline sees it, against the throughput of launches queued back to back.");
  }
  if (t.find_case(cases::kEmptyStagedLaunches) != nullptr) {
    table.notes.push_back(
        "The staged-launches row times the staged chain's " + std::to_string(kStagedChainLaunches) +
        " launches between two events per sample, as the chain is timed: in cold and hot-gated timing they "
        "are queued ahead of the GPU (behind the flush or the gate), so it is what an empty launch costs "
        "at the GPU's pace, which the launch-cost claim reads there.");
  }
  table.headers = {"launch shape", "grid for n", "blocks", "per launch (us)", "spread"};
  table.right_aligned = {false, true, true, true, true};
  for (const CaseResult& c : t.cases) {
    if (c.part != "part1") {
      continue;
    }
    const auto blocks = c.attributes.find("blocks");
    table.rows.push_back({c.label,
                          c.name.find("single") != std::string::npos ? "-" : std::to_string(c.elements),
                          blocks != c.attributes.end() ? fixed(blocks->second, 0) : "?",
                          fixed(c.central_ms() * 1000.0 / c.launches_per_sample, 3), spread(c)});
  }
  return table;
}

Table part2_table(const Transcript& t, const std::string& size_label) {
  Table table;
  table.title = "Part 2: every version once, " + labrun::size_title(t, "part2", size_label);
  table.notes = {
      "GB/s is the row's model bytes over its median time; x copy is that GB/s over the "
      "copy floor's. The four stages summed adds their medians (a breakdown, not the chain)."};
  table.headers = {"row", "ms", "bytes/elem", "GB/s", "x copy", "spread"};
  table.right_aligned = {false, true, true, true, true, true};
  const CaseResult* copy = t.find_case(cases::kCopyFloor, size_label);
  const double copy_gbps = copy != nullptr ? copy->gb_per_s() : 0.0;
  const auto x_copy = [&](double gbps) { return copy_gbps > 0.0 ? fixed(gbps / copy_gbps, 2) : "-"; };
  // The practical ceiling, where the run measured one: the best of the three copies.
  double ceiling_gbps = 0.0;
  for (const std::string& name : cases::kCeilingCopies) {
    if (const CaseResult* c = t.find_case(name, size_label)) {
      ceiling_gbps = std::max({ceiling_gbps, c->gb_per_s(), copy_gbps});
    }
  }
  const double peak_gbps = t.numeric_fact("device", "memory_peak_gb_per_s").value_or(0.0);
  if (ceiling_gbps > 0.0) {
    table.headers.insert(table.headers.end() - 1, {"% ceiling", "% peak"});
    table.right_aligned.insert(table.right_aligned.end() - 1, {true, true});
    table.notes.push_back(
        "% ceiling is GB/s over the best copy at this size (" + fixed(ceiling_gbps, 1) +
        " GB/s); % peak is over the theoretical peak from the device's memory clock and bus "
        "width (" +
        (peak_gbps > 0.0 ? fixed(peak_gbps, 1) + " GB/s" : "unknown") + ").");
  }
  const auto add_row = [&](const std::string& label, double ms, double bytes, double gbps,
                           const std::string& sp) {
    std::vector<std::string> row{label, fixed(ms, 4), fixed(bytes, 0), fixed(gbps, 1), x_copy(gbps)};
    if (ceiling_gbps > 0.0) {
      row.push_back(labrun::percent(gbps / ceiling_gbps));
      row.push_back(peak_gbps > 0.0 ? labrun::percent(gbps / peak_gbps) : "-");
    }
    row.push_back(sp);
    table.rows.push_back(std::move(row));
  };
  const auto add_case = [&](const std::string& name, const std::string& indent) {
    const CaseResult* c = t.find_case(name, size_label);
    if (c == nullptr) {
      return;
    }
    add_row(indent + c->label, c->central_ms(), c->model.bytes_per_element(), c->gb_per_s(), spread(*c));
  };
  add_case(cases::kCopyFloor, "");
  add_case(cases::kCopyVectorized, "");
  add_case(cases::kCopyMemcpy, "");
  double summed_ms = 0.0;
  ByteModel summed_model{0.0, 0.0, 0};
  std::uint64_t elements = 0;
  int found = 0;
  for (const std::string& stage : cases::kStages) {
    if (const CaseResult* c = t.find_case(stage, size_label)) {
      summed_ms += c->central_ms();
      summed_model.read_bytes_per_element += c->model.read_bytes_per_element;
      summed_model.write_bytes_per_element += c->model.write_bytes_per_element;
      summed_model.launches += c->model.launches;
      elements = c->elements;
      ++found;
    }
  }
  if (found == 4) {
    const double gbps = labrun::effective_gb_per_s(summed_model, elements, summed_ms);
    add_row("four stages, summed", summed_ms, summed_model.bytes_per_element(), gbps, "-");
  }
  for (const std::string& stage : cases::kStages) {
    add_case(stage, "- ");
  }
  add_case(cases::kStagedChain, "");
  add_case(cases::kFusedChain, "");
  add_case(cases::kHalfwayPair, "");
  add_case(cases::kSubmission, "");
  return table;
}

// The student's worked answer (the manifest, recorded as lab facts by `run --submission`) against
// the lab's own half-way pair and the run's medians; none when the run had no submission.
std::optional<Table> submission_table(const Transcript& t) {
  namespace facts = submission_facts;
  const std::optional<double> bytes = t.numeric_fact("lab", facts::kBytesPerElement);
  if (t.cases_named(cases::kSubmission).empty() || !bytes) {
    return std::nullopt;
  }
  Table table;
  table.title = "Your submission: the worked answer against the run";
  const labrun::FactGroup* lab = t.group("lab");
  const auto fact_text = [&](const char* key) {
    const labrun::Fact* fact = lab != nullptr ? lab->find(key) : nullptr;
    return fact != nullptr ? fact->display() : std::string("not recorded");
  };
  table.notes = {
      "From " + fact_text(facts::kSource) + " (student " + fact_text(facts::kStudentId) + "), launched as " +
          fact_text(facts::kFirstLaunch) + " and " + fact_text(facts::kSecondLaunch) + ".",
      "The lab's model is its own half-way pair's; measured ratios are of medians at each part-2 size."};
  table.headers = {"quantity", "your answer", "the lab's model", "measured"};
  table.right_aligned = {false, true, true, true};
  const CaseResult* lab_pair = t.find_case(cases::kHalfwayPair);
  const CaseResult* staged_model = t.find_case(cases::kStagedChain);
  const CaseResult* fused_model = t.find_case(cases::kFusedChain);
  const auto model_bytes = [](const CaseResult* c) {
    return c != nullptr ? c->model.bytes_per_element() : 0.0;
  };
  const std::optional<double> launches = t.numeric_fact("lab", facts::kLaunches);
  table.rows.push_back({"bytes per element", labrun::bytes_per_element_text(*bytes),
                        lab_pair != nullptr ? labrun::bytes_per_element_text(model_bytes(lab_pair)) : "-",
                        "-"});
  table.rows.push_back({"launches", launches ? fixed(*launches, 0) : "-",
                        lab_pair != nullptr ? std::to_string(lab_pair->model.launches) : "-", "-"});
  const auto ratio_row = [&](const std::string& quantity, const char* predicted_key,
                             const std::string& slower, const std::string& faster, double model_ratio) {
    for (const std::string& label : t.size_labels_of("part2")) {
      const CaseResult* numerator = t.find_case(slower, label);
      const CaseResult* denominator = t.find_case(faster, label);
      const std::optional<double> predicted = t.numeric_fact("lab", predicted_key);
      const bool measured = numerator != nullptr && denominator != nullptr && numerator->central_ms() > 0.0 &&
                            denominator->central_ms() > 0.0;
      std::string row_label = quantity;
      row_label += ", " + label;
      table.rows.push_back({row_label, predicted ? fixed(*predicted, 2) : "-",
                            model_ratio > 0.0 ? fixed(model_ratio, 2) : "-",
                            measured ? fixed(numerator->central_ms() / denominator->central_ms(), 2) : "-"});
    }
  };
  const double pair_bytes = model_bytes(lab_pair);
  ratio_row("staged / yours", facts::kPredictedVsStaged, cases::kStagedChain, cases::kSubmission,
            pair_bytes > 0.0 ? model_bytes(staged_model) / pair_bytes : 0.0);
  ratio_row("yours / fused", facts::kPredictedVsFused, cases::kSubmission, cases::kFusedChain,
            model_bytes(fused_model) > 0.0 ? pair_bytes / model_bytes(fused_model) : 0.0);
  for (const labrun::CorrectnessCheck& check : t.correctness) {
    if (check.version == kSubmissionCheck) {
      table.rows.push_back({"output against the float64 chain", "-", "-",
                            check.passed ? "correct" : std::to_string(check.mismatches) + " wrong elements"});
    }
  }
  return table;
}

Table part3_table(const Transcript& t) {
  Table table;
  table.title = "Part 3: the same two chains, swept over n";
  table.notes = {
      "staged us/launch is the staged chain's median over its 4 launches: at the small "
      "end it should approach part 1's empty-kernel figure."};
  table.headers = {"n", "size", "staged (ms)", "fused (ms)", "staged/fused", "staged us/launch"};
  table.right_aligned = {true, false, true, true, true, true};
  std::vector<const CaseResult*> staged = t.cases_named(cases::kSweepStagedChain);
  std::sort(staged.begin(), staged.end(),
            [](const CaseResult* a, const CaseResult* b) { return a->elements < b->elements; });
  for (const CaseResult* s : staged) {
    const CaseResult* f = nullptr;
    for (const CaseResult* candidate : t.cases_named(cases::kSweepFusedChain)) {
      if (candidate->elements == s->elements) {
        f = candidate;
      }
    }
    if (f == nullptr) {
      continue;
    }
    table.rows.push_back({std::to_string(s->elements), s->size_label, fixed(s->central_ms(), 4),
                          fixed(f->central_ms(), 4),
                          f->central_ms() > 0 ? fixed(s->central_ms() / f->central_ms(), 2) : "-",
                          fixed(s->central_ms() * 1000.0 / s->model.launches, 3)});
  }
  return table;
}

Table part4_table(const Transcript& t, const std::string& size_label) {
  Table table;
  table.title =
      "Part 4: chainFused widened, same work and bytes, " + labrun::size_title(t, "part4", size_label);
  table.notes = {
      "regs, spill B (local memory per thread) and blocks/SM come from cudaFuncGetAttributes and "
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor at 256 threads per block; no profiler is used."};
  const CaseResult* fused = t.find_case(cases::kFusedChain, size_label);
  const CaseResult* wide1 = t.find_case(cases::fused_wide(1), size_label);
  if (fused != nullptr && wide1 != nullptr) {
    table.notes.push_back("chainFused at this size: " + fixed(fused->central_ms(), 4) +
                          " ms; chainFusedWide<1>: " + fixed(wide1->central_ms(), 4) +
                          " ms (the two should agree).");
  }
  table.headers = {"per thread", "blocks", "regs", "spill B", "blocks/SM",
                   "occupancy",  "ms",     "GB/s", "spread"};
  table.right_aligned = {true, true, true, true, true, true, true, true, true};
  const auto attribute = [](const CaseResult& c, const char* key, int decimals) {
    const auto it = c.attributes.find(key);
    return it != c.attributes.end() ? fixed(it->second, decimals) : std::string("?");
  };
  for (const int width : kWidths) {
    const CaseResult* c = t.find_case(cases::fused_wide(width), size_label);
    if (c == nullptr) {
      continue;
    }
    const auto occupancy = c->attributes.find("theoretical_occupancy");
    table.rows.push_back({std::to_string(width), attribute(*c, "blocks", 0), attribute(*c, "registers", 0),
                          attribute(*c, "local_bytes_per_thread", 0), attribute(*c, "blocks_per_sm", 0),
                          occupancy != c->attributes.end() ? labrun::percent(occupancy->second) : "?",
                          c->central_ms() > 0.0 ? fixed(c->central_ms(), 4) : "-",
                          c->central_ms() > 0.0 ? fixed(c->gb_per_s(), 1) : "-", spread(*c)});
  }
  return table;
}

Table part5_table(const Transcript& t) {
  Table table;
  table.title = "Part 5: launch cost three ways, and what fusion removes instead";
  table.notes = {
      "Times in microseconds (median per execution). The graph replays the staged chain's four kernels as "
      "one "
      "CUDA graph: same bytes, one launch overhead. Part 1 gives the other two ways: launches back to back "
      "and a single launch."};
  table.headers = {"n",
                   "size",
                   "staged, stream (us)",
                   "staged, graph (us)",
                   "fused (us)",
                   "graph saves (us)",
                   "fusion saves (us)"};
  table.right_aligned = {true, false, true, true, true, true, true};
  for (const std::string& label : t.size_labels_of("part5")) {
    const CaseResult* stream = t.find_case(cases::kLaunchStagedChain, label);
    const CaseResult* graph = t.find_case(cases::kLaunchStagedChainGraph, label);
    const CaseResult* fused = t.find_case(cases::kLaunchFusedChain, label);
    const auto us = [](const CaseResult* c) {
      return c != nullptr ? fixed(c->central_ms() * 1000.0, 2) : "-";
    };
    const auto saved = [](const CaseResult* from, const CaseResult* to) {
      return from != nullptr && to != nullptr ? fixed((from->central_ms() - to->central_ms()) * 1000.0, 2)
                                              : "-";
    };
    const CaseResult* any = stream != nullptr ? stream : (graph != nullptr ? graph : fused);
    if (any == nullptr) {
      continue;  // this size has only part-5 cases the lab does not know
    }
    table.rows.push_back({std::to_string(any->elements), label, us(stream), us(graph), us(fused),
                          saved(stream, graph), saved(stream, fused)});
  }
  return table;
}

}  // namespace

std::vector<Table> render_tables(const Transcript& t) {
  std::vector<Table> tables;
  if (!t.size_labels_of("part1").empty()) {
    tables.push_back(part1_table(t));
  }
  for (const std::string& label : t.size_labels_of("part2")) {
    tables.push_back(part2_table(t, label));
  }
  if (std::optional<Table> yours = submission_table(t)) {
    tables.push_back(std::move(*yours));
  }
  if (!t.size_labels_of("part3").empty()) {
    tables.push_back(part3_table(t));
  }
  for (const std::string& label : t.size_labels_of("part4")) {
    tables.push_back(part4_table(t, label));
  }
  if (!t.size_labels_of("part5").empty()) {
    tables.push_back(part5_table(t));
  }
  return tables;
}

std::string case_name(const std::string& part, const std::string& name) {
  return std::string(kLabName) + "/" + part + "/" + name;
}

labrun::Lab make_lab() {
  labrun::Lab lab = labrun::declared(declare_lab());
  lab.title = "Day 48: kernel fusion and what a launch really costs";
  lab.summary = "a four-stage elementwise chain, staged, fused, half-way fused and widened";
  lab.predictions = {
      {"staged over fused", cases::kStagedChain, cases::kFusedChain},
      {"staged over half-way (exercise)", cases::kStagedChain, cases::kHalfwayPair},
      {"half-way over fused (exercise)", cases::kHalfwayPair, cases::kFusedChain},
      {"fused over the copy floor", cases::kFusedChain, cases::kCopyFloor},
  };
  lab.claims = declare_claims(lab.cases);
  lab.stability_case = cases::kStagedChain;
  lab.render_tables = render_tables;
  lab.plots = plots;
  lab.card_figures.copy_floor_case = cases::kCopyFloor;
  lab.card_figures.ceiling_cases = {cases::kCopyVectorized, cases::kCopyMemcpy};
  lab.card_figures.launch_case = cases::kEmptySingleThread;
  // The claim "staged over fused is the byte ratio" uses 10% too.
  lab.card_figures.sweep_slower_case = cases::kSweepStagedChain;
  lab.card_figures.sweep_faster_case = cases::kSweepFusedChain;
  lab.card_figures.settle_tolerance = 0.10;
  lab.roofline = {{cases::kCopyFloor, cases::kCopyVectorized, cases::kCopyMemcpy},
                  labrun::case_name(kLabName, "roofline", "peak-fma")};
  return lab;
}

}  // namespace day48
