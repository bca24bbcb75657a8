#include "grading/judge.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>

using Catch::Matchers::ContainsSubstring;
using day48::grading::ChildResults;
using day48::grading::JudgeInput;
using day48::grading::OutputInspection;
using day48::grading::ProbeResult;

namespace {

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
    p.intermediate = day48::grading::IntermediateInspection{0, 0};
  }
  return p;
}

ProbeResult& find(ChildResults& r, const std::string& size, const std::string& kind) {
  for (ProbeResult& p : r.probes) {
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
  m.bytes_per_element = 20.0;
  m.launches = 2;
  m.predicted_ratio_vs_staged = 1.8;
  m.predicted_ratio_vs_fused = 1.67;
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
      results.probes.push_back(probe(size, n, kind, ++call));
    }
  }
  day48::grading::TimingResult timing;
  timing.elements = kCard;
  timing.samples = 30;
  timing.pair_ms = 0.90;
  timing.lab.lab_halfway_ms = 0.89;
  timing.lab.staged_ms = 1.69;
  timing.lab.fused_ms = 0.49;
  timing.lab.copy_floor_ms = 0.40;
  timing.lab.copy_vectorized_ms = 0.26;
  timing.lab.copy_memcpy_ms = 0.25;
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
  const labrun::GradeReport report = day48::grading::judge(good_input());
  CHECK(report.score() == 100.0);
  CHECK(report.max_score() == 100.0);
  CHECK(report.mistakes.empty());
  CHECK(report.student_id == "s1");
}

TEST_CASE(
    "a correct pair faster than the lab's own gets full marks; only a time no copy allows is impossible") {
  JudgeInput in = good_input();
  in.results->timing->pair_ms = 0.70;  // float4 kernels can beat the lab's scalar pair
  CHECK(day48::grading::judge(in).score() == 100.0);
  // 20 B/element at 0.40 ms is 6.7 TB/s, 1.7 times the best copy's 4.3 TB/s.
  in.results->timing->pair_ms = 0.40;
  const labrun::GradeReport report = day48::grading::judge(in);
  CHECK(report.has_mistake("impossible-time"));
  CHECK(report.score() == 85.0);
}

TEST_CASE("nothing is given for code that does nothing: hygiene counts only once the output is correct") {
  JudgeInput in = good_input();
  for (ProbeResult& p : in.results->probes) {
    p.output.unwritten = p.output.mismatches = p.output.trailing_unwritten = p.output.elements;
    p.intermediate = p.probe == "planted"
                         ? std::nullopt
                         : std::optional(day48::grading::IntermediateInspection{p.elements, 0});
  }
  in.manifest->bytes_per_element.reset();
  in.manifest->problems = {"/bytes_per_element: expected a number greater than 0 and at most 1000, got 0"};
  const labrun::GradeReport report = day48::grading::judge(in);
  CHECK(report.score() == 5.0);  // only the predictions, a worked answer on its own
  CHECK(report.has_mistake("output-unwritten"));
  CHECK(report.has_mistake("intermediate-unwritten"));
  CHECK(report.has_mistake("manifest-invalid"));
}

TEST_CASE("the lesson's classic mistakes are named from the output") {
  JudgeInput in = good_input();
  for (ProbeResult& p : in.results->probes) {
    p.output.mismatches = p.output.elements;
    p.output.compositions[0].matching = p.output.elements;  // gelu-twice
  }
  CHECK(day48::grading::judge(in).has_mistake("stage-2-applied-twice"));
  JudgeInput tail = good_input();
  for (ProbeResult& p : tail.results->probes) {
    if (p.size_label == "odd") {
      p.output.unwritten = p.output.trailing_unwritten = p.output.mismatches = 99;
    }
  }
  const labrun::GradeReport report = day48::grading::judge(tail);
  CHECK(report.has_mistake("tail-missed"));
  CHECK(report.score() == 25.0);  // card-scaled correctness, worked answer
}

TEST_CASE("structure is measured: a second kernel that reads x, or ignores the intermediate, is named") {
  JudgeInput in = good_input();
  ProbeResult& planted = find(*in.results, "card-scaled", "planted");
  planted.output.mismatches = planted.matches_chain_of_x = planted.output.elements;
  labrun::GradeReport report = day48::grading::judge(in);
  CHECK(report.has_mistake("second-kernel-reads-x"));
  CHECK(report.score() == 70.0);  // structure, and the speed that needs it
  in = good_input();
  ProbeResult& ignored = find(*in.results, "odd", "planted");
  ignored.output.mismatches = 1000;
  CHECK(day48::grading::judge(in).has_mistake("second-kernel-ignores-intermediate"));
  in = good_input();
  find(*in.results, "odd", "alone").intermediate->mismatches = 10;
  CHECK(day48::grading::judge(in).has_mistake("intermediate-not-stage-2"));
  in = good_input();
  find(*in.results, "card-scaled", "after-staged").staged_buffers_written = {"t1, t2 or t3"};
  CHECK(day48::grading::judge(in).has_mistake("uses-staged-buffer"));
}

