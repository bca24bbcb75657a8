// fusion-verdicts' sum-of-squares exercise without a GPU: its judge on what the grading child would
// record (src/exercise/reduction_exercise.cpp, as labs/fusion-verdicts/grading/exercise.cpp declares
// it, inside the harness's judge()), and
// its public corpus (labs/fusion-verdicts/grading/corpus): every folder states its expected verdict,
// the text check refuses exactly the literal escapes, and every folder of both exercises' corpora
// is graded as its own exercise, as a mixed batch grades them. The GPU test grades the corpus.

#include "exercise/reduction_exercise.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "base/atomic_file.hpp"
#include "cli/command_support.hpp"
#include "exercise/judge.hpp"
#include "exercise/submission_build.hpp"
#include "grading/source_check.hpp"
#include "runner/runner.hpp"
#include "support/exercises.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using SumProbe = labrun::ReductionRecord;

namespace {

constexpr std::uint64_t kSumOdd = 1049187;
constexpr std::uint64_t kSumCard = 134217728;

fs::path sum_corpus() {
  return labrun::testing::exercise_corpus("fusion-verdicts");
}

std::uint32_t float_bits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// A right probe as the child records it: the sum stored exactly (on counted inputs every correct sum
// is the reference, bit for bit, and a whole number of sixteenths), its partials written and adding
// up. repeat has the inputs of alone, so its sum.
SumProbe right_probe(const std::string& size, std::uint64_t n, const std::string& kind, int call) {
  SumProbe p;
  p.size_label = size;
  p.probe = kind;
  p.elements = n;
  p.call = call;
  p.blocks = (n + 255) / 256;
  const double base = size == "odd" ? 150000.1875 : 152000.3125;  // as counted inputs' sums are
  const int draw = kind == "repeat" ? (size == "odd" ? 1 : 5) : call;
  p.expected = kind == "planted" ? static_cast<double>(p.blocks) / 2 + call : base + 10.0 * draw;
  p.output_bits = float_bits(static_cast<float>(p.expected));
  p.expected = static_cast<float>(p.expected);
  p.input_total = 15.25 * draw - 100.0;
  p.replaced_input = kind == "planted" ? base - 20.0 : 0.0;
  p.partials_total = p.expected;
  return p;
}

SumProbe& find_probe(std::vector<SumProbe>& probes, const std::string& size, const std::string& kind) {
  for (SumProbe& p : probes) {
    if (p.size_label == size && p.probe == kind) {
      return p;
    }
  }
  throw std::logic_error("no probe");
}

struct SumInput {
  labrun::JudgeInput judged;
  std::vector<SumProbe> probes;
};

// A submission that does everything right, as the child and the tools would report it.
SumInput good_sum_input() {
  SumInput in;
  labrun::JudgeInput& j = in.judged;
  j.submission = "sum_of_squares.cu";
  labrun::Manifest m;
  m.student_id = "s1";
  m.exercise = "sum-of-squares";
  m.answers = {{"bytes_per_element", 4.0}, {"launches", 2.0}, {"predicted_ratio_vs_two_kernels", 3.0}};
  j.manifest = m;
  j.compiled = true;
  j.child = labrun::ProcessResult{true, false, 0, 0, 2.0, "", 0};
  labrun::ChildResults results;
  results.completed = true;
  results.kernels = {{"sum_of_squares_partials", true, {8, 8, 8}, 16, 0, 1024, ""},
                     {"sum_of_squares_finish", true, {8, 8, 8}, 16, 0, 1024, ""}};
  int call = 0;
  for (const auto& [size, n] : {std::pair{"odd", kSumOdd}, std::pair{"card-scaled", kSumCard}}) {
    for (const std::string& kind : labrun::kReductionProbes) {
      in.probes.push_back(right_probe(size, n, kind, ++call));
    }
  }
  labrun::TimingResult timing;
  timing.elements = kSumCard;
  timing.samples = 30;
  timing.pair_ms = 0.13;
  timing.lab.medians = {{"two_kernels_ms", 0.52}, {"folded_ms", 0.12}, {"copy_floor_ms", 0.27}};
  results.timing = timing;
  j.results = results;
  j.sanitizer_available = true;
  j.sanitizers = {{"memcheck", true, "ERROR SUMMARY: 0 errors"},
                  {"racecheck", true, "RACECHECK SUMMARY: 0 hazards"}};
  j.run_limit_seconds = 60.0;
  return in;
}

labrun::GradeReport judge_sum(const SumInput& in) {
  labrun::JudgeInput given = in.judged;
  given.results->probes.clear();
  for (const SumProbe& p : in.probes) {
    given.results->probes.push_back(labrun::to_json(p));
  }
  return labrun::judge(labrun::testing::registered_exercise("fusion-verdicts/sum-of-squares"), given);
}

std::set<std::string> named_mistakes(const labrun::GradeReport& report) {
  std::set<std::string> ids;
  for (const labrun::NamedMistake& m : report.mistakes) {
    ids.insert(m.id);
  }
  return ids;
}

using SumIds = std::set<std::string>;

}  // namespace

