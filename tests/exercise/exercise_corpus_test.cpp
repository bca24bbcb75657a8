// Every registered exercise's public corpus and skeleton, found from the registry in its lab's folder
// (labs/<lab>/grading/): a new exercise's corpus is checked with no line here. The GPU test grades
// them (tests/gpu/grading_corpus_test.cpp).

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "base/atomic_file.hpp"
#include "grading/manifest.hpp"
#include "support/exercises.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

TEST_CASE(
    "every registered exercise has a skeleton and a corpus in its lab's folder, each case stating its "
    "verdict") {
  for (const labrun::Exercise* exercise : labrun::testing::registered_exercises()) {
    INFO(exercise->full_name());
    const fs::path skeleton = labrun::testing::repository_root() / exercise->skeleton;
    CHECK(fs::is_regular_file(skeleton));
    CHECK(skeleton.parent_path().parent_path() ==
          labrun::testing::repository_root() / "labs" / exercise->lab / "grading");
    const fs::path corpus = labrun::testing::exercise_corpus(exercise->lab);
    REQUIRE(fs::is_directory(corpus));
    int cases = 0;
    std::set<double> scores;
    for (const auto& entry : fs::directory_iterator(corpus)) {
      INFO(entry.path().filename().string());
      REQUIRE(entry.is_directory());
      const std::vector<fs::path> sources = labrun::submission_sources(entry.path());
      CHECK(sources.size() == 1);
      const auto expected = nlohmann::json::parse(labrun::read_file(entry.path() / "expected.json"));
      CHECK(expected.at("builds").is_boolean());
      CHECK(expected.at("passes_correctness").is_boolean());
      CHECK(expected.at("mistakes").is_array());
      if (expected.contains("explains")) {  // words a named mistake's explanation must hold
        for (const auto& [id, words] : expected.at("explains").items()) {
          CHECK(std::find(expected.at("mistakes").begin(), expected.at("mistakes").end(), id) !=
                expected.at("mistakes").end());
          CHECK(words.is_array());
          CHECK(!words.empty());
          for (const auto& one : words) {
            CHECK(one.is_string());
          }
        }
      }
      const double score = expected.at("score").get<double>();
      CHECK((score >= 0.0 && score <= 100.0));
      CHECK((score < 100.0 || expected.at("mistakes").empty()));
      scores.insert(score);
      ++cases;
    }
    // At least one correct submission, and at least one that is not.
    CHECK(scores.count(100.0) == 1);
    CHECK(scores.size() > 1);
    CHECK(cases >= 3);
  }
}
