#include "exercise/submission_row.hpp"

#include "timing/cuda_check.hpp"

namespace labrun {

Lab lab_with_submission_row(const SubmissionDeclaration& submission, LabDeclaration& declaration,
                            const std::vector<Prediction>& predictions) {
  const std::function<std::vector<Fact>()> lab_facts = declaration.lab_facts();
  declaration.facts([lab_facts, added = submission.facts] {
    std::vector<Fact> all = lab_facts ? lab_facts() : std::vector<Fact>{};
    all.insert(all.end(), added.begin(), added.end());
    return all;
  });
  Lab derived = submission.lab;
  derived.cases = declaration.case_specs();
  derived.predictions.insert(derived.predictions.end(), predictions.begin(), predictions.end());
  derived.open_session = declaration.session_factory();
  return derived;
}

void trial_at_sizes(const std::vector<std::uint64_t>& sizes, const std::string& what,
                    const std::function<void(std::uint64_t n)>& call) {
  for (const std::uint64_t n : sizes) {
    const std::string where = what + " at n = " + std::to_string(n);
    try {
      call(n);
    } catch (const CudaError& error) {
      throw SubmissionError(where + " could not be launched: " + error.what());
    }
    StudentKernels::wait_for(where);
  }
}

}  // namespace labrun
