#include "evidence/consistency.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <filesystem>
#include <limits>

#include "base/atomic_file.hpp"
#include "core/rounds.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "registry/registry.hpp"
#include "support/sample_transcript.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// A committed day-48 H200 run of schema 1.5.0, the newest committed (its claims are judged again),
// with its claims recorded.
fs::path committed_run_file() {
  return labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-12-01T12-20-33Z.json.gz";
}

const labrun::Transcript& committed_run() {
  static const labrun::Transcript transcript =
      labrun::transcript_from_text(labrun::read_evidence_text(committed_run_file()));
  return transcript;
}

const labrun::Transcript& committed_transcription() {
  static const labrun::Transcript transcript = labrun::transcript_from_text(labrun::read_evidence_text(
      labrun::testing::evidence_folder() / "day48-fusion" / "tesla-t4-lesson" / "cuda-12.6-original.json"));
  return transcript;
}

const labrun::Lab* day48_lab() {
  return labrun::registered_labs().find("day48-fusion");
}

// The first case with samples whose clocks are known, and its index.
std::size_t clocked_case(const labrun::Transcript& t) {
  for (std::size_t i = 0; i < t.cases.size(); ++i) {
    if (t.cases[i].median_cycles && t.cases[i].samples_ms.size() > 6) {
      return i;
    }
  }
  FAIL("no case with clocks in " << committed_run_file());
  return 0;
}

std::string consistency_problem(const labrun::Transcript& t) {
  const std::optional<labrun::SchemaProblem> problem = labrun::inconsistent_figure(t, day48_lab());
  return problem ? problem->pointer + ": " + problem->message : "";
}

}  // namespace

TEST_CASE("a committed run and a committed transcription are consistent, figure for figure") {
  REQUIRE(committed_run().schema_version == "1.5.0");  // the newest committed: its claims are judged again
  REQUIRE_FALSE(committed_run().claims.empty());
  CHECK(consistency_problem(committed_run()).empty());
  CHECK(consistency_problem(committed_transcription()).empty());
  CHECK_FALSE(labrun::inconsistent_figure(committed_run(), nullptr).has_value());  // a lab this build lacks
}

TEST_CASE("validate names the first figure that does not follow from the samples, with its pointer") {
  const labrun::testing::TemporaryDirectory dir;
  labrun::Transcript forged = committed_run();
  forged.cases[0].summary.median = -1.0;
  const fs::path file = dir.path / "forged.json";
  labrun::write_file_atomically(file, labrun::transcript_to_text(forged), false);
  const labrun::TranscriptCheck check = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  CHECK_FALSE(check.transcript.has_value());
  CHECK_THAT(check.problem,
             ContainsSubstring(file.string() + ": /cases/0/summary/median_ms: -1 does not follow "
                                               "from its samples_ms (which give "));
}

