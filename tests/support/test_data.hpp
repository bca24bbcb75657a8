#pragma once
// Where the tests' committed data lives (LABRUN_TEST_DATA_DIR is the tests/ folder of the source tree).

#include <filesystem>

namespace labrun::testing {

//! The source tree's root (the folder holding evidence/, labs/ and tests/).
inline std::filesystem::path repository_root() {
  return std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path();
}

//! The committed evidence: evidence/ at the root.
inline std::filesystem::path evidence_folder() {
  return repository_root() / "evidence";
}

//! The public grading corpus: one folder per submission with its expected verdict (expected.json).
inline std::filesystem::path grading_corpus() {
  return std::filesystem::path(LABRUN_TEST_DATA_DIR) / "grading" / "corpus";
}

}  // namespace labrun::testing
