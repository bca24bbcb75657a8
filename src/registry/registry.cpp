#include "registry/registry.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "registry/pattern.hpp"

namespace labrun {
namespace {

// A name the lab's claims, predictions or card figures use must be one of its cases: a misspelt
// name fails when the lab is registered (every test and command), not as an empty row of a run.
void require_declared(const std::set<std::string>& cases, const std::string& name, const std::string& user) {
  if (cases.count(name) == 0) {
    throw std::invalid_argument(user + " names the case '" + name + "', which the lab does not declare");
  }
}

}  // namespace

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
    // A bitwise claim names correctness versions; every other names the lab's cases.
    if (claim.kind != ClaimKind::kBitwiseEqual) {
      for (const std::string& name : claim.cases) {
        require_declared(names, name, "claim '" + claim.id + "'");
      }
    }
  }
  for (const Prediction& prediction : lab.predictions) {
    require_declared(names, prediction.slower_case, "prediction '" + prediction.description + "'");
    require_declared(names, prediction.faster_case, "prediction '" + prediction.description + "'");
  }
  if (!lab.stability_case.empty()) {
    require_declared(names, lab.stability_case, "the stability case");
  }
  const CardFigures& figures = lab.card_figures;
  for (const std::string* name : {&figures.copy_floor_case, &figures.launch_case, &figures.sweep_slower_case,
                                  &figures.sweep_faster_case}) {
    if (!name->empty()) {
      require_declared(names, *name, "the card figures");
    }
  }
  for (const std::string& name : figures.ceiling_cases) {
    require_declared(names, name, "the card figures");
  }
  for (const LabExercise& exercise : lab.exercises) {
    if (exercise.lab != lab.name) {
      throw std::invalid_argument("exercise '" + exercise.name + "' is declared for lab '" + exercise.lab +
                                  "'");
    }
    if (find_exercise(exercise.name) != nullptr || lab.find_exercise(exercise.name) != &exercise) {
      throw std::invalid_argument("exercise registered twice: " + exercise.name);
    }
    if (!exercise.grade || !exercise.prepare_grading || !exercise.run_child) {
      throw std::invalid_argument("exercise '" + exercise.name + "' cannot be graded: it lacks its grader");
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

const LabExercise* LabRegistry::find_exercise(const std::string& name) const {
  const std::size_t slash = name.find('/');
  for (const Lab& lab : labs_) {
    if (slash != std::string::npos && name.compare(0, slash, lab.name) != 0) {
      continue;
    }
    if (const LabExercise* found =
            lab.find_exercise(slash == std::string::npos ? name : name.substr(slash + 1))) {
      return found;
    }
  }
  return nullptr;
}

std::vector<const LabExercise*> LabRegistry::exercises() const {
  std::vector<const LabExercise*> all;
  for (const Lab& lab : labs_) {
    for (const LabExercise& exercise : lab.exercises) {
      all.push_back(&exercise);
    }
  }
  return all;
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
