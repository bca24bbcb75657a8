#include "aggregate/aggregate.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "evidence/transcript_file.hpp"
#include "timeline/timeline.hpp"

namespace labrun {
namespace {

namespace fs = std::filesystem;

std::string known_fact(const Transcript& t, const std::string& group, const std::string& key) {
  const FactGroup* facts = t.group(group);
  const Fact* fact = facts != nullptr ? facts->find(key) : nullptr;
  return fact != nullptr && fact->is_known() ? fact->display() : "";
}

std::string device_of(const Transcript& t) {
  const std::string name = known_fact(t, "device", "name");
  return name.empty() ? "unknown device" : name;
}

std::string timing_mode_of(const Transcript& t) {
  if (t.is_transcribed() || !t.timing) {
    return "published";
  }
  return t.timing->mode;
}

// Rows: transcribed references first (the lesson's own row), then measured cards, then synthetic.
int provenance_rank(const std::string& provenance) {
  if (provenance == "transcribed") {
    return 0;
  }
  return provenance == "measured" ? 1 : 2;
}

// What the aggregate keeps of a used run: a few facts and its figures, not its samples, so that
// hundreds of transcripts take little memory.
struct UsedRun {
  fs::path file;
  std::string lab_title;
  std::string device;
  std::string provenance;
  std::string source;  // transcribed only
  std::string uuid;    // "" when unknown
  std::string host;    // "" when unknown
  std::string timing_mode;
  std::vector<Prediction> predictions;  // the lab's, or the transcript's own when the build lacks the lab
  RunFigures figures;
  // Claims whose recorded verdict could not be confirmed (evidence/declaration_check.hpp): counted as
  // unchecked, never as evidence.
  std::set<std::string> unchecked_claims;
};

struct LabDeclarations {
  const Lab* lab = nullptr;
  std::vector<Prediction> predictions;
  CardFigures card_figures;
  std::vector<std::pair<std::string, std::string>> claims;  // id, statement, in order
  std::map<std::string, bool> expected_to_fail;
};

// What the aggregate needs of a lab: its declarations when this build has it, else what its
// transcripts record (their predictions and claims, in the order first met).
LabDeclarations declarations_for(const Lab* lab, const std::vector<const UsedRun*>& runs) {
  LabDeclarations found;
  found.lab = lab;
  if (lab != nullptr) {
    found.predictions = lab->predictions;
    found.card_figures = lab->card_figures;
    for (const ClaimSpec& claim : lab->claims) {
      found.claims.emplace_back(claim.id, claim.statement);
      found.expected_to_fail[claim.id] = claim.expected_to_fail;
    }
    return found;
  }
  std::set<std::string> seen_predictions;
  std::set<std::string> seen_claims;
  for (const UsedRun* run : runs) {
    for (const Prediction& p : run->predictions) {
      if (seen_predictions.insert(p.description).second) {
        found.predictions.push_back(p);
      }
    }
    for (const ClaimResult& c : run->figures.claims) {
      if (seen_claims.insert(c.id).second) {
        found.claims.emplace_back(c.id, c.statement);
        found.expected_to_fail[c.id] = c.expected_to_fail;
      }
    }
  }
  return found;
}

UsedRun used_run(const fs::path& file, const Transcript& t, const Lab* lab,
                 const DeclarationCheck& declaration) {
  UsedRun run;
  run.file = file;
  run.lab_title = t.lab_title;
  run.device = device_of(t);
  run.provenance = t.provenance;
  run.source = t.provenance_source;
  run.uuid = known_fact(t, "device", "uuid");
  run.host = known_fact(t, "host", "hostname");
  run.timing_mode = timing_mode_of(t);
  if (lab != nullptr) {
    run.predictions = lab->predictions;
  } else {
    for (const PredictionRecord& p : t.predictions) {
      run.predictions.push_back({p.description, p.slower_case, p.faster_case});
    }
  }
  run.figures = run_figures(t, lab != nullptr ? lab->card_figures : CardFigures{}, run.predictions,
                            lab != nullptr ? &lab->claims : nullptr);
  for (const ClaimResult& claim : run.figures.claims) {
    // A recorded verdict is evidence only once checked; one judged on reading (claims_for) is.
    if (t.claims_recorded && !declaration.claim_checked(claim.id)) {
      run.unchecked_claims.insert(claim.id);
    }
  }
  return run;
}

RunSpread spread_where(const std::vector<UsedRun>& runs,
                       const std::function<std::optional<double>(const RunFigures&)>& figure) {
  std::vector<double> values;
  for (const UsedRun& run : runs) {
    if (const std::optional<double> value = figure(run.figures)) {
      values.push_back(*value);
    }
  }
  return spread_of(std::move(values));
}

CardRow summarise_card(const std::vector<UsedRun>& runs, const LabDeclarations& lab) {
  CardRow row;
  const UsedRun& first = runs.front();
  row.device = first.device;
  row.provenance = first.provenance;
  row.label = row.provenance == "measured" ? row.device : row.device + " (" + row.provenance + ")";
  std::set<std::string> uuids;
  std::set<std::string> hosts;
  for (const UsedRun& run : runs) {
    row.transcripts.push_back(run.file);
    if (!run.source.empty() &&
        std::find(row.sources.begin(), row.sources.end(), run.source) == row.sources.end()) {
      row.sources.push_back(run.source);
    }
    if (!run.uuid.empty()) {
      uuids.insert(run.uuid);
    }
    if (!run.host.empty()) {
      hosts.insert(run.host);
    }
    ++row.timing_modes[run.timing_mode];
    const std::string& size = run.figures.bandwidth_size_label;
    if (!size.empty() && std::find(row.bandwidth_size_labels.begin(), row.bandwidth_size_labels.end(),
                                   size) == row.bandwidth_size_labels.end()) {
      row.bandwidth_size_labels.push_back(size);
    }
    row.swept_runs += run.figures.settling.swept ? 1 : 0;
  }
  row.gpus = uuids.size();
  row.hosts = hosts.size();
  row.copy_floor_gb_per_s = spread_where(runs, [](const RunFigures& f) { return f.copy_floor_gb_per_s; });
  row.ceiling_gb_per_s = spread_where(runs, [](const RunFigures& f) { return f.ceiling_gb_per_s; });
  row.peak_gb_per_s = spread_where(runs, [](const RunFigures& f) { return f.peak_gb_per_s; });
  row.share_of_peak = spread_where(runs, [](const RunFigures& f) { return f.share_of_peak; });
  row.launch_us = spread_where(runs, [](const RunFigures& f) { return f.launch_us; });
  row.settles_from_elements = spread_where(runs, [](const RunFigures& f) -> std::optional<double> {
    if (!f.settling.from_elements) {
      return std::nullopt;
    }
    return static_cast<double>(*f.settling.from_elements);
  });

  for (const Prediction& p : lab.predictions) {
    for (const std::string& size : lab.card_figures.size_labels) {
      RatioRow ratio;
      std::vector<double> measured;
      for (const UsedRun& run : runs) {
        for (const MeasuredRatio& m : run.figures.ratios) {
          if (m.description == p.description && m.size_label == size) {
            ratio.byte_ratio = m.byte_ratio;
            ratio.launch_ratio = m.launch_ratio;
            measured.push_back(m.measured);
          }
        }
      }
      if (measured.empty()) {
        continue;
      }
      ratio.description = p.description;
      ratio.size_label = size;
      ratio.measured = spread_of(std::move(measured));
      row.ratios.push_back(std::move(ratio));
    }
  }

  for (const auto& claim : lab.claims) {
    const std::string& id = claim.first;
    ClaimTally tally;
    tally.id = id;
    tally.statement = claim.second;
    tally.expected_to_fail = lab.expected_to_fail.at(id);
    for (const UsedRun& run : runs) {
      const auto found = std::find_if(run.figures.claims.begin(), run.figures.claims.end(),
                                      [&](const ClaimResult& c) { return c.id == id; });
      if (found != run.figures.claims.end() && run.unchecked_claims.count(id) > 0) {
        ++tally.unchecked;
      } else if (found == run.figures.claims.end() || found->verdict == Verdict::kNotMeasured) {
        ++tally.not_measured;
      } else if (found->verdict == Verdict::kHeld) {
        ++tally.held;
      } else if (found->verdict == Verdict::kInconclusive) {
        ++tally.inconclusive;
      } else {
        ++tally.failed;
      }
    }
    row.claims.push_back(std::move(tally));
  }
  return row;
}

}  // namespace

double RunSpread::relative_spread() const {
  return runs > 1 && median != 0.0 ? (max - min) / median : 0.0;
}

RunSpread spread_of(std::vector<double> values) {
  RunSpread spread;
  if (values.empty()) {
    return spread;
  }
  std::sort(values.begin(), values.end());
  spread.runs = values.size();
  spread.min = values.front();
  spread.max = values.back();
  const std::size_t middle = values.size() / 2;
  spread.median = values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
  return spread;
}

std::size_t ClaimTally::measured() const {
  return held + failed + inconclusive;
}

std::string ClaimTally::verdict() const {
  if (measured() == 0) {
    return "not measured";
  }
  if (held == measured()) {
    return "held";
  }
  if (failed == measured()) {
    return "failed";
  }
  return inconclusive == measured() ? "inconclusive" : "mixed";
}

std::string ClaimTally::summary() const {
  if (unchecked > 0 && measured() == 0 && not_measured == 0) {
    return "recorded, unchecked " + std::to_string(unchecked) + "/" + std::to_string(unchecked);
  }
  std::string text = measured_summary();
  if (unchecked > 0) {
    text += " (" + std::to_string(unchecked) + " recorded, unchecked)";
  }
  return text;
}

std::string ClaimTally::measured_summary() const {
  const std::string measured = std::to_string(this->measured());
  std::string v = verdict();
  if (inconclusive > 0) {
    // Schema 1.6.0 on: every verdict counted, the ones no run reached left out.
    if (v == "inconclusive") {
      return "inconclusive " + std::to_string(inconclusive) + "/" + measured;
    }
    std::string counts;
    for (const auto& [count, name] : {std::pair<std::size_t, const char*>{held, "held"},
                                      {failed, "failed"},
                                      {inconclusive, "inconclusive"}}) {
      if (count > 0) {
        counts += (counts.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(count);
      }
    }
    return "mixed: " + counts + " of " + measured;
  }
  if (v == "held") {
    return "held " + std::to_string(held) + "/" + measured;
  }
  if (v == "failed") {
    return "failed " + std::to_string(failed) + "/" + measured;
  }
  if (v == "mixed") {
    return "mixed: held " + std::to_string(held) + " of " + measured;
  }
  return v;
}

const RatioRow* CardRow::ratio(const std::string& description, const std::string& size_label) const {
  const auto found = std::find_if(ratios.begin(), ratios.end(), [&](const RatioRow& r) {
    return r.description == description && r.size_label == size_label;
  });
  return found != ratios.end() ? &*found : nullptr;
}

std::vector<std::pair<std::string, std::string>> LabAggregate::measured_ratios() const {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const Prediction& p : predictions) {
    for (const std::string& size : figures.size_labels) {
      if (std::any_of(cards.begin(), cards.end(),
                      [&](const CardRow& card) { return card.ratio(p.description, size) != nullptr; })) {
        pairs.emplace_back(p.description, size);
      }
    }
  }
  return pairs;
}

std::size_t CardRow::claims_held() const {
  return static_cast<std::size_t>(
      std::count_if(claims.begin(), claims.end(), [](const ClaimTally& c) { return c.verdict() == "held"; }));
}

std::size_t CardRow::claims_measured() const {
  return static_cast<std::size_t>(
      std::count_if(claims.begin(), claims.end(), [](const ClaimTally& c) { return c.measured() > 0; }));
}

std::size_t Aggregate::used() const {
  return static_cast<std::size_t>(
      std::count_if(inputs.begin(), inputs.end(), [](const AggregateInput& i) { return i.used(); }));
}

std::vector<AggregateFile> aggregate_files(const std::vector<fs::path>& paths) {
  std::vector<AggregateFile> files;
  for (const fs::path& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      files.push_back({path, false});
      continue;
    }
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error)) {
      if (named_as_transcript(it->path()) && !is_trace_file(it->path().filename().string()) &&
          it->is_regular_file(error)) {
        found.push_back(it->path());
      }
    }
    std::sort(found.begin(), found.end());
    for (fs::path& file : found) {
      files.push_back({std::move(file), true});
    }
  }
  return files;
}

