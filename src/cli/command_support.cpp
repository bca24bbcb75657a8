#include "cli/command_support.hpp"

#include <stdexcept>

#include "device/visible_devices.hpp"
#include "registry/registry.hpp"
#include "runner/runner.hpp"

namespace labrun {

LabLookup registered_lab_lookup() {
  return [](const std::string& name) { return registered_labs().find(name); };
}

const Lab& find_lab_or_throw(const std::string& name) {
  const Lab* lab = registered_labs().find(name);
  if (lab == nullptr) {
    std::string known;
    for (const Lab& candidate : registered_labs().labs()) {
      known += (known.empty() ? "" : ", ") + candidate.name;
    }
    throw UsageError("unknown lab '" + name + "' (known: " + known + ")");
  }
  return *lab;
}

void choose_device_or_throw(int index) {
  try {
    choose_device(index);
  } catch (const std::out_of_range& error) {
    throw UsageError(error.what());
  }
}

int report_error(std::ostream& err, int status, const std::string& message) {
  err << "labrun: error: " << message << "\n";
  return status;
}

}  // namespace labrun
