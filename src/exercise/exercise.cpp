#include "exercise/exercise.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>

#include "base/format.hpp"
#include "exercise/child_session.hpp"
#include "exercise/exercise_entry.hpp"
#include "exercise/grader.hpp"

namespace labrun {
namespace {

// The byte model of the lab's case `name` ("" is the submission's: the model case).
ByteModel model_of(const Lab& lab, const std::string& name, const Exercise& ex) {
  const CaseSpec* spec = lab.find_case(name.empty() ? ex.model_case : name);
  if (spec == nullptr) {
    throw std::invalid_argument("exercise '" + ex.name + "' names the case '" +
                                (name.empty() ? ex.model_case : name) + "', which lab '" + lab.name +
                                "' does not declare");
  }
  return spec->model;
}

}  // namespace

std::vector<std::string> Exercise::kernel_names() const {
  std::vector<std::string> names;
  names.reserve(kernels.size());
  for (const ContractKernel& kernel : kernels) {
    names.push_back(kernel.name);
  }
  return names;
}

std::optional<Shape> Exercise::image_at(std::uint64_t n) const {
  if (!odd_image) {
    return std::nullopt;
  }
  if (n == odd_elements) {
    return odd_image;
  }
  if (sanitize_image && n == sanitize_elements) {
    return sanitize_image;
  }
  return power_of_two_image(n);
}

ManifestSchema Exercise::manifest_schema() const {
  ManifestSchema schema;
  schema.answers = answers;
  for (const PredictedRatio& ratio : predictions) {
    schema.answers.push_back({ratio.key, false, 100.0});
  }
  schema.kernels = kernel_names();
  return schema;
}

Exercise bound_exercise(const Lab& lab, Exercise exercise) {
  if (exercise.kernels.empty() || exercise.probes.empty() || !exercise.child || !exercise.judge_probes) {
    throw std::invalid_argument("exercise '" + exercise.name +
                                "' declares no kernel, probe, device side or judge");
  }
  check_rubric(exercise.rubric);
  if ((exercise.odd_image && exercise.odd_image->elements() != exercise.odd_elements) ||
      (exercise.sanitize_image && exercise.sanitize_image->elements() != exercise.sanitize_elements)) {
    throw std::invalid_argument(
        "exercise '" + exercise.name +
        "': its odd or sanitizer image is not odd_elements or sanitize_elements pixels");
  }
  exercise.lab = lab.name;
  exercise.model.submission = model_of(lab, "", exercise);
  for (const PredictedRatio& ratio : exercise.predictions) {
    exercise.model.slower.push_back(model_of(lab, ratio.slower_case, exercise));
    exercise.model.faster.push_back(model_of(lab, ratio.faster_case, exercise));
  }
  bool reference_timed = false;
  for (const LabCaseTiming& timed : exercise.lab_cases) {
    exercise.model.lab_cases.push_back(model_of(lab, timed.lab_case, exercise));
    reference_timed = reference_timed || timed.key == exercise.reference_case_key;
  }
  if (!reference_timed) {
    throw std::invalid_argument("exercise '" + exercise.name +
                                "' is measured against a lab case it does not time");
  }
  for (RubricRow& row : exercise.rubric) {
    const std::string both = "defines both kernels";
    if (row.check == Check::kBuilds && exercise.kernels.size() == 1 &&
        row.passes_when.find(both) != std::string::npos) {
      row.passes_when.replace(row.passes_when.find(both), both.size(), "defines its kernel");
    }
    if (row.check == Check::kDeclared && row.passes_when.empty()) {
      const double bytes = exercise.model.submission.bytes_per_element();
      row.passes_when = fixed(bytes, std::fabs(bytes - std::round(bytes)) < 1e-9 ? 0 : 1) + " bytes and " +
                        std::to_string(exercise.model.submission.launches) + " launches";
    } else if (row.check == Check::kPredicted && row.passes_when.empty()) {
      row.passes_when = "within " + fixed(exercise.prediction_tolerance, 2) + " of ";
      for (std::size_t p = 0; p < exercise.predictions.size(); ++p) {
        row.passes_when += (p == 0 ? "" : " and ") + fixed(exercise.model.ratio(p), 2);
      }
    }
  }
  for (BytesHint& hint : exercise.wording.bytes_hints) {
    if (!hint.lab_case.empty()) {
      hint.bytes = model_of(lab, hint.lab_case, exercise).bytes_per_element();
    }
  }
  return exercise;
}

LabExercise exercise_entry(const Lab& lab, Exercise exercise, const SubmissionCase& submission_case) {
  const auto declared = std::make_shared<const Exercise>(bound_exercise(lab, std::move(exercise)));
  LabExercise entry;
  entry.name = declared->name;
  entry.lab = declared->lab;
  entry.title = declared->title;
  entry.kernel_names = declared->kernel_names();
  entry.default_seed = declared->default_seed;
  entry.grade = [declared](const GradeRequest& request,
                           const std::function<void(const std::string&)>& progress) {
    return grade_submission(*declared, request, progress);
  };
  entry.prepare_grading = [declared](const GradeRequest& request,
                                     const std::function<void(const std::string&)>& progress) {
    return prepare_grading(*declared, request, progress);
  };
  if (submission_case.declare) {
    entry.with_submission = [declared, submission_case](
                                const Lab& with, const std::filesystem::path& folder,
                                const std::function<void(const std::string&)>& progress) {
      return lab_with_submission(*declared, submission_case, with, folder, progress);
    };
  }
  entry.run_child = [declared](const nlohmann::ordered_json& request) {
    return run_grading_child(*declared, request_from_json(request));
  };
  entry.declaration = declared;
  return entry;
}

const Exercise* declaration_of(const LabExercise& entry) {
  return static_cast<const Exercise*>(entry.declaration.get());
}

}  // namespace labrun
