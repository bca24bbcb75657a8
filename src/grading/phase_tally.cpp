#include "grading/phase_tally.hpp"

#include <algorithm>

#include "base/format.hpp"

namespace labrun {

PhaseClass phase_class(const std::string& phase) {
  if (phase == "compiling") {
    return PhaseClass::kCompile;
  }
  if (phase.rfind("waiting", 0) == 0) {
    return PhaseClass::kWait;
  }
  if (phase == "checking" || phase == "child" || phase == "grading alone") {
    return PhaseClass::kCheck;
  }
  if (phase == "timing") {
    return PhaseClass::kTime;
  }
  if (phase == "sanitizing") {
    return PhaseClass::kSanitize;
  }
  return PhaseClass::kOther;
}

void PhaseTally::add(const std::vector<std::pair<std::string, double>>& phases) {
  std::array<double, kPhaseClasses> seconds{};
  for (const auto& [name, spent] : phases) {
    seconds[static_cast<std::size_t>(phase_class(name))] += spent;
  }
  for (std::size_t c = 0; c < kPhaseClasses; ++c) {
    per_grading_[c].push_back(seconds[c]);
  }
}

double PhaseTally::median(PhaseClass phase) const {
  std::vector<double> values = per_grading_[static_cast<std::size_t>(phase)];
  if (values.empty()) {
    return 0.0;
  }
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  if (values.size() % 2 == 1) {
    return values[middle];
  }
  const double upper = values[middle];
  return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle)) + upper) /
         2.0;
}

std::string PhaseTally::line() const {
  if (gradings() == 0) {
    return "";
  }
  const std::pair<const char*, PhaseClass> shown[] = {{"compile", PhaseClass::kCompile},
                                                      {"check", PhaseClass::kCheck},
                                                      {"wait", PhaseClass::kWait},
                                                      {"time", PhaseClass::kTime},
                                                      {"sanitize", PhaseClass::kSanitize}};
  std::string text;
  for (const auto& [label, phase] : shown) {
    text += (text.empty() ? "" : " · ") + std::string(label) + " " + fixed(median(phase), 2);
  }
  return text + " s per grading (medians)";
}

}  // namespace labrun
