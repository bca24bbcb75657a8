#include "aggregate/json.hpp"

#include "base/format.hpp"
#include "device/build_info.hpp"

namespace labrun {

using Json = nlohmann::ordered_json;  // the same alias as evidence/transcript_json.hpp's

namespace {

Json spread_json(const RunSpread& spread) {
  if (!spread.measured()) {
    return Json{{"runs", 0}, {"median", nullptr}, {"min", nullptr}, {"max", nullptr}};
  }
  return Json{{"runs", spread.runs}, {"median", spread.median}, {"min", spread.min}, {"max", spread.max}};
}

Json card_json(const CardRow& card) {
  Json ratios = Json::array();
  for (const RatioRow& r : card.ratios) {
    ratios.push_back(Json{{"prediction", r.description},
                          {"size_label", r.size_label},
                          {"byte_ratio", r.byte_ratio},
                          {"launch_ratio", r.launch_ratio},
                          {"measured", spread_json(r.measured)}});
  }
  Json claims = Json::array();
  for (const ClaimTally& c : card.claims) {
    claims.push_back(Json{{"id", c.id},
                          {"verdict", c.verdict()},
                          {"held", c.held},
                          {"failed", c.failed},
                          {"inconclusive", c.inconclusive},
                          {"not_measured", c.not_measured},
                          {"unchecked", c.unchecked},
                          {"expected_to_fail", c.expected_to_fail}});
  }
  Json transcripts = Json::array();
  for (const std::filesystem::path& file : card.transcripts) {
    transcripts.push_back(name_text(file.string()));  // names are data: any bytes
  }
  Json modes = Json::object();
  for (const auto& [mode, runs] : card.timing_modes) {
    modes[mode] = runs;
  }
  return Json{{"card", card.label},
              {"device", card.device},
              {"provenance", card.provenance},
              {"sources", card.sources},
              {"runs", card.runs()},
              {"gpus", card.gpus},
              {"hosts", card.hosts},
              {"timing_modes", modes},
              {"bandwidth_size_labels", card.bandwidth_size_labels},
              {"copy_floor_gb_per_s", spread_json(card.copy_floor_gb_per_s)},
              {"ceiling_gb_per_s", spread_json(card.ceiling_gb_per_s)},
              {"peak_gb_per_s", spread_json(card.peak_gb_per_s)},
              {"share_of_peak", spread_json(card.share_of_peak)},
              {"launch_us", spread_json(card.launch_us)},
              {"swept_runs", card.swept_runs},
              {"settles_from_elements", spread_json(card.settles_from_elements)},
              {"claims_held", card.claims_held()},
              {"claims_measured", card.claims_measured()},
              {"ratios", ratios},
              {"claims", claims},
              {"transcripts", transcripts}};
}

}  // namespace

nlohmann::ordered_json aggregate_to_json(const Aggregate& aggregate) {
  Json labs = Json::array();
  for (const LabAggregate& lab : aggregate.labs) {
    Json cards = Json::array();
    for (const CardRow& card : lab.cards) {
      cards.push_back(card_json(card));
    }
    Json statements = Json::array();
    if (!lab.cards.empty()) {
      for (const ClaimTally& claim : lab.cards.front().claims) {
        statements.push_back(Json{{"id", claim.id}, {"statement", claim.statement}});
      }
    }
    const CardFigures& f = lab.figures;
    labs.push_back(Json{{"name", lab.name},
                        {"title", lab.title},
                        {"known_to_this_build", lab.known},
                        {"card_figures", Json{{"size_labels", f.size_labels},
                                              {"copy_floor_case", f.copy_floor_case},
                                              {"ceiling_cases", f.ceiling_cases},
                                              {"launch_case", f.launch_case},
                                              {"sweep_slower_case", f.sweep_slower_case},
                                              {"sweep_faster_case", f.sweep_faster_case},
                                              {"settle_tolerance", f.settle_tolerance}}},
                        {"claims", statements},
                        {"cards", cards}});
  }
  Json inputs = Json::array();
  for (const AggregateInput& input : aggregate.inputs) {
    Json entry{{"file", name_text(input.file.string())}, {"used", input.used()}};
    if (input.used()) {
      entry["lab"] = input.lab;
      entry["card"] = input.card;
    } else {
      entry["refused"] = input.refused;
      entry["not_a_transcript"] = input.not_a_transcript;
    }
    inputs.push_back(entry);
  }
  return Json{{"format", "labrun-aggregate"},
              {"format_version", kAggregateFormatVersion},
              {"labrun_version", build_info::labrun_version()},
              {"labs", labs},
              {"inputs", inputs}};
}

}  // namespace labrun
