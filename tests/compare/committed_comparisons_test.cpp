// The committed comparisons are harness output: each must be exactly what `labrun compare` writes
// today from the transcripts its folder's MANIFEST.tsv names (scripts/regenerate-comparisons.sh).

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "cli/app.hpp"

namespace fs = std::filesystem;

TEST_CASE("every committed comparison is what labrun compare writes") {
  const fs::path root = fs::path(LABRUN_TEST_DATA_DIR).parent_path();
  const fs::path folder = root / "evidence" / "day48-fusion" / "comparisons";
  std::ifstream manifest(folder / "MANIFEST.tsv");
  REQUIRE(manifest);
  std::vector<std::string> listed;
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::istringstream fields(line);
    std::string output;
    std::string format;
    std::string baseline;
    std::string candidate;
    std::getline(fields, output, '\t');
    std::getline(fields, format, '\t');
    std::getline(fields, baseline, '\t');
    std::getline(fields, candidate, '\t');
    INFO(output << " (regenerate with scripts/regenerate-comparisons.sh and review the diff)");
    const std::string baseline_path = (root / baseline).string();
    const std::string candidate_path = (root / candidate).string();
    const std::vector<const char*> argv{
        "labrun", "compare", baseline_path.c_str(), candidate_path.c_str(), "--format", format.c_str()};
    std::ostringstream out;
    std::ostringstream err;
    REQUIRE(labrun::run_cli(static_cast<int>(argv.size()), argv.data(), out, err) == 0);
    CHECK(out.str() == labrun::read_file(folder / output));
    listed.push_back(output);
  }
  // Every .md and .json in the folder is listed, so none is left to drift unchecked.
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" || entry.path().extension() == ".json") {
      INFO(name << " is not in MANIFEST.tsv");
      CHECK(std::find(listed.begin(), listed.end(), name) != listed.end());
    }
  }
  CHECK(listed.size() >= 5);
}
