#include "registry/registry.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "registry/pattern.hpp"

namespace labrun {

void LabRegistry::add(Lab lab) {
  if (find(lab.name) != nullptr) {
    throw std::invalid_argument("lab registered twice: " + lab.name);
  }
  std::set<std::string> names;
  for (const CaseSpec& spec : lab.cases) {
    if (spec.name.rfind(lab.name + "/", 0) != 0) {
      throw std::invalid_argument("case '" + spec.name + "' must start with '" + lab.name + "/'");
    }
    if (!names.insert(spec.name).second) {
      throw std::invalid_argument("case declared twice: " + spec.name);
    }
    if (spec.sizes.empty()) {
      throw std::invalid_argument("case '" + spec.name + "' declares no size");
    }
  }
  std::set<std::string> claim_ids;
  for (const ClaimSpec& claim : lab.claims) {
    if (!claim_ids.insert(claim.id).second) {
      throw std::invalid_argument("claim declared twice: " + claim.id);
    }
    if (claim.kind == ClaimKind::kCustom) {
      if (!claim.evaluate) {
        throw std::invalid_argument("claim '" + claim.id + "' is custom but declares no rule");
      }
    } else if (claim.cases.size() < 2) {
      throw std::invalid_argument("claim '" + claim.id + "' names fewer than two cases");
    }
  }
  labs_.push_back(std::move(lab));
}

const Lab* LabRegistry::find(const std::string& name) const {
  for (const Lab& lab : labs_) {
    if (lab.name == name) {
      return &lab;
    }
  }
  return nullptr;
}

std::vector<const CaseSpec*> select_cases(const Lab& lab, const std::vector<std::string>& patterns) {
  std::vector<const CaseSpec*> selected;
  for (const CaseSpec& spec : lab.cases) {
    bool wanted = patterns.empty();
    for (const std::string& pattern : patterns) {
      wanted = wanted || case_matches(pattern, lab.name, spec.name);
    }
    if (wanted) {
      selected.push_back(&spec);
    }
  }
  return selected;
}

std::vector<std::string> patterns_matching_nothing(const Lab& lab, const std::vector<std::string>& patterns) {
  std::vector<std::string> unmatched;
  for (const std::string& pattern : patterns) {
    const bool matches = std::any_of(lab.cases.begin(), lab.cases.end(), [&](const CaseSpec& spec) {
      return case_matches(pattern, lab.name, spec.name);
    });
    if (!matches) {
      unmatched.push_back(pattern);
    }
  }
  return unmatched;
}

}  // namespace labrun