TEST_CASE("sum of squares: a correct pair gets every point, and a probe's record survives its JSON") {
  const SumInput in = good_sum_input();
  const labrun::GradeReport report = judge_sum(in);
  CHECK(named_mistakes(report).empty());
  CHECK(report.score() == 100.0);
  const SumProbe& p = in.probes.front();
  const SumProbe back = labrun::reduction_record_from_json(labrun::to_json(p));
  CHECK(labrun::to_json(back) == labrun::to_json(p));
  CHECK_THROWS(labrun::reduction_record_from_json(nlohmann::ordered_json{{"probe", "alone"}}));
}

TEST_CASE("sum of squares: each wrong sum is named once, from what the exact reference tells") {
  const auto set_sum = [](SumProbe& p, double value) {
    p.output_bits = float_bits(static_cast<float>(value));
    p.partials_total = static_cast<float>(value);
  };
  SECTION("whole squares short are elements missed, whole squares over elements counted twice") {
    SumInput in = good_sum_input();
    for (const char* kind : {"alone", "after-lab", "repeat"}) {
      SumProbe& p = find_probe(in.probes, "odd", kind);
      set_sum(p, p.expected - 0.75);
    }
    labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"elements-missed"});
    CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("0.7500 short"));
    CHECK(report.score() == 15.0);  // the card-scaled size and the worked answer

    in = good_sum_input();
    for (const char* kind : {"alone", "after-lab", "repeat"}) {
      SumProbe& p = find_probe(in.probes, "odd", kind);
      set_sum(p, 2 * p.expected);
    }
    CHECK(named_mistakes(judge_sum(in)) == SumIds{"elements-counted-twice"});
  }
  SECTION("a sum that is no sum of whole squares is estimated, however close: three quarters scaled up") {
    SumInput in = good_sum_input();
    for (const char* size : {"odd", "card-scaled"}) {
      for (const char* kind : {"alone", "after-lab", "repeat"}) {
        SumProbe& p = find_probe(in.probes, size, kind);
        set_sum(p, p.expected * (1.0 + 1e-6) + 0.01);
      }
    }
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"wrong-sum"});
    CHECK(report.score() == 10.0);  // the worked answer alone
  }
  SECTION("the sum of x, not of its squares") {
    SumInput in = good_sum_input();
    for (const char* size : {"odd", "card-scaled"}) {
      for (const char* kind : {"alone", "after-lab", "repeat"}) {
        SumProbe& p = find_probe(in.probes, size, kind);
        set_sum(p, p.input_total);
      }
    }
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"square-missing"});
    CHECK(report.score() == 10.0);
  }
  SECTION("the same inputs giving two sums is a race, and nothing else is said of them") {
    SumInput in = good_sum_input();
    set_sum(find_probe(in.probes, "odd", "alone"), 20000.0);
    set_sum(find_probe(in.probes, "odd", "repeat"), 20480.0);
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"race-on-partials"});
    CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("and then"));
  }
  SECTION("a later call that gives an earlier call's sum on other inputs keeps an answer") {
    SumInput in = good_sum_input();
    const std::uint32_t first = find_probe(in.probes, "card-scaled", "alone").output_bits;
    find_probe(in.probes, "card-scaled", "after-lab").output_bits = first;
    find_probe(in.probes, "card-scaled", "planted").output_bits = first;
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"wrong-on-later-calls", "finish-ignores-partials"});
    CHECK(report.score() == 20.0);  // the odd size and the worked answer
  }
  SECTION("poison summed at the large size") {
    SumInput in = good_sum_input();
    // Every probe but planted, whose partials are the child's: the finish adds them right.
    for (const char* kind : {"alone", "after-lab", "repeat"}) {
      SumProbe& p = find_probe(in.probes, "card-scaled", kind);
      p.output_bits = 0x7FFFFFFFu;
      p.partials_unwritten = p.blocks;
      p.partials_total = 0.0;
    }
    find_probe(in.probes, "card-scaled", "planted").partials_unwritten =
        find_probe(in.probes, "card-scaled", "planted").blocks;
    CHECK(named_mistakes(judge_sum(in)) == SumIds{"wrong-at-large-size", "nan-output", "partials-unwritten"});
  }
}

