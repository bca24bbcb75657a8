// Every registered output exercise (exercise/output_exercise.hpp), judged on what a grading child
// could have measured (synthetic records, as the child writes them): a correct kernel earns full
// marks, and the harness's facts name its mistakes; and the judge's naming of a declared exercise's
// classic mistakes, on a declaration of the test's own.

#include "exercise/output_exercise.hpp"

#include <catch2/catch_test_macros.hpp>
#include <functional>
#include <set>
#include <string>
#include <tuple>

#include "exercise/judge.hpp"
#include "support/exercises.hpp"

namespace {

using Change = std::function<void(labrun::OutputRecord&)>;

// The records of every probe at both sizes, all right; `change` applied to the first call's record, or
// to every call's where every_call is set (the change may look at r.probe).
std::vector<nlohmann::ordered_json> output_records(const labrun::Exercise& ex, const Change& change,
                                                   bool every_call) {
  std::vector<nlohmann::ordered_json> records;
  int call = 0;
  for (const auto& [size, n] :
       {std::tuple{"odd", ex.odd_elements}, std::tuple{"card-scaled", ex.lesson_elements}}) {
    const labrun::Shape image = ex.image_at(n).value_or(labrun::Shape{n, 1});
    for (const std::string& probe : labrun::kOutputProbes) {
      labrun::OutputRecord r;
      r.size_label = size;
      r.probe = probe;
      r.width = image.width;
      r.height = image.height;
      r.elements = image.elements();
      r.call = ++call;
      if (change && (every_call || call == 1)) {
        change(r);
      }
      records.push_back(labrun::to_json(r));
    }
  }
  return records;
}

// A submission of `ex` with the worked answer right and everything measured right but `change`.
labrun::JudgeInput output_input(const labrun::Exercise& ex, const Change& change = {},
                                bool every_call = false) {
  labrun::JudgeInput in;
  in.submission = "submission.cu";
  labrun::Manifest m;
  m.student_id = "s1";
  m.exercise = ex.name;
  m.answers = {{ex.bytes_key, ex.model.submission.bytes_per_element()},
               {ex.launches_key, static_cast<double>(ex.model.submission.launches)}};
  for (std::size_t p = 0; p < ex.predictions.size(); ++p) {
    m.answers[ex.predictions[p].key] = ex.model.ratio(p);
  }
  in.manifest = m;
  in.compiled = true;
  in.child = labrun::ProcessResult{true, false, 0, 0, 2.0, "", 0};
  labrun::ChildResults results;
  results.completed = true;
  labrun::KernelInfo kernel{ex.kernels.front().name, true, {}, 24, 0, 1024, ""};
  for (const labrun::ContractParameter& parameter : ex.kernels.front().parameters) {
    kernel.parameter_bytes.push_back(parameter.bytes);
  }
  results.kernels = {kernel};
  results.probes = output_records(ex, change, every_call);
  labrun::TimingResult timing;
  timing.elements = ex.lesson_elements;
  timing.samples = 30;
  timing.pair_ms = 1.0;
  for (const labrun::LabCaseTiming& lab_case : ex.lab_cases) {
    timing.lab.medians.emplace_back(lab_case.key, 1.0);
  }
  results.timing = timing;
  in.results = results;
  in.sanitizer_available = true;
  in.sanitizers = {{"memcheck", true, "ERROR SUMMARY: 0 errors"}};
  in.run_limit_seconds = 60.0;
  return in;
}

std::set<std::string> mistakes_of(const labrun::GradeReport& report) {
  std::set<std::string> ids;
  for (const labrun::NamedMistake& m : report.mistakes) {
    ids.insert(m.id);
  }
  return ids;
}

std::vector<const labrun::Exercise*> output_exercises() {
  std::vector<const labrun::Exercise*> found;
  for (const labrun::Exercise* ex : labrun::testing::registered_exercises()) {
    if (ex->probes == labrun::kOutputProbes) {
      found.push_back(ex);
    }
  }
  REQUIRE_FALSE(found.empty());
  return found;
}

}  // namespace

