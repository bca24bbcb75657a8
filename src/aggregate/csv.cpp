#include "aggregate/csv.hpp"

#include <algorithm>
#include <cstdio>

namespace labrun {
namespace {

// Numbers in full precision, so that the CSV loses nothing the JSON has; empty when not measured.
std::string csv_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

void add_spread(std::vector<std::string>& header, std::vector<std::string>* row, const std::string& name,
                const RunSpread& spread) {
  if (row == nullptr) {
    for (const char* suffix : {" runs", " median", " min", " max"}) {
      header.push_back(name + suffix);
    }
    return;
  }
  row->push_back(std::to_string(spread.runs));
  for (const double value : {spread.median, spread.min, spread.max}) {
    row->push_back(spread.measured() ? csv_number(value) : "");
  }
}

// The columns every card shares, in order: the header when `row` is null, else the card's values.
void card_columns(const LabAggregate& lab, const CardRow* card, std::vector<std::string>& out) {
  const bool header = card == nullptr;
  const auto plain = [&](const std::string& name, const std::string& value) {
    out.push_back(header ? name : value);
  };
  plain("card", header ? "" : card->label);
  plain("device", header ? "" : card->device);
  plain("provenance", header ? "" : card->provenance);
  plain("runs", header ? "" : std::to_string(card->runs()));
  plain("gpus", header ? "" : std::to_string(card->gpus));
  plain("hosts", header ? "" : std::to_string(card->hosts));
  std::string modes;
  std::string sizes;
  if (!header) {
    for (const auto& [mode, runs] : card->timing_modes) {
      modes += (modes.empty() ? "" : " ") + mode + "=" + std::to_string(runs);
    }
    for (const std::string& size : card->bandwidth_size_labels) {
      sizes += (sizes.empty() ? "" : " ") + size;
    }
  }
  plain("timing modes", modes);
  plain("bandwidth size", sizes);
  std::vector<std::string>* row = header ? nullptr : &out;
  const auto spread = [&](const std::string& name, const RunSpread& (*pick)(const CardRow&)) {
    add_spread(out, row, name, header ? RunSpread{} : pick(*card));
  };
  spread("copy floor GB/s", [](const CardRow& c) -> const RunSpread& { return c.copy_floor_gb_per_s; });
  spread("ceiling GB/s", [](const CardRow& c) -> const RunSpread& { return c.ceiling_gb_per_s; });
  spread("peak GB/s", [](const CardRow& c) -> const RunSpread& { return c.peak_gb_per_s; });
  spread("share of peak", [](const CardRow& c) -> const RunSpread& { return c.share_of_peak; });
  spread("launch us", [](const CardRow& c) -> const RunSpread& { return c.launch_us; });
  plain("swept runs", header ? "" : std::to_string(card->swept_runs));
  spread("settles from n", [](const CardRow& c) -> const RunSpread& { return c.settles_from_elements; });
  plain("claims held", header ? "" : std::to_string(card->claims_held()));
  plain("claims measured", header ? "" : std::to_string(card->claims_measured()));
  // One group of columns per predicted ratio and size any card measured, then per claim.
  for (const auto& [description, size] : lab.measured_ratios()) {
    const RatioRow* ratio = header ? nullptr : card->ratio(description, size);
    std::string name = "ratio ";
    name.append(description).append(" (").append(size).append(")");
    add_spread(out, row, name, ratio != nullptr ? ratio->measured : RunSpread{});
  }
  if (!lab.cards.empty()) {
    for (std::size_t i = 0; i < lab.cards.front().claims.size(); ++i) {
      const std::string& id = lab.cards.front().claims[i].id;
      if (header) {
        out.push_back("claim " + id);
        out.push_back("claim " + id + " held");
        out.push_back("claim " + id + " inconclusive");
        out.push_back("claim " + id + " measured");
        out.push_back("claim " + id + " unchecked");
      } else {
        const ClaimTally& tally = card->claims.at(i);
        out.push_back(tally.verdict());
        out.push_back(std::to_string(tally.held));
        out.push_back(std::to_string(tally.inconclusive));
        out.push_back(std::to_string(tally.measured()));
        out.push_back(std::to_string(tally.unchecked));
      }
    }
  }
}

}  // namespace

std::string aggregate_lab_to_csv(const LabAggregate& lab) {
  std::vector<std::string> header;
  card_columns(lab, nullptr, header);
  std::string text = csv_line(header) + "\r\n";
  for (const CardRow& card : lab.cards) {
    std::vector<std::string> row;
    card_columns(lab, &card, row);
    text += csv_line(row) + "\r\n";
  }
  return text;
}

}  // namespace labrun
