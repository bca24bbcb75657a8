#include "core/transcript.hpp"

#include <algorithm>

#include <cstdio>
#include <stdexcept>
#include <type_traits>

namespace labrun {

Fact Fact::known(std::string key, Value value) {
  Fact fact;
  fact.key = std::move(key);
  fact.value = std::move(value);
  return fact;
}

Fact Fact::unknown(std::string key, std::string reason) {
  Fact fact;
  fact.key = std::move(key);
  fact.unknown_reason = std::move(reason);
  return fact;
}

std::string Fact::display() const {
  if (!value) {
    return "unknown (" + unknown_reason + ")";
  }
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "yes" : "no";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(v);
        } else {
          char text[64];
          std::snprintf(text, sizeof text, "%.6g", v);
          return text;
        }
      },
      *value);
}

const Fact* FactGroup::find(const std::string& wanted) const {
  for (const Fact& fact : facts) {
    if (fact.key == wanted) {
      return &fact;
    }
  }
  return nullptr;
}

double CaseResult::central_ms() const {
  if (has_samples() && figure_ms) {
    return *figure_ms;
  }
  if (has_samples()) {
    return summary.median;
  }
  return published ? published->value_ms : 0.0;
}

double CaseResult::gb_per_s() const {
  return effective_gb_per_s(model, elements, central_ms());
}

std::optional<double> CaseResult::gflop_per_s() const {
  return effective_gflop_per_s(model, elements, central_ms());
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHeld: return "held";
    case Verdict::kFailed: return "failed";
    case Verdict::kNotMeasured: return "not measured";
    case Verdict::kInconclusive: return "inconclusive";
  }
  return "not measured";
}

Verdict verdict_from_name(const std::string& name) {
  for (const Verdict v : {Verdict::kHeld, Verdict::kFailed, Verdict::kNotMeasured, Verdict::kInconclusive}) {
    if (name == verdict_name(v)) {
      return v;
    }
  }
  throw std::invalid_argument("unknown verdict '" + name + "'");
}

const FactGroup* Transcript::group(const std::string& wanted) const {
  for (const FactGroup& g : environment) {
    if (g.name == wanted) {
      return &g;
    }
  }
  return nullptr;
}

const CaseResult* Transcript::find_case(const std::string& wanted, const std::string& size_label) const {
  for (const CaseResult& result : cases) {
    if (result.name == wanted && (size_label.empty() || result.size_label == size_label)) {
      return &result;
    }
  }
  return nullptr;
}

std::vector<const CaseResult*> Transcript::cases_named(const std::string& wanted) const {
  std::vector<const CaseResult*> found;
  for (const CaseResult& result : cases) {
    if (result.name == wanted) {
      found.push_back(&result);
    }
  }
  return found;
}

bool Transcript::all_correct() const {
  for (const CorrectnessCheck& check : correctness) {
    if (!check.passed) {
      return false;
    }
  }
  return true;
}

std::optional<double> Transcript::numeric_fact(const std::string& group_name, const std::string& key) const {
  const FactGroup* facts = group(group_name);
  const Fact* fact = facts != nullptr ? facts->find(key) : nullptr;
  if (fact == nullptr || !fact->is_known()) {
    return std::nullopt;
  }
  if (const auto* integer = std::get_if<std::int64_t>(&*fact->value)) {
    return static_cast<double>(*integer);
  }
  if (const auto* real = std::get_if<double>(&*fact->value)) {
    return *real;
  }
  return std::nullopt;
}

std::vector<std::string> Transcript::size_labels_of(const std::string& part) const {
  std::vector<std::string> labels;
  for (const CaseResult& c : cases) {
    if (c.part == part && std::find(labels.begin(), labels.end(), c.size_label) == labels.end()) {
      labels.push_back(c.size_label);
    }
  }
  return labels;
}

std::string size_title(const Transcript& transcript, const std::string& part, const std::string& size_label) {
  for (const CaseResult& c : transcript.cases) {
    if (c.part == part && c.size_label == size_label) {
      return "n = " + std::to_string(c.elements) + " (" + size_label + ")";
    }
  }
  return size_label;
}

bool schema_version_at_least(const std::string& version, int major, int minor) {
  int have_major = 0;
  int have_minor = 0;
  int have_patch = 0;
  char end = '\0';
  if (std::sscanf(version.c_str(), "%d.%d.%d%c", &have_major, &have_minor, &have_patch, &end) != 3) {
    return false;
  }
  return have_major > major || (have_major == major && have_minor >= minor);
}

}  // namespace labrun
