// The figures and lists the docs quote, read again from the files they come from (CMakePresets.json,
// evidence/, src/, the registry, the code's own constants): a doc that drifts from what it describes
// fails here, naming what it should say. (docs/aggregating.md's and docs/reliability.md's figures from
// the aggregate of evidence/ are tests/aggregate/evidence_figures_doc_test.cpp's; docs/transcript-
// fields.md's field list is tests/evidence/transcript_fields_doc_test.cpp's.)

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "evidence/declaration_check.hpp"
#include "evidence/transcript_file.hpp"
#include "registry/registry.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

std::string repository_file(const std::string& relative) {
  return labrun::read_evidence_text(labrun::testing::repository_root() / relative);
}

// The paragraph of `text` (between blank lines) that starts with `opening`.
std::string paragraph_starting(const std::string& text, const std::string& opening) {
  const std::size_t start = text.find(opening);
  if (start == std::string::npos) {
    return "";
  }
  const std::size_t end = text.find("\n\n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The line of `text` that holds `marker`.
std::string line_holding(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) {
    return "";
  }
  const std::size_t start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

// Every "sm_NN" in `text`.
std::set<std::string> architectures_in(const std::string& text) {
  std::set<std::string> found;
  const std::regex sm("sm_[0-9]+");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), sm); it != std::sregex_iterator(); ++it) {
    found.insert(it->str());
  }
  return found;
}

// Text with every run of white space one space: a quoted phrase may break across lines in Markdown.
std::string flowing(const std::string& text) {
  return std::regex_replace(text, std::regex("\\s+"), " ");
}

nlohmann::json ci_preset() {
  const auto presets = nlohmann::json::parse(repository_file("CMakePresets.json"));
  for (const auto& preset : presets.at("configurePresets")) {
    if (preset.at("name") == "ci") {
      return preset;
    }
  }
  FAIL("CMakePresets.json has no ci preset");
  return {};
}

// "serial: 38 submissions in 57.0 s, 40.0 per minute" from a grading-scale-check.sh output.
struct SerialRun {
  int submissions = 0;
  std::string seconds;
  std::string per_minute;
};
SerialRun serial_run(const fs::path& scale_txt) {
  const std::string text = labrun::read_evidence_text(scale_txt);
  std::smatch match;
  REQUIRE(std::regex_search(text, match,
                            std::regex("serial: ([0-9]+) submissions in ([0-9.]+) s, ([0-9.]+) per minute")));
  return {std::stoi(match[1].str()), match[2].str(), match[3].str()};
}

}  // namespace

TEST_CASE("README's ci preset row and the preset's description name the architectures the preset builds") {
  const nlohmann::json preset = ci_preset();
  std::set<std::string> built;
  std::stringstream list(preset.at("cacheVariables").at("CMAKE_CUDA_ARCHITECTURES").get<std::string>());
  for (std::string architecture; std::getline(list, architecture, ';');) {
    built.insert("sm_" + architecture.substr(0, architecture.find('-')));
  }
  const std::string row = line_holding(repository_file("README.md"), "| `ci` | CI, machines with no GPU |");
  REQUIRE_FALSE(row.empty());
  CHECK(architectures_in(row) == built);
  CHECK(architectures_in(preset.at("displayName").get<std::string>()) == built);
}

TEST_CASE("README's evidence paragraph names every folder of evidence/, and the plots are where it says") {
  const std::string paragraph =
      flowing(paragraph_starting(repository_file("README.md"), "`evidence/` holds the committed evidence"));
  REQUIRE_FALSE(paragraph.empty());
  const fs::path evidence = labrun::testing::evidence_folder();
  for (const auto& lab : fs::directory_iterator(evidence)) {
    if (!lab.is_directory()) {
      continue;
    }
    if (lab.path().filename() == "schema") {
      CHECK(paragraph.find("`schema/`") != std::string::npos);
      continue;
    }
    for (const auto& folder : fs::directory_iterator(lab.path())) {
      if (folder.is_directory()) {
        const std::string named =
            "`" + lab.path().filename().string() + "/" + folder.path().filename().string() + "/`";
        INFO("README.md's evidence paragraph should name " << named);
        CHECK(paragraph.find(named) != std::string::npos);
      }
    }
  }
  // "each with its plots beside it from transcript schema 1.2.0 on (the six day-48 runs of schema 1.0.0
  // and 1.1.0 were written before labrun drew plots)"
  std::size_t without_plots = 0;
  for (const auto& lab : fs::directory_iterator(evidence)) {
    const fs::path runs = lab.path() / "nvidia-h200";
    if (!fs::is_directory(runs)) {
      continue;
    }
    for (const auto& entry : fs::directory_iterator(runs)) {
      const std::string name = entry.path().filename().string();
      if (!labrun::named_as_transcript(entry.path()) || name.find(".trace.json") != std::string::npos) {
        continue;
      }
      const std::string version = nlohmann::json::parse(labrun::read_evidence_text(entry.path()))
                                      .at("schema_version")
                                      .get<std::string>();
      const std::string stem = labrun::transcript_file_stem(entry.path());
      bool plotted = false;
      for (const auto& other : fs::directory_iterator(runs)) {
        const std::string other_name = other.path().filename().string();
        plotted = plotted || (other_name.rfind(stem + ".", 0) == 0 && other.path().extension() == ".svg");
      }
      INFO(entry.path() << " (schema " << version << ")");
      CHECK(plotted == (version != "1.0.0" && version != "1.1.0"));
      without_plots += plotted ? 0 : 1;
    }
  }
  CHECK(without_plots == 6);
  CHECK(paragraph.find("from transcript schema 1.2.0 on (the six day-48 runs of schema 1.0.0 and 1.1.0") !=
        std::string::npos);
}

