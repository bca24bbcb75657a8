// The folders of src/ include one another without a cycle, and the bottom layer (docs/architecture.md)
// includes none of the others: read from the sources, so a new include that closes a cycle fails here.

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

using Graph = std::map<std::string, std::set<std::string>>;

// Folder -> the other folders of src/ its files include ("#include \"evidence/markdown.hpp\"").
Graph folder_includes(const fs::path& src) {
  Graph graph;
  std::set<std::string> folders;
  for (const auto& entry : fs::directory_iterator(src)) {
    if (entry.is_directory()) {
      folders.insert(entry.path().filename().string());
      graph[entry.path().filename().string()];
    }
  }
  const std::regex include(R"(^\s*#\s*include\s*"([a-z_0-9]+)/)");
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() ||
        (extension != ".cpp" && extension != ".hpp" && extension != ".cu" && extension != ".cuh")) {
      continue;
    }
    const std::string folder = fs::relative(entry.path(), src).begin()->string();
    std::ifstream in(entry.path());
    std::string line;
    std::smatch match;
    while (std::getline(in, line)) {
      if (std::regex_search(line, match, include) && match[1] != folder && folders.count(match[1]) > 0) {
        graph[folder].insert(match[1]);
      }
    }
  }
  return graph;
}

// A cycle through `start`, as "a -> b -> a"; empty when there is none.
std::string cycle_from(const Graph& graph, const std::string& start) {
  std::vector<std::string> path{start};
  std::set<std::string> seen;
  std::vector<std::vector<std::string>> stack{{graph.at(start).begin(), graph.at(start).end()}};
  while (!stack.empty()) {
    if (stack.back().empty()) {
      stack.pop_back();
      path.pop_back();
      continue;
    }
    const std::string next = stack.back().back();
    stack.back().pop_back();
    if (next == start) {
      std::string text;
      for (const std::string& folder : path) {
        text += folder + " -> ";
      }
      return text + start;
    }
    if (seen.insert(next).second) {
      path.push_back(next);
      stack.emplace_back(graph.at(next).begin(), graph.at(next).end());
    }
  }
  return "";
}

}  // namespace

TEST_CASE("no include cycle joins two folders of src/") {
  const Graph graph = folder_includes(labrun::testing::repository_root() / "src");
  REQUIRE(graph.size() > 10);
  for (const auto& [folder, uses] : graph) {
    const std::string cycle = cycle_from(graph, folder);
    INFO("folder " << folder << " is on an include cycle: " << cycle);
    CHECK(cycle.empty());
  }
}

TEST_CASE("the bottom layer includes nothing of the other folders") {
  const Graph graph = folder_includes(labrun::testing::repository_root() / "src");
  CHECK(graph.at("base").empty());
  CHECK(graph.at("core").empty());
}

TEST_CASE("the cycle finder finds a cycle and names it") {
  const Graph graph{{"a", {"b"}}, {"b", {"c"}}, {"c", {"a"}}, {"d", {"a"}}};
  CHECK(cycle_from(graph, "a") == "a -> b -> c -> a");
  CHECK(cycle_from(graph, "d").empty());
}