TEST_CASE("every summary figure is computed again from the samples") {
  const std::size_t at = clocked_case(committed_run());
  const std::string prefix = "/cases/" + std::to_string(at);
  SECTION("a sample edited without its summary") {
    labrun::Transcript t = committed_run();
    t.cases[at].samples_ms.back() *= 0.5;  // the largest or another: min, mean or a quartile moves
    CHECK_THAT(consistency_problem(t), ContainsSubstring(prefix + "/summary/"));
  }
  SECTION("a count that is not the samples'") {
    labrun::Transcript t = committed_run();
    t.cases[at].summary.count += 1;
    CHECK_THAT(consistency_problem(t), ContainsSubstring(prefix + "/summary/count"));
  }
  SECTION("each figure of the summary") {
    const auto forge = [&](double labrun::SampleSummary::*figure, const std::string& field) {
      labrun::Transcript t = committed_run();
      t.cases[at].summary.*figure *= 1.001;
      CHECK_THAT(consistency_problem(t), ContainsSubstring(prefix + "/summary/" + field));
    };
    forge(&labrun::SampleSummary::median, "median_ms");
    forge(&labrun::SampleSummary::mean, "mean_ms");
    forge(&labrun::SampleSummary::min, "min_ms");
    forge(&labrun::SampleSummary::max, "max_ms");
    forge(&labrun::SampleSummary::q1, "q1_ms");
    forge(&labrun::SampleSummary::q3, "q3_ms");
    forge(&labrun::SampleSummary::relative_spread, "relative_spread");
    forge(&labrun::SampleSummary::relative_median_ci, "relative_median_ci");
  }
  SECTION("cycles per execution, throttled samples and clocks against the samples") {
    labrun::Transcript cycles = committed_run();
    *cycles.cases[at].median_cycles *= 2.0;
    CHECK_THAT(consistency_problem(cycles), ContainsSubstring(prefix + "/median_cycles"));
    labrun::Transcript throttled = committed_run();
    throttled.cases[at].throttled_samples = {0};  // its clock is above the threshold
    if (throttled.cases[at].sample_sm_clock_mhz[0].value_or(0.0) >=
        *throttled.timing->throttle_threshold_mhz) {
      CHECK_THAT(consistency_problem(throttled), ContainsSubstring(prefix + "/throttled_samples"));
    }
    labrun::Transcript beyond = committed_run();
    beyond.cases[at].gate_timeout_samples = {beyond.cases[at].samples_ms.size()};
    CHECK_THAT(consistency_problem(beyond), ContainsSubstring(prefix + "/gate_timeout_samples/0"));
    labrun::Transcript clocks = committed_run();
    clocks.cases[at].sample_sm_clock_mhz.pop_back();
    CHECK_THAT(consistency_problem(clocks), ContainsSubstring(prefix + "/sample_sm_clock_mhz"));
  }
}

TEST_CASE("derived figures follow from the byte model the lab declares, and claims from the figures") {
  SECTION("a byte model the lab does not declare (it would inflate every GB/s)") {
    labrun::Transcript t = committed_run();
    std::size_t at = 0;
    while (at < t.cases.size() && t.cases[at].name != "day48-fusion/part2/copy-floor") {
      ++at;
    }
    REQUIRE(at < t.cases.size());
    t.cases[at].model.read_bytes_per_element *= 2.0;
    CHECK_THAT(consistency_problem(t),
               ContainsSubstring("/cases/" + std::to_string(at) +
                                 "/model/read_bytes_per_element: 8, where "
                                 "day48-fusion declares 4 for day48-fusion/part2/copy-floor"));
  }
  SECTION("a predicted ratio that is not its cases' byte ratio") {
    labrun::Transcript t = committed_run();
    t.predictions.at(0).ratios.bytes = 2.5;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/predictions/0/byte_ratio: 2.5 does not follow"));
  }
  SECTION("a claim whose verdict its own figures contradict") {
    labrun::Transcript t = committed_run();
    labrun::ClaimResult& claim = t.claims.at(0);
    claim.verdict =
        claim.verdict == labrun::Verdict::kHeld ? labrun::Verdict::kFailed : labrun::Verdict::kHeld;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/claims/0/verdict"));
  }
  SECTION("a claim's measured figure that is not what the figures give") {
    labrun::Transcript t = committed_run();
    REQUIRE(t.claims.at(0).measured.has_value());
    *t.claims.at(0).measured *= 1.01;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/claims/0/measured"));
  }
  SECTION("a claim of an older schema version is not judged again by today's rules") {
    labrun::Transcript t = committed_run();
    t.schema_version = "1.4.0";
    t.claims.at(0).verdict = labrun::Verdict::kNotMeasured;
    CHECK(consistency_problem(t).empty());
  }
  SECTION("the stability record against its case and its own samples") {
    labrun::Transcript first = committed_run();
    REQUIRE(first.stability.has_value());
    first.stability->first_median_ms *= 1.5;
    CHECK_THAT(consistency_problem(first), ContainsSubstring("/stability/first_median_ms"));
    labrun::Transcript second = committed_run();
    second.stability->second_median_ms *= 1.5;
    CHECK_THAT(consistency_problem(second), ContainsSubstring("/stability/second_median_ms"));
  }
  SECTION("correctness counts") {
    labrun::Transcript t = committed_run();
    REQUIRE_FALSE(t.correctness.empty());
    t.correctness[0].passed = !t.correctness[0].passed;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/correctness/checks/0/passed"));
    labrun::Transcript bitwise = committed_run();
    REQUIRE_FALSE(bitwise.bitwise.empty());
    bitwise.bitwise[0].differing = bitwise.bitwise[0].elements + 1;
    CHECK_THAT(consistency_problem(bitwise), ContainsSubstring("/correctness/bitwise/0/differing"));
  }
  SECTION("a case's elements against the size its label names") {
    labrun::Transcript t = committed_run();
    std::size_t at = 0;
    while (at < t.cases.size() && t.cases[at].size_label != "card-scaled") {
      ++at;
    }
    REQUIRE(at < t.cases.size());
    t.cases[at].elements /= 2;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/cases/" + std::to_string(at) + "/elements"));
  }
}

