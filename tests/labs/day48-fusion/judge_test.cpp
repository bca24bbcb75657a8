#include "grading/judge.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;
using day48::grading::ChildResults;
using day48::grading::JudgeInput;
using day48::grading::SizeResult;

namespace {

labrun::CorrectnessCheck check(std::uint64_t elements, std::uint64_t mismatches) {
  labrun::CorrectnessCheck c;
  c.elements = elements;
  c.mismatches = mismatches;
  c.passed = mismatches == 0;
  if (mismatches > 0) {
    c.first_bad_index = elements - mismatches;
  }
  return c;
}

SizeResult good_size(const std::string& label, std::uint64_t n) {
  SizeResult s;
  s.label = label;
  s.elements = n;
  s.check = check(n, 0);
  if (label == "odd") {
    s.isolated_check = check(n, 0);
  }
  return s;
}

// A submission that does everything right, as the child and the tools would report it.
JudgeInput good_input() {
  JudgeInput in;
  in.submission = "halfway.cu";
  in.manifest = labrun::Manifest{"s1", 20.0, 2, 1.8, 1.67};
  in.compiled = true;
  in.child = labrun::ProcessResult{true, false, 0, 0, 5.0, ""};
  ChildResults results;
  results.completed = true;
  results.sizes = {good_size("odd", 1049187), good_size("card-scaled", 134217728)};
  day48::grading::TimingResult timing;
  timing.elements = 134217728;
  timing.submission_ms = 0.90;
  timing.reference_halfway_ms = 0.89;
  timing.staged_ms = 1.69;
  timing.fused_ms = 0.49;
  timing.copy_ms = 0.40;
  results.timing = timing;
  in.results = results;
  in.sanitizer_available = true;
  in.sanitizers = {{"memcheck", true, "ERROR SUMMARY: 0 errors"},
                   {"racecheck", true, "RACECHECK SUMMARY: 0 hazards"}};
  in.run_limit_seconds = 60.0;
  return in;
}

std::vector<std::string> mistake_ids(const labrun::GradeReport& r) {
  std::vector<std::string> ids;
  for (const auto& m : r.mistakes) {
    ids.push_back(m.id);
  }
  return ids;
}

}  // namespace

TEST_CASE("a right submission scores full marks and names nothing") {
  const labrun::GradeReport r = day48::grading::judge(good_input());
  CHECK(r.mistakes.empty());
  CHECK(r.score() == 100.0);
  CHECK(r.max_score() == 100.0);
  CHECK(r.student_id == "s1");
  CHECK_FALSE(r.figures.empty());
}

TEST_CASE("a compile error stops everything else") {
  JudgeInput in = good_input();
  in.compiled = false;
  in.compiler_output = "halfway.cu(12): error: expected a \";\"";
  in.child.reset();
  in.results.reset();
  in.sanitizers.clear();
  const labrun::GradeReport r = day48::grading::judge(in);
  CHECK(mistake_ids(r) == std::vector<std::string>{"compile-error"});
  CHECK_THAT(r.tests[0].output, ContainsSubstring("expected a \";\""));
  CHECK(r.score() == 10.0);  // only the manifest checks (5 + 5) can still pass
  CHECK(r.max_score() == 100.0);
}

TEST_CASE("a time-out is named and fails the run's checks") {
  JudgeInput in = good_input();
  in.child->timed_out = true;
  in.results.reset();
  in.sanitizers.clear();
  const labrun::GradeReport r = day48::grading::judge(in);
  CHECK(r.has_mistake("timeout"));
  CHECK_FALSE(r.tests[1].passed);
  CHECK_THAT(r.tests[1].output, ContainsSubstring("not measured: the run did not finish"));
}

TEST_CASE("the lesson's first classic mistake: right after a staged run, wrong alone") {
  JudgeInput in = good_input();
  in.results->sizes[0].isolated_check = check(1049187, 987654);
  const labrun::GradeReport r = day48::grading::judge(in);
  CHECK(r.has_mistake("reads-staged-buffer"));
  CHECK_FALSE(r.tests[3].passed);  // independence
  CHECK(r.tests[1].passed);        // the normal run itself was right
}

TEST_CASE("wrong compositions are recognised by the share of elements they match") {
  JudgeInput in = good_input();
  SizeResult& odd = in.results->sizes[0];
  odd.check = check(1049187, 1000000);
  odd.composition_elements = 1048576;
  odd.compositions = {{"gelu-twice", 1048576}, {"skip-clamp", 900000}};
  CHECK(day48::grading::judge(in).has_mistake("stage-2-applied-twice"));
  odd.compositions = {{"gelu-twice", 10}, {"skip-clamp", 1048570}};
  const labrun::GradeReport skipped = day48::grading::judge(in);
  CHECK(skipped.has_mistake("stage-skipped"));
  CHECK_THAT(skipped.mistakes[0].explanation, ContainsSubstring("without its clamp stage"));
  odd.compositions = {{"clamp-before-residual", 1048576}};
  CHECK(day48::grading::judge(in).has_mistake("stages-out-of-order"));
  odd.compositions = {{"clamp-before-residual", 1000000}};  // under 99.9%: no composition named
  CHECK(mistake_ids(day48::grading::judge(in)) == std::vector<std::string>{"wrong-output"});
}

