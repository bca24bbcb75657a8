#pragma once
// What a measured transcript always records about where it ran (schema 1.4.0): every metadata
// group, and in each group the facts the harness reads. A fact that could not be read is recorded
// as unknown with its reason; none is ever left out. evidence/schema/transcript-1.4.0.schema.json
// states the same contract (definitions/measured_environment); a host test keeps the two equal.

#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace labrun {

//! A group of the environment and the facts it must hold. The "lab" group holds the lab's own
//! facts (LabSession::facts), so it must be present but requires none.
struct RequiredFactGroup {
  std::string name;
  std::vector<std::string> facts;
};

//! The groups and facts every measured (or synthetic) transcript records, in the order the harness
//! writes them.
[[nodiscard]] const std::vector<RequiredFactGroup>& measured_environment_contract();

//! The facts of `group_name` the contract requires; empty for a group it does not name.
[[nodiscard]] const std::vector<std::string>& required_facts_of(const std::string& group_name);

//! What the contract requires that `environment` lacks: "device" for a whole group, "device/uuid"
//! for one fact, in contract order.
[[nodiscard]] std::vector<std::string> missing_from_contract(const std::vector<FactGroup>& environment);

//! Adds every group and fact the contract requires that `environment` lacks, as an unknown fact
//! with `reason` that is marked not recorded (Fact::recorded): how a transcript of an older schema
//! is read as a current one. Returns what was added, as missing_from_contract names it.
std::vector<std::string> complete_with_unrecorded(std::vector<FactGroup>& environment,
                                                  const std::string& reason);

}  // namespace labrun