TEST_CASE("a transcribed reference, without samples, has positive published figures from a run or more") {
  labrun::Transcript negative = committed_transcription();
  REQUIRE(negative.cases.at(0).published.has_value());
  negative.cases[0].published->value_ms = -1.0;
  CHECK_THAT(consistency_problem(negative),
             ContainsSubstring("/cases/0/published/value_ms: -1 is not a time"));
  labrun::Transcript infinite = committed_transcription();
  infinite.cases[0].published->value_ms = std::numeric_limits<double>::infinity();
  CHECK_THAT(consistency_problem(infinite), ContainsSubstring("/cases/0/published/value_ms"));
  labrun::Transcript no_runs = committed_transcription();
  no_runs.cases[0].published->runs = 0;
  CHECK_THAT(consistency_problem(no_runs), ContainsSubstring("/cases/0/published/runs"));
  labrun::Transcript prediction = committed_transcription();
  prediction.predictions.at(0).ratios.launches = 3.0;
  CHECK_THAT(consistency_problem(prediction), ContainsSubstring("/predictions/0/launch_ratio"));
}

TEST_CASE("rounds - their intervals - and the verdicts over them are computed again (schema 1.6.0)") {
  const labrun::Transcript sample = labrun::testing::sample_day48_transcript();  // synthetic, never measured
  REQUIRE(sample.timing->rounds == 3);
  CHECK(consistency_problem(sample).empty());
  SECTION("a round's median that is not its samples'") {
    labrun::Transcript t = sample;
    t.cases.at(1).rounds.at(2).median_ms *= 2.0;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/cases/1/rounds/2/median_ms"));
  }
  SECTION("a case's interval that is not its rounds'") {
    labrun::Transcript t = sample;
    for (labrun::CaseResult& c : t.cases) {
      if (c.name == "day48-fusion/part2/staged-chain") {
        c.median_interval_ms->low *= 0.5;
      }
    }
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/median_interval_ms: "));
  }
  SECTION("a predicted ratio's interval that is not its cases' rounds'") {
    labrun::Transcript t = sample;
    t.predictions.at(0).measured.at(0).interval = labrun::Interval{2.99, 3.01};
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/predictions/0/measured/0/interval"));
  }
  SECTION("a claim's interval, and a verdict its interval does not give") {
    labrun::Transcript t = sample;
    t.claims.at(0).measured_interval = labrun::Interval{2.99, 3.01};
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/claims/0/measured_interval"));
    labrun::Transcript inconclusive = sample;
    inconclusive.claims.at(0).verdict = labrun::Verdict::kInconclusive;
    CHECK_THAT(consistency_problem(inconclusive), ContainsSubstring("/claims/0/verdict: \"inconclusive\""));
  }
}

