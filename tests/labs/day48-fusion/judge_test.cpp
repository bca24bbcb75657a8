// Day 48's judge (the chain pair's, exercise/chain_pair_exercise.hpp, declared by grading/exercise.cpp,
// inside the harness's judge(), exercise/judge.hpp) on what the grading child and the tools would report.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <map>

#include "exercise/chain_pair_exercise.hpp"
#include "exercise/judge.hpp"
#include "grading/exercise.hpp"
#include "registry/registry.hpp"
#include "support/exercises.hpp"

using Catch::Matchers::ContainsSubstring;
using OutputInspection = labrun::ChainOutputInspection;
using ProbeResult = labrun::ChainPairRecord;

namespace {

// What the judge is given, with the child's probes as day 48's records (the judge reads them as
// the JSON the child writes).
struct JudgeInput : labrun::JudgeInput {
  std::vector<ProbeResult> probes;
};
using ChildResults = labrun::ChildResults;

// The contract's buffer names, which the records key their guards by.
labrun::ChainPairNames names() {
  return labrun::chain_pair_names(labrun::testing::registered_exercise("day48-fusion/halfway-pair"));
}

labrun::GradeReport judge(const JudgeInput& in) {
  labrun::JudgeInput given = in;
  if (given.results) {
    given.results->probes.clear();
    for (const ProbeResult& p : in.probes) {
      given.results->probes.push_back(labrun::to_json(p, names()));
    }
  }
  return labrun::judge(labrun::testing::registered_exercise("day48-fusion/halfway-pair"), given);
}

constexpr std::uint64_t kOdd = 1049187;
constexpr std::uint64_t kCard = 134217728;

OutputInspection right_output(std::uint64_t n) {
  OutputInspection o;
  o.elements = n;
  o.max_abs_error = 1e-7;
  for (const char* c : {"gelu-twice", "skip-scale-bias", "skip-gelu", "skip-residual", "skip-clamp",
                        "clamp-before-residual", "gelu-before-scale-bias"}) {
    o.compositions.push_back({c, 0});
  }
  return o;
}

ProbeResult probe(const std::string& size, std::uint64_t n, const std::string& kind, int call) {
  ProbeResult p;
  p.size_label = size;
  p.probe = kind;
  p.elements = n;
  p.call = call;
  p.output = right_output(n);
  if (kind != "planted") {
    p.intermediate = labrun::ChainIntermediateInspection{0, 0};
  }
  return p;
}

ProbeResult& find(std::vector<ProbeResult>& probes, const std::string& size, const std::string& kind) {
  for (ProbeResult& p : probes) {
    if (p.size_label == size && p.probe == kind) {
      return p;
    }
  }
  throw std::logic_error("no probe");
}

// A submission that does everything right, as the child and the tools would report it.
JudgeInput good_input() {
  JudgeInput in;
  in.submission = "halfway.cu";
  labrun::Manifest m;
  m.student_id = "s1";
  m.answers = {{"bytes_per_element", 20.0},
               {"launches", 2.0},
               {"predicted_ratio_vs_staged", 1.8},
               {"predicted_ratio_vs_fused", 1.67}};
  in.manifest = m;
  in.compiled = true;
  in.child = labrun::ProcessResult{true, false, 0, 0, 5.0, "", 0};
  ChildResults results;
  results.completed = true;
  results.kernels = {{"halfway_stages_1_2", true, {8, 8, 8}, 16, 0, 1024, ""},
                     {"halfway_stages_3_4", true, {8, 8, 8, 8}, 16, 0, 1024, ""}};
  int call = 0;
  for (const auto& [size, n] : {std::pair{"odd", kOdd}, std::pair{"card-scaled", kCard}}) {
    for (const char* kind : {"alone", "after-staged", "planted"}) {
      in.probes.push_back(probe(size, n, kind, ++call));
    }
  }
  labrun::TimingResult timing;
  timing.elements = kCard;
  timing.samples = 30;
  timing.pair_ms = 0.90;
  timing.lab.medians = {{"staged_ms", 1.69},     {"fused_ms", 0.49},           {"lab_halfway_ms", 0.89},
                        {"copy_floor_ms", 0.40}, {"copy_vectorized_ms", 0.26}, {"copy_memcpy_ms", 0.25}};
  results.timing = timing;
  in.results = results;
  in.sanitizer_available = true;
  in.sanitizers = {{"memcheck", true, "ERROR SUMMARY: 0 errors"},
                   {"racecheck", true, "RACECHECK SUMMARY: 0 hazards"}};
  in.run_limit_seconds = 60.0;
  return in;
}

}  // namespace