std::string run_identity(const Transcript& t) {
  std::string identity = t.lab_name + "\n" + t.provenance + "\n";
  if (t.is_transcribed()) {
    return identity + t.provenance_source + "\n" + t.provenance_note;
  }
  identity += device_of(t) + "\n" + known_fact(t, "device", "uuid") + "\n" +
              known_fact(t, "host", "hostname") + "\n" + t.started_utc + "\n" + t.finished_utc + "\n" +
              std::to_string(t.seed);
  for (const std::string& argument : t.command_line) {
    identity += "\n" + argument;
  }
  return identity;
}

namespace {

// One file read and checked, with what the rules below need of it; the transcript itself is not
// kept. Reading is the slow part (parsing, validating), so files are read in parallel.
struct ReadFile {
  AggregateInput input;
  std::optional<UsedRun> run;
  std::string identity;
  std::string timing_mode;
  bool smoke = false;
  bool transcribed = false;
};

ReadFile read_one(const AggregateFile& file, const LabLookup& labs) {
  ReadFile read;
  read.input.file = file.path;
  const TranscriptCheck check = check_transcript_file(file.path, labs);
  if (!check.transcript) {
    read.input.refused = check.problem;
    read.input.not_a_transcript = check.not_a_transcript && file.in_folder;
    return read;
  }
  const Transcript& t = *check.transcript;
  read.input.lab = t.lab_name;
  read.identity = run_identity(t);
  read.timing_mode = timing_mode_of(t);
  read.smoke = t.configuration == "smoke";
  read.transcribed = t.is_transcribed();
  read.run = used_run(file.path, t, labs ? labs(t.lab_name) : nullptr, check.declaration);
  return read;
}

std::vector<ReadFile> read_all(const std::vector<AggregateFile>& files, const LabLookup& labs) {
  std::vector<ReadFile> read(files.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      read[i] = read_one(files[i], labs);
    }
  };
  const std::size_t threads =
      std::min<std::size_t>({std::max(1U, std::thread::hardware_concurrency()), 8, files.size()});
  std::vector<std::thread> workers;
  for (std::size_t i = 1; i < threads; ++i) {
    workers.emplace_back(work);
  }
  work();
  for (std::thread& worker : workers) {
    worker.join();
  }
  return read;
}

}  // namespace