TEST_CASE("each round's context and the launch check are computed again (schema 1.8.0)") {
  const labrun::Transcript sample = labrun::testing::sample_day48_transcript();  // synthetic, never measured
  REQUIRE(consistency_problem(sample).empty());
  SECTION("a round in another context than rounds_per_context gives it") {
    labrun::Transcript t = sample;
    t.cases.at(1).rounds.at(2).context = 1;  // merged with the second context: a narrower interval forged
    CHECK_THAT(consistency_problem(t),
               ContainsSubstring("/cases/1/rounds/2/context: context 1, where round 3 "
                                 "runs in context 2"));
  }
  SECTION("a context the run does not record") {
    labrun::Transcript t = sample;
    t.timing->contexts.pop_back();
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/rounds/2/context"));
  }
  SECTION("a launch check that does not follow from its gated samples") {
    labrun::Transcript t = sample;
    for (labrun::CaseResult& c : t.cases) {
      if (c.launch_check) {
        c.launch_check->launch_bound = false;
      }
    }
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/launch_check/launch_bound: false"));
    labrun::Transcript share = sample;
    for (labrun::CaseResult& c : share.cases) {
      if (c.launch_check) {
        c.launch_check->host_share = 0.1;
      }
    }
    CHECK_THAT(consistency_problem(share), ContainsSubstring("/launch_check/host_share"));
  }
}

namespace {

// The index of the first case of 2 interval units or more; t.cases.size() when there is none.
std::size_t first_case_of_units(const labrun::Transcript& t) {
  std::size_t index = 0;
  while (index < t.cases.size() && labrun::interval_units(t.cases[index]).size() < 2) {
    ++index;
  }
  return index;
}

}  // namespace

TEST_CASE("a case's figure is computed again from its contexts' medians (schema 1.10.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic, never measured
  REQUIRE(consistency_problem(t).empty());
  const std::size_t index = first_case_of_units(t);
  REQUIRE(index < t.cases.size());
  labrun::CaseResult& c = t.cases[index];
  SECTION("the geometric mean of its contexts' medians is consistent (its interval computed about it)") {
    c.figure_ms = labrun::unit_geometric_mean(c);
    c.median_interval_ms = labrun::case_median_interval(c, labrun::process_allowance_of(t));
    const std::string problem = consistency_problem(t);
    CHECK_THAT(problem, !ContainsSubstring("/cases/" + std::to_string(index) + "/"));
  }
  SECTION("any other figure is named") {
    c.figure_ms = labrun::unit_geometric_mean(c) * 0.97;  // a faster figure than the samples give
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/cases/" + std::to_string(index) + "/figure_ms"));
  }
  SECTION("an interval centred on the samples' median, not on the figure, is named") {
    c.figure_ms = labrun::unit_geometric_mean(c);
    REQUIRE(std::fabs(*c.figure_ms / c.summary.median - 1.0) > 1e-6);  // the two differ in this case
    CHECK_THAT(consistency_problem(t),
               ContainsSubstring("/cases/" + std::to_string(index) + "/median_interval_ms"));
  }
}

TEST_CASE("a case's units and its number of rounds are checked against its contexts and its size (1.11.0)") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic, never measured
  REQUIRE(consistency_problem(t).empty());
  const std::size_t index = first_case_of_units(t);
  REQUIRE(index < t.cases.size());
  labrun::CaseResult& c = t.cases[index];
  const auto units = static_cast<int>(labrun::interval_units(c).size());
  SECTION("the units its rounds ran in are consistent") {
    c.units = units;
    CHECK(consistency_problem(t).empty());
  }
  SECTION("any other count is named") {
    c.units = units + 1;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/cases/" + std::to_string(index) + "/units"));
  }
  SECTION("a small case with fewer rounds than the small cases take is named") {
    t.timing->small_case_rounds = t.timing->rounds + 1;
    t.timing->small_case_rounds_max_elements = c.elements;
    CHECK_THAT(consistency_problem(t), ContainsSubstring("/cases/" + std::to_string(index) + "/rounds"));
  }
  SECTION("a larger case keeps the run's rounds") {
    t.timing->small_case_rounds = t.timing->rounds + 1;
    t.timing->small_case_rounds_max_elements = 0;
    CHECK(consistency_problem(t).empty());
  }
}
