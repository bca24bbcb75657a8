#pragma once
// `labrun aggregate`: transcripts of one or more labs, run on many cards, summarised as one row per
// card: runs, the predicted ratios measured (median over the card's runs, with their spread), each
// claim's verdict and how many runs held it, the copy floor and ceiling, the share of peak, the
// cost of a launch and the size from which a swept pair settles at its byte ratio. Invalid, smoke
// and duplicate runs are left out, each with its reason. Plain data, rendered by the writers beside
// this file (Markdown, JSON, CSV) and the plot specs (aggregate/plots.hpp).

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "aggregate/run_figures.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! Version of the aggregate's JSON output (semantic versioning), written in its "format_version".
//! 1.1.0 added each claim's count of inconclusive runs (transcript schema 1.6.0); 1.2.0 each claim's
//! count of runs whose recorded verdict is unchecked (evidence/declaration_check.hpp).
inline constexpr const char* kAggregateFormatVersion = "1.2.0";

//! One file given to aggregate, and what became of it.
struct AggregateInput {
  std::filesystem::path file;
  std::string lab;      //!< the transcript's lab, when it could be read
  std::string card;     //!< the row it went to (CardRow::label), when used
  std::string refused;  //!< why it was left out, in one line; empty when used
  //! Found in a folder and not a transcript at all (a comparison, a grade report, a schema): left
  //! out without a line of its own.
  bool not_a_transcript = false;
  [[nodiscard]] bool used() const { return refused.empty(); }
};

//! A figure over a card's runs: how many runs gave it, their median, smallest and largest.
struct RunSpread {
  std::size_t runs = 0;
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  [[nodiscard]] bool measured() const { return runs > 0; }
  //! (max - min) / median; 0 for fewer than two runs.
  [[nodiscard]] double relative_spread() const;
};
//! The spread of `values`; the median of an even count is the mean of the middle two.
[[nodiscard]] RunSpread spread_of(std::vector<double> values);

//! A predicted ratio, measured on each of a card's runs at one size.
struct RatioRow {
  std::string description;
  std::string size_label;
  double byte_ratio = 0.0;
  double launch_ratio = 0.0;
  RunSpread measured;
};

//! A claim's verdicts over a card's runs.
struct ClaimTally {
  std::string id;
  std::string statement;
  bool expected_to_fail = false;
  std::size_t held = 0;
  std::size_t failed = 0;
  std::size_t inconclusive = 0;  //!< runs whose verdict was inconclusive (schema 1.6.0 on)
  std::size_t not_measured = 0;  //!< runs that did not measure it, or whose transcript lacks the claim
  //! Runs whose recorded verdict could not be confirmed (an older version's claim judged by other
  //! rules, a lab this labrun does not know: evidence/declaration_check.hpp): never counted as held,
  //! failed or inconclusive.
  std::size_t unchecked = 0;
  //! Runs that measured it: held, failed or inconclusive.
  [[nodiscard]] std::size_t measured() const;
  //! "held" (every run that measured it held it), "failed" (every one failed it), "inconclusive"
  //! (every one was inconclusive), "mixed", "not measured".
  [[nodiscard]] std::string verdict() const;
  //! "held 3/3", "failed 2/2", "inconclusive 2/2", "mixed: held 1 of 3" (no run inconclusive),
  //! "mixed: held 2, inconclusive 1 of 3", "not measured"; with " (2 recorded, unchecked)" after it
  //! when runs' verdicts were unchecked.
  [[nodiscard]] std::string summary() const;
  //! summary() without the unchecked runs.
  [[nodiscard]] std::string measured_summary() const;
};

//! One card: every used run of one lab on one device model, of one provenance.
struct CardRow {
  std::string device;      //!< the device's name fact; "unknown device" when it has none
  std::string provenance;  //!< "measured", "transcribed" or "synthetic": rows never mix them
  std::string label;       //!< the device, with "(transcribed)" or "(synthetic)" when not measured
  std::vector<std::filesystem::path> transcripts;
  std::vector<std::string> sources;                 //!< transcribed rows: where their figures come from
  std::size_t gpus = 0;                             //!< distinct known device UUIDs among the runs
  std::size_t hosts = 0;                            //!< distinct known host names among the runs
  std::map<std::string, std::size_t> timing_modes;  //!< runs per timing mode ("published" when transcribed)
  std::vector<std::string> bandwidth_size_labels;   //!< sizes the GB/s figures were read at, as met
  RunSpread copy_floor_gb_per_s;
  RunSpread ceiling_gb_per_s;
  RunSpread peak_gb_per_s;
  RunSpread share_of_peak;
  RunSpread launch_us;
  RunSpread settles_from_elements;  //!< over the runs whose sweep settled
  std::size_t swept_runs = 0;       //!< runs that timed the swept pair at two sizes or more
  std::vector<RatioRow> ratios;     //!< in the lab's prediction order, then size order
  std::vector<ClaimTally> claims;   //!< in the lab's claim order
  [[nodiscard]] std::size_t runs() const { return transcripts.size(); }
  //! The ratio of prediction `description` at `size_label`; nullptr when no run measured it.
  [[nodiscard]] const RatioRow* ratio(const std::string& description, const std::string& size_label) const;
  //! Claims held in every run that measured them, and claims measured by at least one run.
  [[nodiscard]] std::size_t claims_held() const;
  [[nodiscard]] std::size_t claims_measured() const;
};

struct LabAggregate {
  std::string name;
  std::string title;
  bool known = false;   //!< the lab is part of this build (its claims and card figures are known)
  CardFigures figures;  //!< the lab's declaration of its card figures (empty when not known)
  std::vector<Prediction> predictions;  //!< the lab's, or what its transcripts record, in order
  std::vector<CardRow> cards;           //!< transcribed rows first, then measured, then synthetic; by device
  //! The (prediction, size label) pairs any card measured, in prediction order, then size preference.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> measured_ratios() const;
};

struct Aggregate {
  std::vector<AggregateInput> inputs;  //!< every file considered, in the order read
  std::vector<LabAggregate> labs;      //!< by lab name
  [[nodiscard]] std::size_t used() const;
};

struct AggregateOptions {
  std::string timing_mode;  //!< "" for every mode; else only runs sampled in it ("hot", "cold", "hot-gated")
};

//! A file to read, and whether it was found in a folder (rather than named).
struct AggregateFile {
  std::filesystem::path path;
  bool in_folder = false;
};

//! The files to read: each file as named, each folder's *.json and *.json.gz files (recursively, sorted by
//! path). A path that does not exist is kept, to be refused by name.
[[nodiscard]] std::vector<AggregateFile> aggregate_files(const std::vector<std::filesystem::path>& paths);

//! Reads, checks and summarises `files`. A file found in a folder that is not a transcript at all
//! (a comparison, a grade report, a schema) is left out quietly; a named one is refused.
[[nodiscard]] Aggregate aggregate_transcripts(const std::vector<AggregateFile>& files,
                                              const AggregateOptions& options, const LabLookup& labs);

//! A run's identity: equal for two files of the same run (a copy, the same file named twice).
[[nodiscard]] std::string run_identity(const Transcript& transcript);

}  // namespace labrun
