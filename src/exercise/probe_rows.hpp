#pragma once
// The rows every exercise's probes fill (the odd size, the card size, the structure, the buffers),
// judged from the exercise's own records by the same frame for every exercise: the records read,
// each size judged, the structure judged on the probes and on the first timed call that broke the
// contract (under the rule below), the buffers on the probes, and each row's finding. An exercise
// gives the judges of its rows; this owns the order, the verdicts and the rule.
//
// Host logic only.

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "exercise/child_protocol.hpp"
#include "exercise/exercise.hpp"
#include "exercise/judge.hpp"
#include "grading/report.hpp"

namespace labrun {

//! The record of probe `probe` at size `size_label` ("odd", "card-scaled"); nullptr when the run
//! wrote none. Record has members size_label and probe.
template <typename Record>
[[nodiscard]] const Record* record_at(const std::vector<Record>& records, const std::string& size_label,
                                      const std::string& probe) {
  for (const Record& r : records) {
    if (r.size_label == size_label && r.probe == probe) {
      return &r;
    }
  }
  return nullptr;
}

//! The first timed call that broke the contract, to be judged for the structure beside the probes;
//! nullopt when there is none, or when a checked call's output was already wrong. A timed call's
//! record names only behaviour that changes when timed: where a call that was not timed was already
//! wrong, what the timed call left (an intermediate, partial results) follows from that mistake and
//! is not named again.
[[nodiscard]] inline std::optional<nlohmann::ordered_json> timed_record_to_judge(const ChildResults& results,
                                                                                 bool checked_call_wrong) {
  if (checked_call_wrong || !results.timing || !results.timing->first_broken_sample) {
    return std::nullopt;
  }
  return results.timing->first_broken_sample;
}

//! An exercise's judges of its probe rows, over its own record type.
template <typename Record>
struct ProbeRowJudges {
  //! One record from the child's results; throws when it is not one.
  std::function<Record(const nlohmann::ordered_json&)> read;
  //! Whether a probe's record shows the output wrong, in a call whose output is checked (the rule of
  //! timed_record_to_judge). A probe that checks the structure (a planted one) may answer false.
  std::function<bool(const Record&)> output_wrong;
  //! The output at one size, from every record: whether it is right; `finding` is set only where
  //! the size was measured (it is left saying "not run" otherwise). `odd_right` is the odd size's
  //! verdict, for the card size's judge. Names its mistakes in the report.
  std::function<bool(GradeReport&, const std::vector<Record>&, const std::string& size_label, bool odd_right,
                     std::string& finding)>
      size;
  //! The structure, from the probes' records and the timed call's where the rule admits it (last).
  std::function<bool(GradeReport&, const std::vector<Record>&, std::string& finding)> structure;
  //! The buffers, from the probes' records.
  std::function<bool(GradeReport&, const std::vector<Record>&, std::string& finding)> buffers;
};

//! Whether every probe (Exercise::probes) ran at both sizes: a run that stopped early leaves some out.
template <typename Record>
[[nodiscard]] bool every_probe_ran(const std::vector<std::string>& probes,
                                   const std::vector<Record>& records) {
  for (const char* size : {"odd", "card-scaled"}) {
    for (const std::string& probe : probes) {
      if (record_at(records, size, probe) == nullptr) {
        return false;
      }
    }
  }
  return true;
}

//! Fills the judgement's probe rows from the records the child wrote. The structure and the
//! buffers are measured in every probe, and judged right only once every one of `probes`
//! (Exercise::probes) ran at both sizes.
template <typename Record>
void judge_probe_rows(const std::vector<std::string>& probes, ProbeJudging& in,
                      const ProbeRowJudges<Record>& judges) {
  Judgement& j = in.judgement;
  std::vector<Record> records;
  records.reserve(in.results.probes.size() + 1);
  for (const nlohmann::ordered_json& record : in.results.probes) {
    records.push_back(judges.read(record));
  }
  std::string odd = j.not_run;
  std::string card = j.not_run;
  j.outcome.odd_right = judges.size(in.report, records, "odd", false, odd);
  j.outcome.card_right = judges.size(in.report, records, "card-scaled", j.outcome.odd_right, card);
  j.output[Check::kOddSize] = odd;
  j.output[Check::kCardSize] = card;
  const bool any = !records.empty();
  const bool every = every_probe_ran(probes, records);
  bool checked_wrong = false;
  for (const Record& r : records) {
    checked_wrong = checked_wrong || judges.output_wrong(r);
  }
  std::vector<Record> with_timed = records;
  if (const auto timed = timed_record_to_judge(in.results, checked_wrong)) {
    with_timed.push_back(judges.read(*timed));
  }
  std::string structure;
  const bool structure_good = any && judges.structure(in.report, with_timed, structure);
  j.outcome.structure_right = every && structure_good;
  j.output[Check::kStructure] = j.probe_finding(any, every, structure_good, structure);
  std::string buffers;
  const bool buffers_good = any && judges.buffers(in.report, records, buffers);
  j.outcome.buffers_right = every && buffers_good;
  j.output[Check::kBuffers] = j.probe_finding(any, every, buffers_good, buffers);
}

}  // namespace labrun