TEST_CASE("state kept between calls and work skipped while timed are named") {
  JudgeInput in = good_input();
  ProbeResult& later = find(*in.results, "odd", "after-staged");
  later.output.mismatches = later.elements;
  CHECK(day48::grading::judge(in).has_mistake("wrong-on-later-calls"));
  in = good_input();
  find(*in.results, "card-scaled", "alone").output.mismatches = 5;
  find(*in.results, "card-scaled", "after-staged").output.mismatches = 5;
  const auto large = day48::grading::judge(in);
  CHECK(large.has_mistake("wrong-at-large-size"));
  in = good_input();
  in.results->timing->wrong_samples = 28;
  const labrun::GradeReport timed = day48::grading::judge(in);
  CHECK(timed.has_mistake("wrong-when-timed"));
  CHECK(timed.score() == 35.0);  // odd correctness and the worked answer only
  in = good_input();
  find(*in.results, "odd", "alone").output.mismatches = 3;
  CHECK(day48::grading::judge(in).has_mistake("depends-on-staged-chain"));
}

TEST_CASE("a write past a guard or into an input is named and costs its points") {
  JudgeInput in = good_input();
  find(*in.results, "odd", "alone").guards.y = 1;
  labrun::GradeReport report = day48::grading::judge(in);
  CHECK(report.has_mistake("write-past-n"));
  CHECK(report.score() == 90.0);
  in = good_input();
  find(*in.results, "odd", "alone").input_elements_changed = 7;
  CHECK(day48::grading::judge(in).has_mistake("input-modified"));
}

TEST_CASE("every way the run can stop is a named mistake") {
  JudgeInput in = good_input();
  in.results->completed = false;
  in.results->error_kind = "cuda-error";
  in.results->error = "cudaErrorIllegalAddress (an illegal memory access was encountered)";
  in.results->failed_step = "halfway_stages_3_4 at n = 1049187 (alone)";
  in.results->probes.clear();
  in.results->timing.reset();
  in.child->exit_code = 3;
  labrun::GradeReport report = day48::grading::judge(in);
  REQUIRE(report.has_mistake("cuda-error"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("halfway_stages_3_4 at n = 1049187"));
  CHECK(report.score() == 10.0);

  in.results->error_kind = "hang";
  in.results->error = "halfway_stages_3_4 at n = 1049187 (alone) had not finished after 10 s";
  CHECK(day48::grading::judge(in).has_mistake("timeout"));

  JudgeInput killed = good_input();
  killed.results.reset();
  killed.child = labrun::ProcessResult{true, true, -1, 9, 60.0, "", 0};
  killed.last_step = "timing at n = 134217728";
  report = day48::grading::judge(killed);
  REQUIRE(report.has_mistake("timeout"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("timing at n = 134217728"));

  JudgeInput early = good_input();
  early.results->completed = false;
  early.child = labrun::ProcessResult{true, false, 0, 0, 1.0, "", 0};
  CHECK(day48::grading::judge(early).has_mistake("early-exit"));

  JudgeInput missing = good_input();
  missing.results->error_kind = "kernel-missing";
  missing.results->error =
      "the submission defines no extern \"C\" __global__ kernel named halfway_stages_3_4";
  missing.results->kernels_found = {"_Z6secondPKfS0_Pfm"};
  missing.results->probes.clear();
  report = day48::grading::judge(missing);
  REQUIRE(report.has_mistake("kernel-missing"));
  CHECK_THAT(report.mistakes.front().explanation, ContainsSubstring("_Z6secondPKfS0_Pfm"));

  JudgeInput refused = good_input();
  refused.compiled = false;
  refused.results.reset();
  refused.source_problems = {{3, "#include \"/etc/passwd\" is not allowed"}};
  report = day48::grading::judge(refused);
  CHECK(report.has_mistake("include-not-allowed"));
  CHECK_THAT(report.tests.front().output, ContainsSubstring("line 3"));
}

TEST_CASE("the worked answer is graded as an answer, with hints") {
  JudgeInput in = good_input();
  in.manifest->bytes_per_element = 36.0;
  in.manifest->predicted_ratio_vs_staged = 2.0;
  const labrun::GradeReport report = day48::grading::judge(in);
  CHECK(report.has_mistake("wrong-declared-bytes"));
  CHECK(report.has_mistake("wrong-predictions"));
  CHECK(report.score() == 90.0);
  JudgeInput none = good_input();
  none.manifest.reset();
  none.manifest_missing = true;
  none.manifest_problem = "none given";
  CHECK(day48::grading::judge(none).has_mistake("manifest-missing"));
}

TEST_CASE("a grader that cannot run scores 0 and says so for staff") {
  JudgeInput in = good_input();
  in.grader_problem = "no usable CUDA device on the grading machine (cudaErrorNoDevice)";
  const labrun::GradeReport report = day48::grading::judge(in);
  CHECK(report.score() == 0.0);
  CHECK(report.max_score() == 100.0);
  CHECK(report.has_mistake("grader-error"));
  CHECK_THAT(report.tests.front().output, ContainsSubstring("not a mistake in the submission"));
}