TEST_CASE("sum of squares: the structure is measured, not read from the code") {
  SECTION("n words of the kernels' own memory written is an array of squares") {
    SumInput in = good_sum_input();
    find_probe(in.probes, "odd", "alone").own_words_written = kSumOdd;
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"squares-materialised"});
    CHECK(report.score() == 35.0);  // right at both sizes, the other hygiene rows and the worked answer
  }
  SECTION("a finish that follows x when the partials are planted reads x") {
    SumInput in = good_sum_input();
    for (const char* size : {"odd", "card-scaled"}) {
      SumProbe& planted = find_probe(in.probes, size, "planted");
      planted.output_bits = float_bits(static_cast<float>(planted.replaced_input));
    }
    CHECK(named_mistakes(judge_sum(in)) == SumIds{"finish-reads-x"});
  }
  SECTION("partials that do not add up to a right sum, and unwritten ones") {
    SumInput in = good_sum_input();
    find_probe(in.probes, "odd", "alone").partials_total =
        0.5 * find_probe(in.probes, "odd", "alone").expected;
    CHECK(named_mistakes(judge_sum(in)) == SumIds{"partials-not-sums"});
    in = good_sum_input();
    find_probe(in.probes, "card-scaled", "alone").partials_unwritten = 7;
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"partials-unwritten"});
    CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("7 blocks of 524288"));
  }
  SECTION("the buffers: a guard changed, x changed") {
    SumInput in = good_sum_input();
    find_probe(in.probes, "odd", "alone").guard_words_changed = 1;
    find_probe(in.probes, "card-scaled", "repeat").input_changed = true;
    CHECK(named_mistakes(judge_sum(in)) == SumIds{"write-past-n", "input-modified"});
  }
}

TEST_CASE("sum of squares: the worked answer's right values are the lab's byte models") {
  const std::string exercise_name = "fusion-verdicts/sum-of-squares";  // named: g++ 13 -Wdangling-reference
  const labrun::Exercise& ex = labrun::testing::registered_exercise(exercise_name);
  CHECK(ex.model.submission.bytes_per_element() == 4.0);
  CHECK(ex.model.submission.launches == 2);
  CHECK(ex.model.ratio(0) == 3.0);
  CHECK(labrun::rubric_row(ex.rubric, labrun::Check::kDeclared).passes_when == "4 bytes and 2 launches");
  CHECK(labrun::rubric_row(ex.rubric, labrun::Check::kPredicted).passes_when == "within 0.05 of 3.00");
  SumInput in = good_sum_input();
  in.judged.manifest->answers["bytes_per_element"] = 12.0;
  const labrun::GradeReport report = judge_sum(in);
  CHECK(named_mistakes(report) == SumIds{"wrong-declared-bytes"});
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("two-kernel version"));
  CHECK(report.score() == 95.0);
}

