#include "aggregate/markdown.hpp"

#include <algorithm>
#include <sstream>

#include "base/format.hpp"
#include "evidence/markdown.hpp"

namespace labrun {
namespace {

// A section of the report at heading level `marks` ("###"), titled `title`.
void section(std::ostringstream& out, const std::string& marks, const std::string& title, Table table) {
  table.title = title;
  out << render_table_section(table, marks);
}

std::string count_or_dash(std::size_t count) {
  return count > 0 ? std::to_string(count) : "-";
}

Table cards_table(const LabAggregate& lab) {
  Table table;
  const CardFigures& f = lab.figures;
  table.notes.push_back(
      "One row per card: every run of one device model, of one provenance. A figure over several runs is "
      "their median, with its spread (max - min) / median in brackets.");
  if (!f.copy_floor_case.empty()) {
    table.notes.push_back("GB/s are read at the first of the sizes " + join(f.size_labels, ", ") +
                          " a run has: the copy floor is " + f.copy_floor_case +
                          (f.ceiling_cases.empty()
                               ? std::string()
                               : ", the ceiling the best of it and " + join(f.ceiling_cases, ", ")) +
                          "; % of peak is the best copy over the device's theoretical peak.");
  }
  if (!f.launch_case.empty()) {
    table.notes.push_back("Launch is " + f.launch_case + "'s time per launch, in microseconds.");
  }
  if (!f.sweep_slower_case.empty()) {
    table.notes.push_back("Settles from n: the smallest n from which " + f.sweep_slower_case + " over " +
                          f.sweep_faster_case + " stays within " + fixed(f.settle_tolerance * 100.0, 0) +
                          "% of its byte ratio at every larger n the run timed.");
  }
  table.notes.push_back("Claims held: held by every run that measured them, of the claims measured.");
  table.headers = {"card",         "provenance", "runs",        "GPUs",
                   "hosts",        "timing",     "GB/s at",     "copy floor GB/s",
                   "ceiling GB/s", "% of peak",  "launch (us)", "settles from n",
                   "claims held"};
  table.right_aligned = {false, false, true, true, true, false, false, true, true, true, true, true, true};
  for (const CardRow& card : lab.cards) {
    const RunSpread& share = card.share_of_peak;
    table.rows.push_back(
        {card.label, card.provenance, std::to_string(card.runs()), count_or_dash(card.gpus),
         count_or_dash(card.hosts), timing_text(card),
         card.bandwidth_size_labels.empty() ? "-" : join(card.bandwidth_size_labels, ", "),
         spread_text(card.copy_floor_gb_per_s, 1), spread_text(card.ceiling_gb_per_s, 1),
         share.measured() ? percent(share.median) : "-", spread_text(card.launch_us, 3), settling_text(card),
         std::to_string(card.claims_held()) + " of " + std::to_string(card.claims_measured())});
  }
  return table;
}

Table ratios_table(const LabAggregate& lab) {
  Table table;
  table.notes = {
      "Measured is the slower case's central time over the faster case's (medians; the published figure of "
      "a transcribed row), per run; the median over the card's runs, and its range."};
  table.headers = {"prediction", "size",     "byte ratio", "launch ratio", "card",
                   "runs",       "measured", "min",        "max"};
  table.right_aligned = {false, false, true, true, false, true, true, true, true};
  // Grouped by prediction (the lab's order) and size (the lab's preference), then card.
  for (const auto& [description, size] : lab.measured_ratios()) {
    for (const CardRow& card : lab.cards) {
      if (const RatioRow* r = card.ratio(description, size)) {
        table.rows.push_back({description, size, fixed(r->byte_ratio, 2), fixed(r->launch_ratio, 2),
                              card.label, std::to_string(r->measured.runs), fixed(r->measured.median, 2),
                              fixed(r->measured.min, 2), fixed(r->measured.max, 2)});
      }
    }
  }
  return table;
}

Table claims_table(const LabAggregate& lab) {
  Table table;
  table.notes = {
      "Per card, how many of the runs that measured a claim held it (and, from transcript schema 1.6.0 on, "
      "how many were inconclusive: the claim's interval straddled its bound). A claim the lesson itself "
      "hedges on is marked (expected to fail)."};
  table.headers = {"claim"};
  table.right_aligned = {false};
  for (const CardRow& card : lab.cards) {
    table.headers.push_back(card.label);
    table.right_aligned.push_back(false);
  }
  if (lab.cards.empty()) {
    return table;
  }
  for (std::size_t i = 0; i < lab.cards.front().claims.size(); ++i) {
    const ClaimTally& first = lab.cards.front().claims[i];
    std::vector<std::string> row{first.id + (first.expected_to_fail ? " (expected to fail)" : "")};
    for (const CardRow& card : lab.cards) {
      row.push_back(i < card.claims.size() ? card.claims[i].summary() : "not measured");
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

Table statements_table(const LabAggregate& lab) {
  Table table;
  table.headers = {"claim", "statement"};
  table.right_aligned = {false, false};
  if (!lab.cards.empty()) {
    for (const ClaimTally& claim : lab.cards.front().claims) {
      table.rows.push_back({claim.id, claim.statement});
    }
  }
  return table;
}

Table transcripts_table(const LabAggregate& lab) {
  Table table;
  table.headers = {"card", "transcript"};
  table.right_aligned = {false, false};
  for (const CardRow& card : lab.cards) {
    for (const std::filesystem::path& file : card.transcripts) {
      table.rows.push_back({card.label, name_text(file.string())});
    }
  }
  return table;
}

}  // namespace

std::string spread_text(const RunSpread& spread, int decimals) {
  if (!spread.measured()) {
    return "-";
  }
  if (spread.runs == 1) {
    return fixed(spread.median, decimals);
  }
  return fixed(spread.median, decimals) + " (" + percent(spread.relative_spread()) + ")";
}

std::string settling_text(const CardRow& card) {
  if (card.swept_runs == 0) {
    return "-";
  }
  const RunSpread& settles = card.settles_from_elements;
  if (!settles.measured()) {
    return "does not settle";
  }
  std::string text = fixed(settles.min, 0);
  if (settles.max > settles.min) {
    text.append("-").append(fixed(settles.max, 0));
  }
  if (settles.runs < card.swept_runs) {
    text += " (in " + std::to_string(settles.runs) + " of " + std::to_string(card.swept_runs) + " runs)";
  }
  return text;
}

std::string timing_text(const CardRow& card) {
  std::string text;
  for (const auto& [mode, runs] : card.timing_modes) {
    text += (text.empty() ? "" : ", ") + mode + " " + std::to_string(runs);
  }
  return text;
}

std::string aggregate_to_markdown(const Aggregate& aggregate, const std::string& plots_section) {
  std::ostringstream out;
  std::size_t refused = 0;
  std::size_t skipped = 0;
  for (const AggregateInput& input : aggregate.inputs) {
    refused += !input.used() && !input.not_a_transcript ? 1 : 0;
    skipped += input.not_a_transcript ? 1 : 0;
  }
  out << "# Evidence across cards\n\n";
  out << "labrun aggregate read " << aggregate.inputs.size() << " files: " << aggregate.used()
      << " transcripts used, " << refused << " left out";
  if (skipped > 0) {
    out << ", " << skipped << " found in folders that are not transcripts";
  }
  out << ".\n";
  for (const LabAggregate& lab : aggregate.labs) {
    out << "\n## " << lab.title << " (`" << lab.name << "`)\n";
    if (!lab.known) {
      out << "\nLab `" << lab.name
          << "` is not part of this build: its claims are those its transcripts record, and it declares no "
             "card figures.\n";
    }
    section(out, "###", "Cards", cards_table(lab));
    for (const CardRow& card : lab.cards) {
      for (const std::string& source : card.sources) {
        out << "\n"
            << card.label << ": figures copied by hand from " << source << ", never measured by labrun.\n";
      }
      if (card.provenance == "synthetic") {
        out << "\n" << card.label << ": synthetic transcripts, built by a program, never measured.\n";
      }
    }
    if (const Table ratios = ratios_table(lab); !ratios.rows.empty()) {
      section(out, "###", "Predicted ratios, measured on each card", ratios);
    }
    if (const Table claims = claims_table(lab); !claims.rows.empty()) {
      section(out, "###", "Claims, card by card", claims);
      section(out, "###", "The claims", statements_table(lab));
    }
    section(out, "###", "Transcripts used", transcripts_table(lab));
  }
  out << plots_section;
  if (refused > 0) {
    Table left_out;
    left_out.headers = {"why"};
    left_out.right_aligned = {false};
    for (const AggregateInput& input : aggregate.inputs) {
      if (!input.used() && !input.not_a_transcript) {
        left_out.rows.push_back({input.refused});
      }
    }
    section(out, "##", "Left out", left_out);
  }
  return out.str();
}

}  // namespace labrun
