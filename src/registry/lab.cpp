#include "registry/lab.hpp"

namespace labrun {

const CaseSpec* Lab::find_case(const std::string& case_name) const {
  for (const CaseSpec& spec : cases) {
    if (spec.name == case_name) {
      return &spec;
    }
  }
  return nullptr;
}

}  // namespace labrun
