#include "evidence/cross_references.hpp"

#include <string>

namespace labrun {

namespace {

// A lab's name, as a case's name begins with it: lower-case letters, digits and '-'. Commands name
// files after it (`aggregate.<lab>.csv`), so it is never a path and never longer than kLabNameMaxBytes.
bool is_lab_name(const std::string& name) {
  return !name.empty() && name.size() <= kLabNameMaxBytes &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

}  // namespace

std::optional<SchemaProblem> dangling_reference(const Transcript& t) {
  if (!is_lab_name(t.lab_name)) {
    return SchemaProblem{"/lab/name", "'" + t.lab_name + "' is not a lab's name (1 to " +
                                          std::to_string(kLabNameMaxBytes) +
                                          " lower-case letters, digits and '-': files are named after it)"};
  }
  for (std::size_t i = 0; i < t.cases.size(); ++i) {
    const CaseResult& c = t.cases[i];
    const std::string prefix = t.lab_name + "/" + c.part + "/";
    if (c.name.rfind(prefix, 0) != 0) {
      return SchemaProblem{"/cases/" + std::to_string(i) + "/name",
                           "'" + c.name + "' is not a case of lab " + t.lab_name + ", part " + c.part +
                               " (a case is named " + prefix + "<name>)"};
    }
  }
  const auto names_no_case = [&](const std::string& name, const std::string& size_label) {
    return "'" + name + "'" + (size_label.empty() ? "" : " at size '" + size_label + "'") +
           " names no case of this transcript";
  };
  if (t.stability && t.find_case(t.stability->case_name, t.stability->size_label) == nullptr) {
    return SchemaProblem{"/stability/case", names_no_case(t.stability->case_name, t.stability->size_label)};
  }
  if (t.profile) {
    for (std::size_t i = 0; i < t.profile->cases.size(); ++i) {
      const ProfiledCase& p = t.profile->cases[i];
      if (t.find_case(p.name, p.size_label) == nullptr) {
        return SchemaProblem{"/profile/cases/" + std::to_string(i) + "/name",
                             names_no_case(p.name, p.size_label)};
      }
    }
  }
  if (t.timeline) {
    for (std::size_t i = 0; i < t.timeline->cases.size(); ++i) {
      const TimelineCase& traced = t.timeline->cases[i];
      if (t.find_case(traced.name, traced.size_label) == nullptr) {
        return SchemaProblem{"/timeline/cases/" + std::to_string(i) + "/name",
                             names_no_case(traced.name, traced.size_label)};
      }
    }
  }
  if (!t.is_transcribed()) {
    for (std::size_t i = 0; i < t.predictions.size(); ++i) {
      const PredictionRecord& p = t.predictions[i];
      for (const auto& [field, name] :
           {std::pair<const char*, const std::string&>{"slower_case", p.slower_case},
            std::pair<const char*, const std::string&>{"faster_case", p.faster_case}}) {
        if (t.find_case(name) == nullptr) {
          return SchemaProblem{"/predictions/" + std::to_string(i) + "/" + field, names_no_case(name, "")};
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace labrun
