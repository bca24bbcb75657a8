#include "registry/lab.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "base/format.hpp"

namespace labrun {

SizeRequest image_size(std::string label, std::uint64_t width, std::uint64_t height) {
  return SizeRequest{std::move(label), width * height, Shape{width, height}};
}

SizeRequest card_scaled_image() {
  return SizeRequest{"card-scaled", 0, Shape{0, 0}};
}

CaseFigure declared_figure(std::string name, std::string unit, double value, std::string source) {
  CaseFigure figure;
  figure.name = std::move(name);
  figure.unit = std::move(unit);
  figure.value = value;
  figure.source = std::move(source);
  return figure;
}

CaseFigure formula_figure(std::string name, std::string unit, std::string words,
                          std::function<std::optional<double>(const CaseResult&)> formula) {
  CaseFigure figure;
  figure.name = std::move(name);
  figure.unit = std::move(unit);
  figure.formula = std::move(formula);
  figure.source = std::move(words);
  return figure;
}

CaseFigure rate_figure(std::string name, std::string unit) {
  return formula_figure(std::move(name), std::move(unit), "n / median time, in 10^9 a second",
                        [](const CaseResult& c) -> std::optional<double> {
                          if (!(c.central_ms() > 0.0)) {
                            return std::nullopt;
                          }
                          return static_cast<double>(c.elements) / (c.central_ms() * 1e6);
                        });
}

std::vector<DeclaredFigure> declared_figures_of(const CaseSpec& spec, const CaseResult& result) {
  std::vector<DeclaredFigure> records;
  for (const CaseFigure& figure : spec.figures) {
    DeclaredFigure record{figure.name, figure.unit, figure.value, figure.source, ""};
    if (figure.formula) {
      record.value = figure.formula(result);
      if (record.value && !std::isfinite(*record.value)) {
        record.value.reset();
      }
      if (!record.value) {
        record.unknown_reason = result.central_ms() > 0.0 ? "the formula gives no finite value for this case"
                                                          : "the case has no time";
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

std::string CaseSpec::describe_sizes() const {
  std::string text;
  for (const SizeRequest& size : sizes) {
    std::string one = size.label;
    if (size.is_card_scaled()) {
      one += size.is_image() ? " image" : "";
    } else {
      one += " " + (size.is_image() ? shape_text(*size.shape) : std::to_string(size.elements));
    }
    text += (text.empty() ? "" : ", ") + one;
  }
  return text;
}

bool CaseSpec::declares_size(const std::string& size_label) const {
  return std::any_of(sizes.begin(), sizes.end(),
                     [&](const SizeRequest& size) { return size.label == size_label; });
}

std::string case_name(const std::string& lab, const std::string& part, const std::string& name) {
  return lab + "/" + part + "/" + name;
}

CaseSpec case_spec(const std::string& name, std::string label, ByteModel model,
                   std::vector<SizeRequest> sizes, int launches_per_sample) {
  const std::size_t first = name.find('/');
  const std::size_t last = name.rfind('/');
  if (first == std::string::npos || first == last || first == 0 || last + 1 == name.size() ||
      last == first + 1 || name.find('/', first + 1) != last) {
    throw std::invalid_argument("case name '" + name + "' is not <lab>/<part>/<name>");
  }
  CaseSpec spec;
  spec.name = name;
  spec.part = name.substr(first + 1, last - first - 1);
  spec.label = std::move(label);
  spec.model = model;
  spec.sizes = std::move(sizes);
  spec.launches_per_sample = launches_per_sample;
  return spec;
}

std::optional<Shape> shape_at(const CaseSpec& spec, std::uint64_t elements) {
  bool images = false;
  for (const SizeRequest& size : spec.sizes) {
    if (size.is_image()) {
      images = true;
      if (!size.is_card_scaled() && size.elements == elements) {
        return size.shape;
      }
    }
  }
  return images ? power_of_two_image(elements) : std::nullopt;
}

std::string with_ratios(std::string statement, const PredictedRatios& ratios) {
  for (const auto& [placeholder, value] :
       {std::pair<std::string, double>{"{byte_ratio}", ratios.bytes},
        std::pair<std::string, double>{"{launch_ratio}", ratios.launches}}) {
    for (std::size_t at = statement.find(placeholder); at != std::string::npos;
         at = statement.find(placeholder, at)) {
      const std::string text = fixed(value, 2);
      statement.replace(at, placeholder.size(), text);
      at += text.size();
    }
  }
  return statement;
}

namespace {

PredictedRatios ratios_of(const std::string& id, const std::vector<CaseSpec>& cases,
                          const std::string& slower_case, const std::string& faster_case) {
  const auto model_of = [&](const std::string& name) {
    const auto found =
        std::find_if(cases.begin(), cases.end(), [&](const CaseSpec& spec) { return spec.name == name; });
    if (found == cases.end()) {
      throw std::invalid_argument("claim '" + id + "' names the case '" + name +
                                  "', which the lab does not declare");
    }
    return found->model;
  };
  return predicted_ratios(model_of(slower_case), model_of(faster_case));
}

}  // namespace

ClaimSpec byte_ratio_claim(std::string id, const std::string& statement, const std::vector<CaseSpec>& cases,
                           const std::string& slower_case, const std::string& faster_case,
                           std::string size_label, double tolerance) {
  const PredictedRatios ratios = ratios_of(id, cases, slower_case, faster_case);
  ClaimSpec spec = time_ratio_claim(std::move(id), with_ratios(statement, ratios), slower_case, faster_case,
                                    std::move(size_label), within(ratios.bytes, tolerance));
  spec.expected_from_byte_models = true;
  return spec;
}

ClaimSpec byte_ratio_floor_claim(std::string id, const std::string& statement,
                                 const std::vector<CaseSpec>& cases, const std::string& slower_case,
                                 const std::string& faster_case, std::string size_label, double share) {
  const PredictedRatios ratios = ratios_of(id, cases, slower_case, faster_case);
  ClaimBound bound = at_least(share * ratios.bytes);
  bound.expected = ratios.bytes;
  bound.words = "at least " + fixed(share * 100.0, 0) + "% of the byte ratio " + fixed(ratios.bytes, 2) +
                " (more is allowed)";
  bound.words_before_1_8_0 = "at least " + fixed(share * 100.0, 0) + "% of the byte ratio (more is allowed)";
  ClaimSpec spec = time_ratio_claim(std::move(id), with_ratios(statement, ratios), slower_case, faster_case,
                                    std::move(size_label), std::move(bound));
  spec.expected_from_byte_models = true;
  return spec;
}

void record_declared_figures(const Lab& lab, Transcript& transcript) {
  for (CaseResult& result : transcript.cases) {
    if (const CaseSpec* spec = lab.find_case(result.name)) {
      result.declared_figures = declared_figures_of(*spec, result);
    }
  }
}

const CaseSpec* Lab::find_case(const std::string& case_name) const {
  for (const CaseSpec& spec : cases) {
    if (spec.name == case_name) {
      return &spec;
    }
  }
  return nullptr;
}

Lab with_exercises(Lab lab, const std::vector<LabExercise (*)(const Lab&)>& factories) {
  for (LabExercise (*const factory)(const Lab&) : factories) {
    lab.exercises.push_back(factory(lab));
  }
  return lab;
}

const LabExercise* Lab::find_exercise(const std::string& exercise_name) const {
  for (const LabExercise& exercise : exercises) {
    if (exercise.name == exercise_name) {
      return &exercise;
    }
  }
  return nullptr;
}

}  // namespace labrun