TEST_CASE("README's layout and docs/architecture.md name every folder of src/") {
  const std::string layout =
      flowing(paragraph_starting(repository_file("README.md"), "`src/` holds the harness"));
  const std::string architecture = repository_file("docs/architecture.md");
  REQUIRE_FALSE(layout.empty());
  for (const auto& entry : fs::directory_iterator(labrun::testing::repository_root() / "src")) {
    if (entry.is_directory()) {
      const std::string folder = entry.path().filename().string();
      INFO("src/" << folder << "/ is not named in README.md's layout or docs/architecture.md");
      CHECK(layout.find("`" + folder + "/`") != std::string::npos);
      CHECK(architecture.find("`" + folder + "`") != std::string::npos);
    }
  }
}

TEST_CASE("docs/architecture.md counts the registered labs and names each one's declaration") {
  const std::vector<std::string> words{"no", "one", "both", "All three", "All four", "All five"};
  const std::vector<labrun::Lab>& labs = labrun::registered_labs().labs();
  REQUIRE(labs.size() < words.size());
  const std::string sentence = flowing(repository_file("docs/architecture.md"));
  const std::string claim = words[labs.size()] + " registered labs are declared";
  INFO("docs/architecture.md should say: " << claim);
  const std::size_t at = sentence.find(claim);
  REQUIRE(at != std::string::npos);
  const std::string named = sentence.substr(at, sentence.find(';', at) - at);
  for (const labrun::Lab& lab : labs) {
    INFO("the sentence should name labs/" << lab.name << "/");
    CHECK(named.find("`labs/" + lab.name + "/") != std::string::npos);
  }
}

TEST_CASE(
    "docs/grading-at-scale.md quotes the serial grading times and the threat model's point as they are") {
  const std::string page = flowing(repository_file("docs/grading-at-scale.md"));
  const fs::path grading = labrun::testing::evidence_folder() / "day48-fusion" / "grading";
  const SerialRun corpus = serial_run(grading / "scale-2026-12-02T01-00Z" / "scale.txt");
  const SerialRun honest = serial_run(grading / "scale-2026-12-02T02-47Z-honest" / "scale.txt");
  const std::string each = labrun::fixed(std::stod(corpus.seconds) / corpus.submissions, 1);
  const std::vector<std::string> quoted{
      std::to_string(corpus.submissions) + " submissions one at a time, in " + corpus.seconds +
          " s: " + each + " s each",
      "| serial, whole corpus | `scale-2026-12-02T01-00Z/` | " + std::to_string(corpus.submissions) + " | " +
          corpus.seconds + " s | " + corpus.per_minute + " |",
      "| serial, honest | `scale-2026-12-02T02-47Z-honest/` | " + std::to_string(honest.submissions) + " | " +
          honest.seconds + " s | " + honest.per_minute + " |",
  };
  for (const std::string& figure : quoted) {
    INFO("docs/grading-at-scale.md should say: " << figure);
    CHECK(page.find(figure) != std::string::npos);
  }
  // The threat model's point on text from a submission, by its number in docs/grading.md.
  std::smatch match;
  const std::string model = repository_file("docs/grading.md");
  REQUIRE(
      std::regex_search(model, match, std::regex("\\n([0-9]+)\\. \\*\\*Text from a submission cannot act")));
  const std::string reference = "threat model, point " + match[1].str() + ")";
  INFO("docs/grading-at-scale.md should say: " << reference);
  CHECK(page.find(reference) != std::string::npos);
}