Aggregate aggregate_transcripts(const std::vector<AggregateFile>& files, const AggregateOptions& options,
                                const LabLookup& labs) {
  Aggregate result;
  std::map<std::string, fs::path> first_of_run;
  // lab -> (provenance rank, device, provenance) -> runs, so that rows come out in their order
  std::map<std::string, std::map<std::tuple<int, std::string, std::string>, std::vector<UsedRun>>> grouped;
  std::map<std::string, const Lab*> lab_of;
  // The rules apply in the order the files were given, so that the first of two copies is kept.
  for (ReadFile& read : read_all(files, labs)) {
    AggregateInput& input = read.input;
    const std::string name = input.file.string();
    if (read.run && read.smoke) {
      input.refused = name + ": a smoke run (sizes capped, at most 3 samples): its figures are not evidence";
    } else if (read.run && !options.timing_mode.empty() && !read.transcribed &&
               read.timing_mode != options.timing_mode) {
      input.refused = name + ": sampled " + read.timing_mode + ", not " + options.timing_mode + " (--timing)";
    } else if (read.run) {
      if (const auto [first, inserted] = first_of_run.emplace(read.identity, input.file); !inserted) {
        input.refused = name + ": a duplicate of " + first->second.string() + " (the same run)";
      }
    }
    if (input.used()) {
      UsedRun& run = *read.run;
      lab_of.emplace(input.lab, labs ? labs(input.lab) : nullptr);
      input.card = run.provenance == "measured" ? run.device : run.device + " (" + run.provenance + ")";
      grouped[input.lab][{provenance_rank(run.provenance), run.device, run.provenance}].push_back(
          std::move(run));
    }
    result.inputs.push_back(std::move(input));
  }

  for (const auto& [lab_name, cards] : grouped) {
    std::vector<const UsedRun*> all;
    for (const auto& [key, runs] : cards) {
      for (const UsedRun& run : runs) {
        all.push_back(&run);
      }
    }
    const LabDeclarations declarations = declarations_for(lab_of.at(lab_name), all);
    LabAggregate lab;
    lab.name = lab_name;
    lab.known = declarations.lab != nullptr;
    lab.title = lab.known ? declarations.lab->title : all.front()->lab_title;
    lab.figures = declarations.card_figures;
    lab.predictions = declarations.predictions;
    for (const auto& [key, runs] : cards) {
      lab.cards.push_back(summarise_card(runs, declarations));
    }
    result.labs.push_back(std::move(lab));
  }
  return result;
}

}  // namespace labrun