TEST_CASE("a correct submission gets every point and no mistake") {
  const labrun::GradeReport report = judge(good_input());
  CHECK(report.score() == 100.0);
  CHECK(report.max_score() == 100.0);
  CHECK(report.mistakes.empty());
  CHECK(report.student_id == "s1");
}

TEST_CASE(
    "a correct pair faster than the lab's own gets full marks; only a time no copy allows is impossible") {
  JudgeInput in = good_input();
  in.results->timing->pair_ms = 0.70;  // float4 kernels can beat the lab's scalar pair
  CHECK(judge(in).score() == 100.0);
  // 20 B/element at 0.40 ms is 6.7 TB/s, 1.7 times the best copy's 4.3 TB/s.
  in.results->timing->pair_ms = 0.40;
  const labrun::GradeReport report = judge(in);
  CHECK(report.has_mistake("impossible-time"));
  CHECK(report.score() == 85.0);
}

TEST_CASE("nothing is given for code that does nothing: hygiene counts only once the output is correct") {
  JudgeInput in = good_input();
  for (ProbeResult& p : in.probes) {
    p.output.unwritten = p.output.mismatches = p.output.trailing_unwritten = p.output.elements;
    p.intermediate = p.probe == "planted" ? std::nullopt
                                          : std::optional(labrun::ChainIntermediateInspection{p.elements, 0});
  }
  in.manifest->answers.erase("bytes_per_element");
  in.manifest->problems = {"/bytes_per_element: expected a number greater than 0 and at most 1000, got 0"};
  const labrun::GradeReport report = judge(in);
  CHECK(report.score() == 5.0);  // only the predictions, a worked answer on its own
  CHECK(report.has_mistake("output-unwritten"));
  CHECK(report.has_mistake("intermediate-unwritten"));
  CHECK(report.has_mistake("manifest-invalid"));
}

TEST_CASE("the lesson's classic mistakes are named from the output") {
  JudgeInput in = good_input();
  for (ProbeResult& p : in.probes) {
    p.output.mismatches = p.output.elements;
    p.output.compositions[0].matching = p.output.elements;  // gelu-twice
  }
  CHECK(judge(in).has_mistake("stage-2-applied-twice"));
  JudgeInput tail = good_input();
  for (ProbeResult& p : tail.probes) {
    if (p.size_label == "odd") {
      p.output.unwritten = p.output.trailing_unwritten = p.output.mismatches = 99;
    }
  }
  const labrun::GradeReport report = judge(tail);
  CHECK(report.has_mistake("tail-missed"));
  CHECK(report.score() == 15.0);  // card-scaled correctness, worked answer
}

TEST_CASE("structure is measured: a second kernel that reads x, or ignores the intermediate, is named") {
  JudgeInput in = good_input();
  ProbeResult& planted = find(in.probes, "card-scaled", "planted");
  planted.output.mismatches = planted.matches_chain_of_input = planted.output.elements;
  labrun::GradeReport report = judge(in);
  CHECK(report.has_mistake("second-kernel-reads-x"));
  CHECK(report.score() == 35.0);  // not correct: both sizes, buffers, sanitizer and the worked answer
  in = good_input();
  ProbeResult& ignored = find(in.probes, "odd", "planted");
  ignored.output.mismatches = 1000;
  CHECK(judge(in).has_mistake("second-kernel-ignores-intermediate"));
  in = good_input();
  find(in.probes, "odd", "alone").intermediate->mismatches = 10;
  CHECK(judge(in).has_mistake("intermediate-not-stage-2"));
  in = good_input();
  find(in.probes, "card-scaled", "after-staged").staged_buffers_written = {"t1, t2 or t3"};
  CHECK(judge(in).has_mistake("uses-staged-buffer"));
}

TEST_CASE("state kept between calls and work skipped while timed are named") {
  JudgeInput in = good_input();
  ProbeResult& later = find(in.probes, "odd", "after-staged");
  later.output.mismatches = later.elements;
  CHECK(judge(in).has_mistake("wrong-on-later-calls"));
  in = good_input();
  find(in.probes, "card-scaled", "alone").output.mismatches = 5;
  find(in.probes, "card-scaled", "after-staged").output.mismatches = 5;
  const auto large = judge(in);
  CHECK(large.has_mistake("wrong-at-large-size"));
  in = good_input();
  in.results->timing->wrong_samples = 28;
  const labrun::GradeReport timed = judge(in);
  CHECK(timed.has_mistake("wrong-when-timed"));
  CHECK(timed.score() == 70.0);  // correct, but not in every timed call: neither that row nor speed
  in = good_input();
  find(in.probes, "odd", "alone").output.mismatches = 3;
  CHECK(judge(in).has_mistake("depends-on-staged-chain"));
}

