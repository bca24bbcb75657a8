#include "registry/lab.hpp"

namespace labrun {

std::string CaseSpec::describe_sizes() const {
  std::string text;
  for (const SizeRequest& size : sizes) {
    text += (text.empty() ? "" : ", ") + (size.elements == 0 ? size.label : std::to_string(size.elements));
  }
  return text;
}

const CaseSpec* Lab::find_case(const std::string& case_name) const {
  for (const CaseSpec& spec : cases) {
    if (spec.name == case_name) {
      return &spec;
    }
  }
  return nullptr;
}

}  // namespace labrun
