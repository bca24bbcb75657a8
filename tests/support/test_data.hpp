#pragma once
// Where the tests' committed data lives (LABRUN_TEST_DATA_DIR is the tests/ folder of the source tree).

#include <filesystem>
#include <string>

#include "registry/registry.hpp"

namespace labrun::testing {

//! The source tree's root (the folder holding evidence/, labs/ and tests/).
inline std::filesystem::path repository_root() {
  return std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path();
}

//! The committed evidence: evidence/ at the root.
inline std::filesystem::path evidence_folder() {
  return repository_root() / "evidence";
}

//! A lab's public grading corpus, inside its folder (labs/<lab>/grading/corpus): one folder per
//! submission with its expected verdict (expected.json).
inline std::filesystem::path exercise_corpus(const std::string& lab) {
  return repository_root() / "labs" / lab / "grading" / "corpus";
}

//! Day 48's, which most of the grader's tests use.
inline std::filesystem::path grading_corpus() {
  return exercise_corpus("day48-fusion");
}

//! The lab of a name among this build's registered labs (or nullptr), for the transcript readers.
inline const Lab* registered_lab(const std::string& name) {
  return registered_labs().find(name);
}

}  // namespace labrun::testing