TEST_CASE("a write past a guard or into an input is named and costs its points") {
  JudgeInput in = good_input();
  find(in.probes, "odd", "alone").guards.output = 1;
  labrun::GradeReport report = judge(in);
  CHECK(report.has_mistake("write-past-n"));
  CHECK(report.score() == 35.0);  // not correct: it writes outside its buffers
  in = good_input();
  find(in.probes, "odd", "alone").input_elements_changed = 7;
  CHECK(judge(in).has_mistake("input-modified"));
}

TEST_CASE("every way the run can stop is a named mistake") {
  JudgeInput in = good_input();
  in.results->completed = false;
  in.results->error_kind = "cuda-error";
  in.results->error = "cudaErrorIllegalAddress (an illegal memory access was encountered)";
  in.results->failed_step = "halfway_stages_3_4 at n = 1049187 (alone)";
  in.probes.clear();
  in.results->timing.reset();
  in.child->exit_code = 3;
  labrun::GradeReport report = judge(in);
  REQUIRE(report.has_mistake("cuda-error"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("halfway_stages_3_4 at n = 1049187"));
  CHECK(report.score() == 10.0);

  in.results->error_kind = "hang";
  in.results->error = "halfway_stages_3_4 at n = 1049187 (alone) had not finished after 10 s";
  CHECK(judge(in).has_mistake("timeout"));

  JudgeInput killed = good_input();
  killed.results.reset();
  killed.child = labrun::ProcessResult{true, true, -1, 9, 60.0, "", 0};
  killed.last_step = "timing at n = 134217728";
  report = judge(killed);
  REQUIRE(report.has_mistake("timeout"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("timing at n = 134217728"));

  JudgeInput early = good_input();
  early.results->completed = false;
  early.child = labrun::ProcessResult{true, false, 0, 0, 1.0, "", 0};
  CHECK(judge(early).has_mistake("early-exit"));

  JudgeInput missing = good_input();
  missing.results->error_kind = "kernel-missing";
  missing.results->error =
      "the submission defines no extern \"C\" __global__ kernel named halfway_stages_3_4";
  missing.results->kernels_found = {"_Z6secondPKfS0_Pfm"};
  missing.probes.clear();
  report = judge(missing);
  REQUIRE(report.has_mistake("kernel-missing"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("_Z6secondPKfS0_Pfm"));

  JudgeInput refused = good_input();
  refused.compiled = false;
  refused.results.reset();
  refused.source_problems = {{3, "#include \"/etc/passwd\" is not allowed"}};
  report = judge(refused);
  CHECK(report.has_mistake("include-not-allowed"));
  CHECK_THAT(report.tests.front().output, ContainsSubstring("line 3"));
  CHECK(report.score() == 0.0);  // an escape attempt earns nothing, its right worked answer included
  CHECK_THAT(report.tests.back().output, ContainsSubstring("nothing is earned"));
}

TEST_CASE("a pair that hangs or fails only while it is timed is correct, but scores below a slow one") {
  JudgeInput hang = good_input();
  hang.results->completed = false;
  hang.results->timing.reset();
  hang.results->error_kind = "hang";
  hang.results->error = "timing at n = 134217728: a launch had not finished after 2 s";
  hang.results->failed_step = "timing at n = 134217728";
  hang.child->exit_code = 3;
  hang.sanitizers.clear();  // the grader sanitizes only a run that finished
  const labrun::GradeReport hung = judge(hang);
  CHECK(hung.has_mistake("timeout"));
  CHECK(hung.score() == 65.0);  // correct (sanitizer not run), worked answer; not timed, not fast
  JudgeInput killed = good_input();
  killed.results->completed = false;
  killed.results->timing.reset();
  killed.child = labrun::ProcessResult{true, true, -1, 9, 60.0, "", 0};
  killed.last_step = "timing at n = 134217728";
  killed.sanitizers.clear();
  CHECK(judge(killed).score() == 65.0);
  JudgeInput slow = good_input();
  slow.results->timing->pair_ms = 1.5;
  CHECK(judge(slow).has_mistake("slow"));
  CHECK(judge(slow).score() == 85.0);
  // A hang in a probe, before anything is timed, is not correct: the planted probe never finished.
  JudgeInput probe_hang = hang;
  probe_hang.results->failed_step = "halfway_stages_3_4 at n = 134217728 (planted)";
  probe_hang.probes.pop_back();
  CHECK(judge(probe_hang).score() == 25.0);  // both sizes and the worked answer
}

TEST_CASE("the worked answer is graded as an answer, with hints") {
  JudgeInput in = good_input();
  in.manifest->answers["bytes_per_element"] = 36.0;
  in.manifest->answers["predicted_ratio_vs_staged"] = 2.0;
  const labrun::GradeReport report = judge(in);
  CHECK(report.has_mistake("wrong-declared-bytes"));
  CHECK(report.has_mistake("wrong-predictions"));
  CHECK(report.score() == 90.0);
  JudgeInput none = good_input();
  none.manifest.reset();
  none.manifest_missing = true;
  none.manifest_problem = "none given";
  CHECK(judge(none).has_mistake("manifest-missing"));
}

TEST_CASE("a grader that cannot run scores 0 and says so for staff") {
  JudgeInput in = good_input();
  in.grader_problem = "no usable CUDA device on the grading machine (cudaErrorNoDevice)";
  const labrun::GradeReport report = judge(in);
  CHECK(report.score() == 0.0);
  CHECK(report.max_score() == 100.0);
  CHECK(report.has_mistake("grader-error"));
  CHECK_THAT(report.tests.front().output, ContainsSubstring("not a mistake in the submission"));
}

namespace {

// One measured outcome of each kind the grader can see, for the enumeration below.
enum class OutputCase { kRight, kWrongInOneElement };
enum class StructureCase { kRight, kSecondKernelReadsX, kUsesStagedBuffer };
enum class BufferCase { kRight, kWritePastN, kInputModified };
enum class SanitizerCase { kClean, kErrors, kAbsent };
enum class TimingCase {
  kRight,
  kWrongWhenTimed,
  kHangWhileTimed,
  kCudaErrorWhileTimed,
  kKilledWhileTimed,
  kHangBeforeTiming
};
enum class SpeedCase { kFast, kSlow, kImpossible };

struct Scenario {
  OutputCase odd = OutputCase::kRight;
  OutputCase card = OutputCase::kRight;
  StructureCase structure = StructureCase::kRight;
  BufferCase buffers = BufferCase::kRight;
  SanitizerCase sanitizer = SanitizerCase::kClean;
  TimingCase timing = TimingCase::kRight;
  SpeedCase speed = SpeedCase::kFast;
  bool declared_right = true;
  bool predicted_right = true;
};

// What the child, the tools and the manifest would report for `s`.
JudgeInput measured(const Scenario& s) {
  JudgeInput in = good_input();
  ChildResults& r = *in.results;
  const auto wrong_in_one = [&](const std::string& size) {
    for (const char* kind : {"alone", "after-staged"}) {
      ProbeResult& p = find(in.probes, size, kind);
      p.output.mismatches = 1;
      p.output.first_bad_index = 7;
    }
  };
  if (s.odd == OutputCase::kWrongInOneElement) {
    wrong_in_one("odd");
  }
  if (s.card == OutputCase::kWrongInOneElement) {
    wrong_in_one("card-scaled");
  }
  if (s.structure == StructureCase::kSecondKernelReadsX) {
    ProbeResult& planted = find(in.probes, "card-scaled", "planted");
    planted.output.mismatches = planted.matches_chain_of_input = planted.output.elements;
  } else if (s.structure == StructureCase::kUsesStagedBuffer) {
    find(in.probes, "odd", "after-staged").staged_buffers_written = {"t2"};
  }
  if (s.buffers == BufferCase::kWritePastN) {
    find(in.probes, "card-scaled", "alone").guards.output = 1;
  } else if (s.buffers == BufferCase::kInputModified) {
    find(in.probes, "odd", "alone").input_elements_changed = 3;
  }
  if (s.sanitizer == SanitizerCase::kErrors) {
    in.sanitizers.front() = {"memcheck", false, "ERROR SUMMARY: 1 error"};
  } else if (s.sanitizer == SanitizerCase::kAbsent) {
    in.sanitizer_available = false;
    in.sanitizers.clear();
  }
  r.timing->pair_ms = s.speed == SpeedCase::kFast ? 0.90 : s.speed == SpeedCase::kSlow ? 1.50 : 0.40;
  const auto stop = [&](const std::string& kind, const std::string& error, const std::string& step) {
    r.completed = false;
    r.timing.reset();
    r.error_kind = kind;
    r.error = error;
    r.failed_step = step;
    in.child->exit_code = 3;
    in.sanitizers.clear();  // the grader sanitizes only a run that finished
  };
  switch (s.timing) {
    case TimingCase::kRight: break;
    case TimingCase::kWrongWhenTimed: r.timing->wrong_samples = 1; break;
    case TimingCase::kHangWhileTimed:
      stop("hang", "timing at n = 134217728: a launch had not finished after 2 s", "timing at n = 134217728");
      break;
    case TimingCase::kCudaErrorWhileTimed:
      stop("cuda-error", "cudaErrorIllegalAddress (an illegal memory access was encountered)",
           "timing at n = 134217728");
      break;
    case TimingCase::kKilledWhileTimed:
      stop("", "", "");
      in.child = labrun::ProcessResult{true, true, -1, 9, 60.0, "", 0};
      in.last_step = "timing at n = 134217728";
      break;
    case TimingCase::kHangBeforeTiming:
      stop("hang", "halfway_stages_3_4 at n = 134217728 (planted) had not finished after 2 s",
           "halfway_stages_3_4 at n = 134217728 (planted)");
      in.probes.pop_back();  // the card-scaled planted probe never finished
      break;
  }
  if (!s.declared_right) {
    in.manifest->answers["bytes_per_element"] = 36.0;
  }
  if (!s.predicted_right) {
    in.manifest->answers["predicted_ratio_vs_staged"] = 2.0;
  }
  return in;
}

// The instructor's order, from what the scenario is: 1 correct and fast; 2 correct and slow (or
// impossibly fast); 3 correct but failed, hung or wrong in a timed call; 4 not correct. Sanitizer
// errors cannot be seen where the run stopped before compute-sanitizer ran.
int instructor_tier(const Scenario& s) {
  const bool stopped = s.timing != TimingCase::kRight && s.timing != TimingCase::kWrongWhenTimed;
  const bool sanitizer_errors = s.sanitizer == SanitizerCase::kErrors && !stopped;
  if (s.odd != OutputCase::kRight || s.card != OutputCase::kRight || s.structure != StructureCase::kRight ||
      s.buffers != BufferCase::kRight || sanitizer_errors || s.timing == TimingCase::kHangBeforeTiming) {
    return 4;
  }
  if (s.timing != TimingCase::kRight) {
    return 3;
  }
  return s.speed == SpeedCase::kFast ? 1 : 2;
}

}  // namespace

TEST_CASE("judge orders every combination of measured outcomes as an instructor would") {
  // Per machine (with compute-sanitizer or without), per tier: the lowest and highest score.
  std::map<bool, std::map<int, std::pair<double, double>>> tiers;
  int graded = 0;
  for (const OutputCase odd : {OutputCase::kRight, OutputCase::kWrongInOneElement}) {
    for (const OutputCase card : {OutputCase::kRight, OutputCase::kWrongInOneElement}) {
      for (const StructureCase structure :
           {StructureCase::kRight, StructureCase::kSecondKernelReadsX, StructureCase::kUsesStagedBuffer}) {
        for (const BufferCase buffers :
             {BufferCase::kRight, BufferCase::kWritePastN, BufferCase::kInputModified}) {
          for (const SanitizerCase sanitizer :
               {SanitizerCase::kClean, SanitizerCase::kErrors, SanitizerCase::kAbsent}) {
            for (const TimingCase timing : {TimingCase::kRight, TimingCase::kWrongWhenTimed,
                                            TimingCase::kHangWhileTimed, TimingCase::kCudaErrorWhileTimed,
                                            TimingCase::kKilledWhileTimed, TimingCase::kHangBeforeTiming}) {
              for (const SpeedCase speed : {SpeedCase::kFast, SpeedCase::kSlow, SpeedCase::kImpossible}) {
                for (const int answer : {0, 1, 2, 3}) {
                  const Scenario s{odd,    card,  structure,         buffers,          sanitizer,
                                   timing, speed, (answer & 1) != 0, (answer & 2) != 0};
                  const double score = judge(measured(s)).score();
                  const auto [at, fresh] = tiers[sanitizer == SanitizerCase::kAbsent].try_emplace(
                      instructor_tier(s), std::pair{score, score});
                  at->second = {std::min(at->second.first, score), std::max(at->second.second, score)};
                  static_cast<void>(fresh);
                  ++graded;
                }
              }
            }
          }
        }
      }
    }
  }
  CHECK(graded == 2 * 2 * 3 * 3 * 3 * 6 * 3 * 4);
  for (const auto& [absent, by_tier] : tiers) {
    INFO("compute-sanitizer " << (absent ? "absent" : "present"));
    REQUIRE(by_tier.size() == 4);
    for (int tier = 1; tier < 4; ++tier) {
      INFO("tier " << tier << ": " << by_tier.at(tier).first << " to " << by_tier.at(tier).second << "; tier "
                   << tier + 1 << ": " << by_tier.at(tier + 1).first << " to "
                   << by_tier.at(tier + 1).second);
      CHECK(by_tier.at(tier).first > by_tier.at(tier + 1).second);
    }
    CHECK(by_tier.at(1).second == (absent ? 95.0 : 100.0));
  }
  // Refused before compiling, for an escape attempt: nothing at all, whatever the worked answer.
  for (const int answer : {0, 1, 2, 3}) {
    Scenario s;
    s.declared_right = (answer & 1) != 0;
    s.predicted_right = (answer & 2) != 0;
    JudgeInput refused = measured(s);
    refused.compiled = false;
    refused.results.reset();
    refused.child.reset();
    refused.sanitizers.clear();
    refused.source_problems = {{2, "#include \"/etc/hostname\" names a file outside the allowed headers"}};
    CHECK(judge(refused).score() == 0.0);
  }
}

TEST_CASE("the speed bound takes the pair's traffic at the card's read-only and copy bandwidths") {
  JudgeInput in = good_input();
  // The harness's streams measured beside the pair: reads at 4.7 TB/s, copies at 4.3 TB/s.
  in.results->timing->lab.medians.emplace_back(labrun::kReadStreamKey, 4.0 * kCard / 4.7e6 / 1e3);
  in.results->timing->lab.medians.emplace_back(labrun::kCopyStreamKey, 8.0 * kCard / 4.3e6 / 1e3);
  in.results->timing->pair_ms = 0.60;
  labrun::GradeReport report = judge(in);
  CHECK(report.score() == 100.0);
  const auto figure = std::find_if(report.figures.begin(), report.figures.end(), [](const auto& f) {
    return f.first == "the card's read-only stream here (GB/s)";
  });
  REQUIRE(figure != report.figures.end());
  CHECK(figure->second == "4700.0");
  in.results->timing->pair_ms = 0.40;
  report = judge(in);
  CHECK(report.has_mistake("impossible-time"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("12 B read and 8 B written"));
}

TEST_CASE("every timed call is held to the contract: inputs, guards, memory not given, the intermediate") {
  SECTION("an input changed while timed") {
    JudgeInput in = good_input();
    in.results->timing->calls_checked = 32;
    in.results->timing->samples_changing_inputs = 3;
    const labrun::GradeReport report = judge(in);
    CHECK(report.has_mistake("input-modified"));
    CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("3 of the 32 timed calls"));
    CHECK(report.score() == 35.0);  // not correct: both sizes, structure, sanitizer, worked answer
  }
  SECTION("memory it was not given, and a guard, while timed") {
    JudgeInput in = good_input();
    in.results->timing->samples_writing_outside = 1;
    in.results->timing->guard_words_changed = 4;
    const labrun::GradeReport report = judge(in);
    CHECK(report.has_mistake("write-outside-buffers"));
    CHECK(report.has_mistake("write-past-n"));
    CHECK(report.score() == 35.0);
  }
  SECTION("a first kernel skipped while timed leaves no intermediate, however right y is") {
    JudgeInput in = good_input();
    ProbeResult timed = probe("card-scaled", kCard, "timed", 40);
    timed.intermediate = labrun::ChainIntermediateInspection{kCard, kCard};
    in.results->timing->samples_breaking_structure = 30;
    in.results->timing->first_broken_sample = labrun::to_json(timed, names());
    const labrun::GradeReport report = judge(in);
    CHECK(report.has_mistake("intermediate-unwritten"));
    CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("a timed call"));
    CHECK(report.score() == 35.0);  // both sizes, buffers, sanitizer, worked answer
  }
}
