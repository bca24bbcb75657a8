#include "core/transcript.hpp"

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
  if (has_samples()) {
    return summary.median;
  }
  return published ? published->value_ms : 0.0;
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHeld: return "held";
    case Verdict::kFailed: return "failed";
    case Verdict::kNotMeasured: return "not measured";
  }
  return "not measured";
}

Verdict verdict_from_name(const std::string& name) {
  for (const Verdict v : {Verdict::kHeld, Verdict::kFailed, Verdict::kNotMeasured}) {
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

}  // namespace labrun
