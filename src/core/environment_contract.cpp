#include "core/environment_contract.hpp"

#include <algorithm>

namespace labrun {

const std::vector<RequiredFactGroup>& measured_environment_contract() {
  static const std::vector<RequiredFactGroup> contract{
      {"device",
       {"name", "uuid", "pci_bus_id", "compute_capability", "sm_count", "l2_bytes", "memory_bytes",
        "memory_bus_width_bits", "memory_clock_khz", "sm_clock_peak_khz", "memory_peak_gb_per_s",
        "max_threads_per_sm", "ecc_enabled"}},
      {"driver", {"driver_version", "cuda_driver_api_version", "cuda_runtime_version"}},
      {"build",
       {"labrun_version", "nvcc_version", "cuda_flags", "cuda_architectures", "host_compiler",
        "cuda_host_compiler", "build_type", "git_commit", "git_dirty", "git_source"}},
      {"host", {"hostname", "operating_system"}},
      {"lab", {}},
      {"run", {"sm_clock_mhz_start", "sm_clock_mhz_end"}},
  };
  return contract;
}

const std::vector<std::string>& required_facts_of(const std::string& group_name) {
  static const std::vector<std::string> none;
  for (const RequiredFactGroup& group : measured_environment_contract()) {
    if (group.name == group_name) {
      return group.facts;
    }
  }
  return none;
}

namespace {

FactGroup* find_group(std::vector<FactGroup>& environment, const std::string& name) {
  const auto found = std::find_if(environment.begin(), environment.end(),
                                  [&](const FactGroup& g) { return g.name == name; });
  return found != environment.end() ? &*found : nullptr;
}

}  // namespace

std::vector<std::string> missing_from_contract(const std::vector<FactGroup>& environment) {
  std::vector<FactGroup> copy = environment;
  return complete_with_unrecorded(copy, "");
}

std::vector<std::string> complete_with_unrecorded(std::vector<FactGroup>& environment,
                                                  const std::string& reason) {
  std::vector<std::string> added;
  for (const RequiredFactGroup& required : measured_environment_contract()) {
    FactGroup* group = find_group(environment, required.name);
    const bool whole_group_missing = group == nullptr;
    if (whole_group_missing) {
      added.push_back(required.name);
      environment.push_back(FactGroup{required.name, {}});
      group = &environment.back();
    }
    for (const std::string& key : required.facts) {
      if (group->find(key) != nullptr) {
        continue;
      }
      if (!whole_group_missing) {
        added.push_back(required.name + "/" + key);
      }
      Fact fact = Fact::unknown(key, reason);
      fact.recorded = false;
      group->facts.push_back(std::move(fact));
    }
  }
  return added;
}

}  // namespace labrun