TEST_CASE("unwritten elements: all of them, or only the tail") {
  JudgeInput in = good_input();
  SizeResult& odd = in.results->sizes[0];
  odd.check = check(1049187, 99);
  odd.isolated_check = check(1049187, 99);  // as wrong alone as after a staged run: independent
  odd.unwritten = 99;
  odd.trailing_unwritten = 99;
  const labrun::GradeReport tail = day48::grading::judge(in);
  CHECK(tail.has_mistake("tail-missed"));
  CHECK_FALSE(tail.has_mistake("reads-staged-buffer"));
  CHECK(tail.tests[3].passed);
  CHECK_THAT(tail.mistakes[0].explanation, ContainsSubstring("last 99 of 1049187"));
  odd.check = check(1049187, 1049187);
  odd.unwritten = 1049187;
  odd.trailing_unwritten = 1049187;
  CHECK(day48::grading::judge(in).has_mistake("output-unwritten"));
  odd.unwritten = 0;
  odd.trailing_unwritten = 0;
  odd.computed_non_finite = 1049187;
  CHECK(day48::grading::judge(in).has_mistake("nan-output"));
}

TEST_CASE("a write past n, a modified input and a staged buffer used are each named") {
  JudgeInput in = good_input();
  in.results->sizes[0].guards_around_output_intact = false;
  in.results->sizes[1].inputs_unchanged = false;
  in.results->sizes[0].staged_buffers_written = {"t2"};
  const labrun::GradeReport r = day48::grading::judge(in);
  CHECK(r.has_mistake("write-past-n"));
  CHECK(r.has_mistake("input-modified"));
  CHECK(r.has_mistake("uses-staged-buffer"));
  CHECK_FALSE(r.tests[4].passed);
}

TEST_CASE("the manifest's bytes and predictions are checked against the model") {
  JudgeInput in = good_input();
  in.manifest->bytes_per_element = 36.0;
  in.manifest->predicted_ratio_vs_staged = 2.0;
  in.manifest->predicted_ratio_vs_fused = 2.0;
  const labrun::GradeReport r = day48::grading::judge(in);
  CHECK(r.has_mistake("wrong-declared-bytes"));
  CHECK(r.has_mistake("wrong-predictions"));
  CHECK_THAT(r.mistakes[0].explanation, ContainsSubstring("36 is the staged chain's count"));
  CHECK_THAT(r.mistakes[1].explanation, ContainsSubstring("2.00 is the launch ratio"));
  CHECK(r.score() == 90.0);
  in.manifest.reset();
  in.manifest_problem = "none given";
  CHECK(day48::grading::judge(in).has_mistake("manifest-missing"));
}

TEST_CASE("speed: slow against the lab's own pair, impossible against the card's best") {
  JudgeInput in = good_input();
  in.results->timing->submission_ms = 5.3;  // 6x the lab's half-way pair
  const labrun::GradeReport slow = day48::grading::judge(in);
  CHECK(slow.has_mistake("slow"));
  CHECK(slow.score() == 90.0);
  in.results->timing->submission_ms = 0.2;  // 20 B/element at 13 TB/s
  CHECK(day48::grading::judge(in).has_mistake("impossible-time"));
}

TEST_CASE("without compute-sanitizer its check is skipped, not failed") {
  JudgeInput in = good_input();
  in.sanitizer_available = false;
  in.sanitizers.clear();
  const labrun::GradeReport r = day48::grading::judge(in);
  CHECK(r.max_score() == 90.0);
  CHECK(r.score() == 90.0);
  CHECK_THAT(r.tests[5].output, ContainsSubstring("skipped"));
  in.sanitizer_available = true;
  in.sanitizers = {{"memcheck", false, "ERROR SUMMARY: 2 errors"}};
  CHECK(day48::grading::judge(in).has_mistake("sanitizer-errors"));
}

TEST_CASE("a CUDA error in the child fails the run's checks with its message") {
  JudgeInput in = good_input();
  in.child->exit_code = 3;
  in.results->completed = false;
  in.results->error =
      "cudaErrorIllegalAddress (an illegal memory access was encountered) from cudaDeviceSynchronize()";
  in.results->sizes.clear();
  in.results->timing.reset();
  in.sanitizers.clear();
  const labrun::GradeReport r = day48::grading::judge(in);
  REQUIRE(r.has_mistake("cuda-error"));
  CHECK_THAT(r.mistakes[0].explanation, ContainsSubstring("cudaErrorIllegalAddress"));
  CHECK_FALSE(r.tests[1].passed);
  CHECK_THAT(r.tests[1].output, ContainsSubstring("the run stopped on an error"));
}