TEST_CASE("every sum-of-squares corpus submission states its expected verdict, and the text check agrees") {
  const labrun::IncludePolicy policy =
      labrun::exercise_include_policy(labrun::testing::registered_exercise("fusion-verdicts/sum-of-squares"));
  int folders = 0;
  std::set<std::string> refused;
  for (const auto& entry : fs::directory_iterator(sum_corpus())) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    const auto expected = nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
    CHECK(expected.at("description").is_string());
    CHECK(expected.at("builds").is_boolean());
    CHECK(expected.at("passes_correctness").is_boolean());
    CHECK(expected.at("mistakes").is_array());
    CHECK(expected.at("score").is_number());
    if (!labrun::check_submission_source(labrun::read_file(entry.path() / "sum_of_squares.cu"), policy)
             .empty()) {
      refused.insert(name);
    }
    ++folders;
  }
  CHECK(folders >= 41);
  // The literal escapes; the computed include is refused by the sandboxed preprocessor instead.
  CHECK(refused == std::set<std::string>{"include-lone-cr", "include-outside-file"});
  const fs::path skeleton = labrun::testing::repository_root() / "labs" / "fusion-verdicts" / "grading" /
                            "skeleton" / "sum_of_squares.cu";
  CHECK(labrun::check_submission_source(labrun::read_file(skeleton), policy).empty());
}

TEST_CASE(
    "each folder of both exercises' corpora is graded as its own exercise, as a mixed batch grades it") {
  for (const auto& [folder, source, exercise] :
       {std::tuple{sum_corpus(), "sum_of_squares.cu", "fusion-verdicts/sum-of-squares"},
        std::tuple{labrun::testing::grading_corpus(), "halfway.cu", "day48-fusion/halfway-pair"}}) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      INFO(entry.path().filename().string());
      const labrun::ExerciseChoice choice = labrun::choose_exercise(entry.path() / source, {}, "", nullptr);
      REQUIRE(choice.exercise != nullptr);
      CHECK(choice.exercise->full_name() == exercise);
    }
  }
  const fs::path correct = sum_corpus() / "correct" / "sum_of_squares.cu";
  CHECK(labrun::choose_exercise(correct, {}, "halfway-pair", nullptr).exercise->name == "halfway-pair");
  CHECK_THROWS_AS(labrun::choose_exercise(correct, {}, "no-such-exercise", nullptr), labrun::UsageError);
}

TEST_CASE("sum of squares: a correct pair that reads as fast as the card can is never called impossible") {
  SumInput in = good_sum_input();
  // A copy measured slowly beside it, as a batch's could be: against the copy, 4 bytes in 0.115 ms
  // would be over 1.5 times the copy's bandwidth; against the card's read-only stream, it is not.
  labrun::TimingResult& t = *in.judged.results->timing;
  t.lab.medians = {{"two_kernels_ms", 0.52},
                   {"folded_ms", 0.131},
                   {"copy_floor_ms", 0.40},
                   {labrun::kReadStreamKey, 0.119},
                   {labrun::kCopyStreamKey, 0.41}};
  t.pair_ms = 0.115;
  const labrun::GradeReport fast = judge_sum(in);
  CHECK(named_mistakes(fast).empty());
  CHECK(fast.score() == 100.0);
  // A pair that summed an eighth of x and scaled it up would be 8 times faster than the stream: it
  // is impossible (and its sum is not exact in any case).
  t.pair_ms = 0.119 / 8;
  CHECK(named_mistakes(judge_sum(in)) == SumIds{"impossible-time"});
}

TEST_CASE("sum of squares: every timed call is held to the contract") {
  SECTION("x written while timed") {
    SumInput in = good_sum_input();
    in.judged.results->timing->calls_checked = 32;
    in.judged.results->timing->samples_changing_inputs = 32;
    CHECK(named_mistakes(judge_sum(in)) == SumIds{"input-modified"});
    CHECK(judge_sum(in).score() == 35.0);
  }
  SECTION("the first kernel skipped while timed, the sum right: no partials") {
    SumInput in = good_sum_input();
    SumProbe timed = right_probe("card-scaled", kSumCard, "timed", 40);
    timed.partials_unwritten = timed.blocks;
    timed.partials_total = 0.0;
    in.judged.results->timing->samples_breaking_structure = 30;
    in.judged.results->timing->first_broken_sample = labrun::to_json(timed);
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"partials-unwritten"});
    CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("timed"));
    CHECK(report.score() == 35.0);
  }
  SECTION("a sum wrong only while timed: three quarters of x, scaled, from the first timed call") {
    SumInput in = good_sum_input();
    in.judged.results->timing->wrong_samples = 32;
    const labrun::GradeReport report = judge_sum(in);
    CHECK(named_mistakes(report) == SumIds{"wrong-when-timed"});
    CHECK(report.score() == 70.0);
  }
}
