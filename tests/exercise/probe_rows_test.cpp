// The frame every exercise's probe rows are judged in (exercise/probe_rows.hpp), on a record type of
// the test's own (synthetic records): which rows it fills from which records, when a probe is
// missing, and the rule that a timed call's record is judged only where every checked call was right.

#include "exercise/probe_rows.hpp"

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::ordered_json;

struct Probe {
  std::string size_label;
  std::string probe;
  bool right = true;
};

Json record(const std::string& size, const std::string& probe, bool right = true) {
  return Json{{"size_label", size}, {"probe", probe}, {"right", right}};
}

const std::vector<std::string> kProbes{"alone", "planted"};

// What the test's judges saw, by row.
struct Seen {
  std::vector<std::string> structure;  // "size/probe" of each record the structure was judged on
  std::size_t buffers = 0;
};

labrun::ProbeRowJudges<Probe> judges(Seen& seen) {
  labrun::ProbeRowJudges<Probe> j;
  j.read = [](const Json& r) {
    return Probe{r.at("size_label").get<std::string>(), r.at("probe").get<std::string>(),
                 r.at("right").get<bool>()};
  };
  j.output_wrong = [](const Probe& p) { return p.probe != "planted" && !p.right; };
  j.size = [](labrun::GradeReport&, const std::vector<Probe>& records, const std::string& size, bool,
              std::string& finding) {
    const Probe* alone = labrun::record_at(records, size, "alone");
    if (alone == nullptr) {
      return false;
    }
    finding = size + (alone->right ? " right" : " wrong");
    return alone->right;
  };
  j.structure = [&seen](labrun::GradeReport&, const std::vector<Probe>& records, std::string& finding) {
    seen.structure.clear();
    bool good = true;
    for (const Probe& p : records) {
      seen.structure.push_back(p.size_label + "/" + p.probe);
      good = good && (p.probe != "planted" || p.right) && p.probe != "timed";
    }
    finding = good ? "structure good" : "structure broken";
    return good;
  };
  j.buffers = [&seen](labrun::GradeReport&, const std::vector<Probe>& records, std::string& finding) {
    seen.buffers = records.size();
    finding = "buffers good";
    return true;
  };
  return j;
}

labrun::ChildResults every_probe(bool alone_right = true) {
  labrun::ChildResults results;
  for (const char* size : {"odd", "card-scaled"}) {
    results.probes.push_back(record(size, "alone", alone_right));
    results.probes.push_back(record(size, "planted"));
  }
  return results;
}

void with_broken_timed_call(labrun::ChildResults& results) {
  results.timing = labrun::TimingResult{};
  results.timing->first_broken_sample = record("card-scaled", "timed", false);
}

labrun::Judgement judged(const labrun::ChildResults& results, Seen& seen) {
  labrun::GradeReport report;
  labrun::Judgement j;
  j.not_run = "not run";
  labrun::ProbeJudging in{report, results, j};
  labrun::judge_probe_rows(kProbes, in, judges(seen));
  return j;
}

}  // namespace

TEST_CASE("record_at finds a record by size and probe, and nothing for one the run did not write") {
  const std::vector<Probe> records{{"odd", "alone", true}, {"card-scaled", "alone", false}};
  REQUIRE(labrun::record_at(records, "card-scaled", "alone") == &records[1]);
  CHECK(labrun::record_at(records, "odd", "planted") == nullptr);
}

TEST_CASE("every row is filled from the probes when every probe ran at both sizes") {
  Seen seen;
  const labrun::Judgement j = judged(every_probe(), seen);
  CHECK(j.outcome.odd_right);
  CHECK(j.outcome.card_right);
  CHECK(j.outcome.structure_right);
  CHECK(j.outcome.buffers_right);
  CHECK(j.output.at(labrun::Check::kOddSize) == "odd right");
  CHECK(j.output.at(labrun::Check::kCardSize) == "card-scaled right");
  CHECK(j.output.at(labrun::Check::kStructure) == "structure good");
  CHECK(seen.buffers == 4);
}

TEST_CASE("a probe missing leaves its size not run and the structure and buffers not judged right") {
  labrun::ChildResults results = every_probe();
  results.probes.pop_back();                         // card-scaled planted
  results.probes.erase(results.probes.begin() + 2);  // card-scaled alone
  Seen seen;
  const labrun::Judgement j = judged(results, seen);
  CHECK(j.outcome.odd_right);
  CHECK_FALSE(j.outcome.card_right);
  CHECK(j.output.at(labrun::Check::kCardSize) == "not run");
  CHECK_FALSE(j.outcome.structure_right);
  CHECK_FALSE(j.outcome.buffers_right);
  CHECK(j.output.at(labrun::Check::kStructure).rfind("not all measured", 0) == 0);
  CHECK_FALSE(labrun::every_probe_ran(kProbes, std::vector<Probe>{}));
}

TEST_CASE(
    "a timed call that broke the contract is judged for the structure where every checked call was right") {
  labrun::ChildResults results = every_probe();
  with_broken_timed_call(results);
  Seen seen;
  const labrun::Judgement j = judged(results, seen);
  REQUIRE(seen.structure.size() == 5);
  CHECK(seen.structure.back() == "card-scaled/timed");
  CHECK_FALSE(j.outcome.structure_right);
  CHECK(seen.buffers == 4);  // the buffers are the probes' alone
}

TEST_CASE("a timed call's record is not judged where a checked call's output was already wrong") {
  labrun::ChildResults results = every_probe(false);
  with_broken_timed_call(results);
  Seen seen;
  const labrun::Judgement j = judged(results, seen);
  CHECK(seen.structure.size() == 4);
  CHECK(j.outcome.structure_right);
  CHECK_FALSE(j.outcome.odd_right);
  REQUIRE(labrun::timed_record_to_judge(results, false).has_value());
  CHECK_FALSE(labrun::timed_record_to_judge(results, true).has_value());
}

TEST_CASE("a planted probe whose check is the structure's does not keep a timed call from being judged") {
  labrun::ChildResults results = every_probe();
  results.probes[1] = record("odd", "planted", false);
  with_broken_timed_call(results);
  Seen seen;
  static_cast<void>(judged(results, seen));
  CHECK(seen.structure.size() == 5);
}
