#include "registry/registry.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/format.hpp"
#include "registry/pattern.hpp"

namespace labrun {
namespace {

// Lower-case letters, digits and '-', not empty: a lab's name, a size label, a claim's id.
bool is_plain_name(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string number_text(double value) {
  return std::isfinite(value) ? compact_number(value) : (std::isnan(value) ? "nan" : "inf");
}

// Builds the message of a mistake in one lab: "lab 'x': <field>: <problem>".
class Checker {
 public:
  explicit Checker(const Lab& lab) : lab_(lab) {
    for (const CaseSpec& spec : lab.cases) {
      if (!spec.verified_by.empty()) {
        versions_.insert(spec.verified_by);
      }
    }
  }

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw LabDeclarationError("lab '" + lab_.name + "': " + field + ": " + problem);
  }

  // A name the lab's claims, predictions or figures use must be one of its cases: a misspelt name
  // fails when the lab registers (every test and command), not as an empty row of a run.
  const CaseSpec& declared(const std::string& field, const std::string& name) const {
    const CaseSpec* spec = lab_.find_case(name);
    if (spec == nullptr) {
      fail(field, "names the case '" + name + "', which the lab does not declare");
    }
    return *spec;
  }

  void check_name() const {
    if (!is_plain_name(lab_.name)) {
      throw LabDeclarationError("lab '" + lab_.name +
                                "': name: a lab's name is lower-case letters, digits and '-'");
    }
  }

  void check_default_rounds() const {
    if (lab_.default_rounds < 2) {
      fail("default_rounds", std::to_string(lab_.default_rounds) +
                                 ": a run's intervals need at least 2 rounds, each in a context of its own");
    }
  }

  void check_correctness_size() const {
    if (lab_.correctness_elements % 2 == 0) {
      fail("correctness_elements",
           std::to_string(lab_.correctness_elements) + " is even; an odd size makes every bounds check fire");
    }
    if (const std::optional<Shape>& shape = lab_.correctness_shape) {
      if (shape->width % 2 == 0 || shape->height % 2 == 0 || shape->elements() != lab_.correctness_elements) {
        fail("correctness_shape", shape_text(*shape) + " must be an odd width and height whose area is " +
                                      "correctness_elements (" + std::to_string(lab_.correctness_elements) +
                                      ")");
      }
    }
  }

  void check_case(std::size_t index, std::set<std::string>& seen) const {
    const CaseSpec& spec = lab_.cases[index];
    const std::string field = "cases[" + std::to_string(index) + "] '" + spec.name + "'";
    const std::string prefix = lab_.name + "/" + spec.part + "/";
    if (!is_plain_name(spec.part) || spec.name.rfind(prefix, 0) != 0 ||
        !is_plain_name(spec.name.substr(prefix.size()))) {
      fail(field + ": name", "a case is named " + lab_.name +
                                 "/<part>/<name> (lower-case letters, digits and '-'), its "
                                 "part '" +
                                 spec.part + "' in the middle");
    }
    if (!seen.insert(spec.name).second) {
      fail(field, "declared twice");
    }
    const ByteModel& model = spec.model;
    for (const auto& [what, bytes] :
         {std::pair<const char*, double>{"read_bytes_per_element", model.read_bytes_per_element},
          std::pair<const char*, double>{"write_bytes_per_element", model.write_bytes_per_element}}) {
      if (!std::isfinite(bytes) || bytes < 0.0) {
        fail(field + ": model: " + what,
             number_text(bytes) + " bytes per element (it must be finite and >= 0)");
      }
    }
    if (model.launches < 1) {
      fail(field + ": model: launches",
           std::to_string(model.launches) +
               " launches per execution (a case launches at least one kernel or copy; every launch ratio "
               "divides by it)");
    }
    if (model.flops_per_element &&
        (!std::isfinite(*model.flops_per_element) || *model.flops_per_element < 0.0)) {
      fail(field + ": model: flops_per_element",
           number_text(*model.flops_per_element) + " (declared flops are finite and >= 0)");
    }
    if (spec.launches_per_sample < 1) {
      fail(field + ": launches_per_sample", std::to_string(spec.launches_per_sample) + " (at least 1)");
    }
    check_sizes(spec, field);
    check_figures(spec, field);
  }

  // A declared figure has a name, a unit, and exactly one of a finite value and a formula.
  void check_figures(const CaseSpec& spec, const std::string& field) const {
    std::set<std::string> names;
    for (std::size_t f = 0; f < spec.figures.size(); ++f) {
      const CaseFigure& figure = spec.figures[f];
      const std::string at = field + ": figures[" + std::to_string(f) + "] '" + figure.name + "'";
      if (figure.name.empty() || figure.unit.empty()) {
        fail(at, "a declared figure has a name and a unit (they head its column)");
      }
      if (!names.insert(figure.name).second) {
        fail(at, "declared twice for the case");
      }
      if (figure.value.has_value() == static_cast<bool>(figure.formula)) {
        fail(at, "a declared figure has a value or a formula, not both and not neither");
      }
      if (figure.value && !std::isfinite(*figure.value)) {
        fail(at + ": value", number_text(*figure.value) + " (a declared value is finite)");
      }
    }
  }

  void check_sizes(const CaseSpec& spec, const std::string& field) const {
    if (spec.sizes.empty()) {
      fail(field + ": sizes", "the case declares no size");
    }
    std::size_t images = 0;
    for (std::size_t s = 0; s < spec.sizes.size(); ++s) {
      const SizeRequest& size = spec.sizes[s];
      const std::string at = field + ": sizes[" + std::to_string(s) + "]";
      if (!is_plain_name(size.label)) {
        fail(at + ": label", "'" + size.label + "' (a size label is lower-case letters, digits and '-')");
      }
      if (size.is_card_scaled() && size.label != "card-scaled") {
        fail(at, "0 elements asks for the card-scaled size, so its label must be 'card-scaled', not '" +
                     size.label + "'");
      }
      if (size.is_image()) {
        ++images;
        const bool chosen_at_run_time =
            size.is_card_scaled() && size.shape->width == 0 && size.shape->height == 0;
        if (!chosen_at_run_time &&
            (size.shape->width == 0 || size.shape->height == 0 || size.shape->elements() != size.elements)) {
          fail(at, "the image " + shape_text(*size.shape) + " is not " + std::to_string(size.elements) +
                       " elements");
        }
        for (std::size_t other = 0; other < s; ++other) {
          const SizeRequest& earlier = spec.sizes[other];
          if (!size.is_card_scaled() && earlier.elements == size.elements && earlier.shape != size.shape) {
            fail(at, "two images of " + std::to_string(size.elements) +
                         " elements with different shapes: the shape of a size must follow from its "
                         "elements");
          }
        }
      }
    }
    if (images != 0 && images != spec.sizes.size()) {
      fail(field + ": sizes",
           "some sizes are images and some are not: a case's sizes are all images or none");
    }
  }

  void check_claim(std::size_t index, std::set<std::string>& ids) const {
    const ClaimSpec& claim = lab_.claims[index];
    const std::string field = "claims[" + std::to_string(index) + "] '" + claim.id + "'";
    if (!is_plain_name(claim.id)) {
      fail(field + ": id", "a claim's id is lower-case letters, digits and '-'");
    }
    if (!ids.insert(claim.id).second) {
      fail(field, "declared twice");
    }
    if (claim.statement.find("{byte_ratio}") != std::string::npos ||
        claim.statement.find("{launch_ratio}") != std::string::npos) {
      fail(field + ": statement", "a ratio placeholder is left in it (only byte_ratio_claim fills them)");
    }
    if (claim.kind == ClaimKind::kCustom) {
      if (!claim.evaluate) {
        fail(field, "custom, but declares no rule");
      }
    } else if (claim.cases.size() < 2) {
      fail(field + ": cases", "fewer than two cases");
    }
    if (claim.kind == ClaimKind::kBitwiseEqual) {
      for (const std::string& version : claim.cases) {
        if (versions_.count(version) == 0) {
          fail(field,
               "names the correctness version '" + version + "', which verifies none of the lab's cases");
        }
      }
      return;
    }
    std::vector<const CaseSpec*> specs;
    for (const std::string& name : claim.cases) {
      specs.push_back(&declared(field, name));
    }
    if (!claim.queued_launch_case.empty()) {
      if (claim.kind != ClaimKind::kPerLaunchConverges) {
        fail(field + ": queued_launch_case", "only a per-launch claim reads a queued empty launch");
      }
      static_cast<void>(declared(field, claim.queued_launch_case));
    }
    if (claim.kind == ClaimKind::kCustom) {
      return;
    }
    check_bound(claim, field);
    const bool reads_size = claim.kind == ClaimKind::kTimeRatio || claim.kind == ClaimKind::kBandwidthBand ||
                            claim.kind == ClaimKind::kNotFaster;
    if (reads_size && claim.at_every_size()) {
      for (std::size_t i = 1; i < specs.size(); ++i) {
        const bool shares =
            std::any_of(specs[0]->sizes.begin(), specs[0]->sizes.end(),
                        [&](const SizeRequest& size) { return specs[i]->declares_size(size.label); });
        if (!shares) {
          fail(field + ": size_label", "every size, but " + specs[i]->name + " (" +
                                           specs[i]->describe_sizes() + ") shares no size with " +
                                           specs[0]->name + " (" + specs[0]->describe_sizes() +
                                           "); the claim would never be measured");
        }
      }
    } else if (reads_size) {
      for (const CaseSpec* spec : specs) {
        if (!spec->declares_size(claim.size_label)) {
          fail(field + ": size_label", "'" + claim.size_label + "' is not a size of " + spec->name +
                                           " (it declares: " + spec->describe_sizes() +
                                           "); the claim would never be measured");
        }
      }
    }
    if (claim.kind == ClaimKind::kTimeRatio && claim.expected_from_byte_models) {
      const double ratio = predicted_ratios(specs[0]->model, specs[1]->model).bytes;
      if (claim.bound.expected != ratio) {
        fail(field + ": expected", number_text(claim.bound.expected.value_or(std::nan(""))) +
                                       ", where the byte models of its cases give " + number_text(ratio) +
                                       " (byte_ratio_claim derives it from them)");
      }
    }
  }

  // A bound is a low end, a high end or both, finite, in order; a ratio's ends are above 0.
  void check_bound(const ClaimSpec& claim, const std::string& field) const {
    const ClaimBound& bound = claim.bound;
    if (!bound.low && !bound.high) {
      fail(field + ": bound", "none (at_most, at_least, within or between gives one)");
    }
    for (const auto& [what, value] :
         {std::pair<const char*, std::optional<double>>{"low", bound.low},
          std::pair<const char*, std::optional<double>>{"high", bound.high},
          std::pair<const char*, std::optional<double>>{"expected", bound.expected},
          std::pair<const char*, std::optional<double>>{"fraction", bound.fraction}}) {
      if (value && (!std::isfinite(*value) || *value < 0.0)) {
        fail(field + ": bound: " + what, number_text(*value) + " (finite and >= 0)");
      }
    }
    if (bound.low && bound.high && *bound.low > *bound.high) {
      fail(field + ": bound", "from " + number_text(*bound.low) + " to " + number_text(*bound.high) +
                                  ": its low end is above its high end");
    }
    if (claim.kind == ClaimKind::kTimeRatio && bound.expected && !(*bound.expected > 0.0)) {
      fail(field + ": expected", number_text(*bound.expected) + " (a ratio is above 0)");
    }
    if (claim.kind == ClaimKind::kNotFaster && (bound.high || !bound.low)) {
      fail(field + ": bound", "a not-faster claim bounds its figure from below only (not_faster_claim)");
    }
  }

  void check_references() const {
    for (std::size_t i = 0; i < lab_.predictions.size(); ++i) {
      const Prediction& p = lab_.predictions[i];
      const std::string field = "predictions[" + std::to_string(i) + "] '" + p.description + "'";
      declared(field, p.slower_case);
      const CaseSpec& faster = declared(field, p.faster_case);
      if (!(faster.model.bytes_per_element() > 0.0)) {
        fail(field, "its faster case " + faster.name + " moves no bytes, so the byte ratio has no value");
      }
    }
    if (!lab_.stability_case.empty()) {
      declared("stability_case", lab_.stability_case);
    }
    const CardFigures& figures = lab_.card_figures;
    for (const std::string* name : {&figures.copy_floor_case, &figures.launch_case,
                                    &figures.sweep_slower_case, &figures.sweep_faster_case}) {
      if (!name->empty()) {
        declared("card_figures", *name);
      }
    }
    for (const std::string& name : figures.ceiling_cases) {
      declared("card_figures", name);
    }
    const RooflineCases& roofline = lab_.roofline;
    if (roofline.empty()) {
      return;
    }
    if (roofline.memory_ceiling_cases.empty() || roofline.compute_ceiling_case.empty()) {
      fail("roofline", "a roofline names both its memory ceiling cases and its compute ceiling case");
    }
    for (const std::string& name : roofline.memory_ceiling_cases) {
      const CaseSpec& spec = declared("roofline: memory_ceiling_cases", name);
      if (!(spec.model.bytes_per_element() > 0.0)) {
        fail("roofline: memory_ceiling_cases", spec.name + " moves no bytes");
      }
    }
    const CaseSpec& compute = declared("roofline: compute_ceiling_case", roofline.compute_ceiling_case);
    if (!compute.model.flops_per_element || !(*compute.model.flops_per_element > 0.0)) {
      fail("roofline: compute_ceiling_case", compute.name + " declares no flops");
    }
  }

 private:
  const Lab& lab_;
  std::set<std::string> versions_;  // the correctness versions the lab's cases are verified by
};

}  // namespace

void check_lab(const Lab& lab) {
  const Checker checker(lab);
  checker.check_name();
  checker.check_correctness_size();
  checker.check_default_rounds();
  std::set<std::string> names;
  for (std::size_t i = 0; i < lab.cases.size(); ++i) {
    checker.check_case(i, names);
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < lab.claims.size(); ++i) {
    checker.check_claim(i, ids);
  }
  checker.check_references();
}

std::string left_out_line(const LeftOutLab& left_out) {
  if (!left_out.exercise.empty()) {
    return "labrun: exercise '" + left_out.exercise + "' of lab '" + left_out.name +
           "' left out of this build: " + left_out.reason;
  }
  return "labrun: lab '" + left_out.name + "' left out of this build: " + left_out.reason;
}

void LabRegistry::add(Lab lab) {
  if (find(lab.name) != nullptr) {
    throw LabDeclarationError("lab '" + lab.name + "': registered twice");
  }
  check_lab(lab);
  for (const auto& [exercise, reason] : lab.left_out_exercises) {
    left_out_.push_back(LeftOutLab{lab.name, reason, exercise});
  }
  std::vector<LabExercise> kept;
  for (LabExercise& exercise : lab.exercises) {
    std::string reason;
    if (exercise.lab != lab.name) {
      reason = "it is declared for lab '" + exercise.lab + "'";
    } else if (find_exercise(exercise.full_name()) != nullptr ||
               std::any_of(kept.begin(), kept.end(),
                           [&](const LabExercise& other) { return other.name == exercise.name; })) {
      reason = "an exercise of that name is registered already";
    } else if (!exercise.grade || !exercise.prepare_grading || !exercise.run_child) {
      reason = "it cannot be graded: it lacks its grader";
    }
    if (reason.empty()) {
      kept.push_back(std::move(exercise));
    } else {
      left_out_.push_back(LeftOutLab{lab.name, reason, exercise.name});
    }
  }
  lab.exercises = std::move(kept);
  labs_.push_back(std::move(lab));
}

void LabRegistry::add_or_leave_out(const std::string& name, const std::function<Lab()>& make) {
  try {
    add(make());
  } catch (const std::exception& error) {
    left_out_.push_back(LeftOutLab{name, error.what(), ""});
  }
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
