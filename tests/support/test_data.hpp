#pragma once
// Where the tests' committed data lives (LABRUN_TEST_DATA_DIR is the tests/ folder of the source tree).

#include <filesystem>

namespace labrun::testing {

//! The public grading corpus: one folder per submission with its expected verdict (expected.json).
inline std::filesystem::path grading_corpus() {
  return std::filesystem::path(LABRUN_TEST_DATA_DIR) / "grading" / "corpus";
}

}  // namespace labrun::testing
