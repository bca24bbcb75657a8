// What every exercise's `run --submission` row shares (exercise/submission_row.hpp), without a GPU:
// the derived lab's facts, predictions and cases, and the trial's launch failure named as the
// submission's.

#include "exercise/submission_row.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "timing/cuda_check.hpp"

TEST_CASE("the submission's row keeps the lab's facts and predictions and adds its own after them") {
  labrun::Lab lab;
  lab.name = "a-lab";
  lab.predictions.push_back({"the lab's own", "slow", "fast"});
  labrun::LabDeclaration declaration("a-lab");
  declaration.facts([] { return std::vector<labrun::Fact>{{"lab_fact", std::int64_t{1}, ""}}; });
  const labrun::Manifest manifest;
  const labrun::SubmissionDeclaration submission{
      lab, nullptr, manifest, {{"submission_fact", std::string("yours"), ""}}, labrun::ByteModel{}};
  const labrun::Lab derived =
      labrun::lab_with_submission_row(submission, declaration, {{"slow over yours", "slow", "yours"}});
  REQUIRE(derived.predictions.size() == 2);
  CHECK(derived.predictions[0].description == "the lab's own");
  CHECK(derived.predictions[1].description == "slow over yours");
  CHECK(derived.name == "a-lab");
  CHECK(derived.open_session);
  const std::vector<labrun::Fact> facts = declaration.lab_facts()();
  REQUIRE(facts.size() == 2);
  CHECK(facts[0].key == "lab_fact");
  CHECK(facts[1].key == "submission_fact");
}

TEST_CASE("a trial call whose launch fails is the submission's error, named with its size") {
  std::vector<std::uint64_t> called;
  const auto failing = [&](std::uint64_t n) {
    called.push_back(n);
    throw labrun::CudaError(cudaErrorInvalidConfiguration, "cudaLaunchKernel", __FILE__, __LINE__);
  };
  REQUIRE_THROWS_WITH(
      labrun::trial_at_sizes({1049187, 4096}, "the submission's pair", failing),
      Catch::Matchers::StartsWith("the submission's pair at n = 1049187 could not be launched: "));
  REQUIRE_THROWS_AS(labrun::trial_at_sizes({1049187}, "the submission's pair", failing),
                    labrun::SubmissionError);
  CHECK(called == std::vector<std::uint64_t>{1049187, 1049187});
}