TEST_CASE("docs/timeline.md's two clocks are the traced transcript's") {
  const fs::path file =
      labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-12-01T05-42-33Z.json.gz";
  const auto transcript = nlohmann::json::parse(labrun::read_evidence_text(file));
  const auto& cases = transcript.at("timeline").at("cases");
  const auto empty = std::find_if(cases.begin(), cases.end(), [](const nlohmann::json& c) {
    return c.at("name") == "day48-fusion/part1/empty-single-thread";
  });
  REQUIRE(empty != cases.end());
  const std::string clocks =
      labrun::fixed(empty->at("gpu_span_median_us").get<double>(), 1) + " µs of GPU work in a " +
      labrun::fixed(empty->at("event_median_us").get<double>(), 1) + " µs event median";
  const std::string page = flowing(repository_file("docs/timeline.md"));
  std::size_t quoted = 0;
  for (std::size_t at = page.find(clocks); at != std::string::npos; at = page.find(clocks, at + 1)) {
    ++quoted;
  }
  INFO("docs/timeline.md should say, in both places: " << clocks);
  CHECK(quoted == 2);
  CHECK(page.find(std::to_string(cases.size()) + " case-sizes traced") != std::string::npos);
}

TEST_CASE(
    "docs/transcript-fields.md says which versions are judged again and what a transcribed figure's runs may "
    "be") {
  const std::string page = flowing(repository_file("docs/transcript-fields.md"));
  const std::string rejudged =
      std::string("a transcript of schema ") + labrun::kClaimsRejudgedFromVersion + " or later";
  INFO("docs/transcript-fields.md should say: " << rejudged);
  CHECK(page.find(rejudged) != std::string::npos);
  // "as both day-20 times in evidence/day20-sobel-threshold/tesla-t4-lesson/ are": 0 runs, not stated.
  const fs::path day20 = labrun::testing::evidence_folder() / "day20-sobel-threshold" / "tesla-t4-lesson";
  std::size_t not_stated = 0;
  for (const auto& entry : fs::directory_iterator(day20)) {
    const nlohmann::json transcribed = nlohmann::json::parse(labrun::read_evidence_text(entry.path()));
    for (const auto& c : transcribed.at("cases")) {
      const auto& published = c.at("published");
      CHECK(published.at("runs") == 0);
      CHECK(published.at("statistic") == "not stated");
      ++not_stated;
    }
  }
  CHECK(not_stated == 2);
  CHECK(page.find("as both day-20 times in `evidence/day20-sobel-threshold/tesla-t4-lesson/` are") !=
        std::string::npos);
}

TEST_CASE("every host test a doc names by its full name exists") {
  // Test names as the sources declare them (TEST_CASE("...")), and every `host.NAME` the docs quote
  // whole (a quote cut short with "..." is left out).
  std::set<std::string> declared;
  // A name clang-format broke into adjacent literals is their concatenation.
  const std::regex test_case("TEST_CASE\\(\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*)+)");
  const std::regex literal("\"((?:[^\"\\\\]|\\\\.)*)\"");
  for (const auto& entry : fs::recursive_directory_iterator(labrun::testing::repository_root() / "tests")) {
    if (entry.path().extension() != ".cpp") {
      continue;
    }
    const std::string source = labrun::read_evidence_text(entry.path());
    for (auto it = std::sregex_iterator(source.begin(), source.end(), test_case);
         it != std::sregex_iterator(); ++it) {
      const std::string literals = (*it)[1].str();
      std::string name;
      for (auto piece = std::sregex_iterator(literals.begin(), literals.end(), literal);
           piece != std::sregex_iterator(); ++piece) {
        name += (*piece)[1].str();
      }
      declared.insert(std::regex_replace(name, std::regex("\\\\(.)"), "$1"));
    }
  }
  REQUIRE(declared.size() > 100);
  std::vector<fs::path> docs{labrun::testing::repository_root() / "README.md"};
  for (const auto& entry : fs::directory_iterator(labrun::testing::repository_root() / "docs")) {
    docs.push_back(entry.path());
  }
  const std::regex quoted("`host\\.([^`]+)`");
  std::size_t checked = 0;
  for (const fs::path& doc : docs) {
    const std::string text = flowing(labrun::read_evidence_text(doc));
    for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted); it != std::sregex_iterator();
         ++it) {
      const std::string name = (*it)[1].str();
      if (name.find("...") != std::string::npos || name == "hostname") {
        continue;
      }
      INFO(doc.filename().string() << " names a host test that does not exist: " << name);
      CHECK(declared.count(name) == 1);
      ++checked;
    }
  }
  CHECK(checked > 10);
}
