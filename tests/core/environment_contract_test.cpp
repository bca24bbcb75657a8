#include "core/environment_contract.hpp"

#include <catch2/catch_test_macros.hpp>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "core/install_layout.hpp"

TEST_CASE("what a measured transcript lacks is named by group, or by group and fact") {
  std::vector<labrun::FactGroup> environment{{"device", {labrun::Fact::known("name", std::string("GPU"))}},
                                             {"lab", {}}};
  const std::vector<std::string> missing = labrun::missing_from_contract(environment);
  CHECK(missing.front() == "device/uuid");
  CHECK(std::find(missing.begin(), missing.end(), "driver") != missing.end());
  CHECK(std::find(missing.begin(), missing.end(), "driver/driver_version") == missing.end());
  CHECK(std::find(missing.begin(), missing.end(), "lab") == missing.end());
  CHECK(environment.size() == 2);  // asking changes nothing
}

TEST_CASE("an older transcript is completed with facts marked not recorded") {
  std::vector<labrun::FactGroup> environment{{"device", {labrun::Fact::known("name", std::string("GPU"))}}};
  const std::vector<std::string> added = labrun::complete_with_unrecorded(environment, "predates 1.4.0");
  CHECK_FALSE(added.empty());
  CHECK(labrun::missing_from_contract(environment).empty());
  const labrun::Fact* uuid = environment[0].find("uuid");
  REQUIRE(uuid != nullptr);
  CHECK_FALSE(uuid->recorded);
  CHECK(uuid->unknown_reason == "predates 1.4.0");
  CHECK(environment[0].find("name")->recorded);
}

TEST_CASE("the contract in code is the contract in the 1.4.0 schema") {
  const nlohmann::json schema =
      nlohmann::json::parse(labrun::read_file(labrun::find_data_file("schema/transcript-1.4.0.schema.json")));
  const nlohmann::json& contract = schema["definitions"]["measured_environment"];
  std::vector<std::string> groups;
  for (const labrun::RequiredFactGroup& group : labrun::measured_environment_contract()) {
    groups.push_back(group.name);
    const nlohmann::json& node = contract["properties"][group.name];
    const std::vector<std::string> facts = node.contains("required")
                                               ? node["required"].get<std::vector<std::string>>()
                                               : std::vector<std::string>{};
    INFO(group.name);
    CHECK(facts == group.facts);
  }
  CHECK(contract["required"].get<std::vector<std::string>>() == groups);
}