TEST_CASE("every output exercise: a correct kernel earns full marks, the harness's facts name mistakes") {
  for (const labrun::Exercise* ex : output_exercises()) {
    INFO(ex->full_name());
    const labrun::GradeReport right = labrun::judge(*ex, output_input(*ex));
    CHECK(mistakes_of(right).empty());
    CHECK(right.score() == right.max_score());
    const auto named = [&](const Change& change) {
      return mistakes_of(labrun::judge(*ex, output_input(*ex, change)));
    };
    CHECK(named([](labrun::OutputRecord& r) { r.guard_elements_changed = 1; }) ==
          std::set<std::string>{"write-past-n"});
    CHECK(named([](labrun::OutputRecord& r) { r.input_changed = true; }) ==
          std::set<std::string>{"input-modified"});
    CHECK(named([](labrun::OutputRecord& r) { r.launches_writing_outside = 1; }) ==
          std::set<std::string>{"write-outside-buffers"});
    CHECK(named([](labrun::OutputRecord& r) { r.mismatches = r.unwritten = r.elements; }) ==
          std::set<std::string>{"output-unwritten"});
  }
}

TEST_CASE("an output exercise's classic mistakes are named by their classes, else wrong-output") {
  labrun::OutputDeclaration declared;
  declared.class_mistakes = {{"threshold-inclusive", 1, 1, "compare with >"},
                             {"edge-off-by-one", 0, -1, "clamp the neighbours"}};
  declared.materialised = {{"magnitude-materialised", 0.25, "keep it in a register"}};
  declared.element_noun = "pixel";
  const labrun::Exercise& ex = *output_exercises().front();
  const auto named = [&](const Change& change, bool every_call = false) {
    labrun::JudgeInput in = output_input(ex, change, every_call);
    labrun::GradeReport report;
    labrun::Judgement judgement;
    labrun::ProbeJudging judging{report, *in.results, judgement};
    labrun::judge_output_probes(declared, judging);
    return mistakes_of(report);
  };
  CHECK(named([](labrun::OutputRecord& r) { r.mismatches = r.class_mismatches[1] = r.class_set[1] = 40; }) ==
        std::set<std::string>{"threshold-inclusive"});
  // On the threshold but cleared, not set: not >= for >.
  CHECK(named([](labrun::OutputRecord& r) { r.mismatches = r.class_mismatches[1] = 40; }) ==
        std::set<std::string>{"wrong-output"});
  CHECK(named([](labrun::OutputRecord& r) { r.mismatches = r.class_mismatches[0] = 20; }) ==
        std::set<std::string>{"edge-off-by-one"});
  CHECK(named([](labrun::OutputRecord& r) {
          r.mismatches = 30;
          r.class_mismatches[0] = 20;
        }) == std::set<std::string>{"wrong-output"});
  // Right in the first call and wrong in later ones: a class the first call's inputs left empty names
  // its mistake (the H200, 2026-12-03: threshold-inclusive at 16384 x 8192); anything else is a
  // later call's own wrong answer.
  CHECK(named(
            [](labrun::OutputRecord& r) {
              if (r.probe != "alone") {
                r.mismatches = r.class_mismatches[1] = r.class_set[1] = 40;
              }
            },
            true) == std::set<std::string>{"threshold-inclusive"});
  CHECK(named(
            [](labrun::OutputRecord& r) {
              if (r.probe != "alone") {
                r.mismatches = 30;
              }
            },
            true) == std::set<std::string>{"wrong-on-later-calls"});
  CHECK(named([](labrun::OutputRecord& r) { r.own_words_written = r.elements; }) ==
        std::set<std::string>{"magnitude-materialised"});
  CHECK(named([](labrun::OutputRecord& r) { r.own_words_written = r.elements / 8; }).empty());
}

TEST_CASE("an output record with counts no call can have is refused") {
  labrun::OutputRecord r;
  r.elements = 10;
  r.mismatches = 11;
  CHECK_THROWS(labrun::output_record_from_json(labrun::to_json(r)));
  r.mismatches = 1;
  CHECK(labrun::output_record_from_json(labrun::to_json(r)).mismatches == 1);
}
