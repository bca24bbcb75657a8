// The one place a lab is registered with the harness: add a line here for a new lab.

#include "day48-fusion/lab.hpp"
#include "fusion-verdicts/lab.hpp"
#include "registry/registry.hpp"

namespace labrun {

const LabRegistry& registered_labs() {
  static const LabRegistry registry = [] {
    LabRegistry labs;
    labs.add(day48::make_lab());
    labs.add(verdicts::make_lab());
    return labs;
  }();
  return registry;
}

}  // namespace labrun
