#pragma once
// A grade as the fault-injection tests compare it: the score and the set of named mistakes of a
// report.json.

#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace labrun::testing {

struct GradeVerdict {
  double score = 0.0;
  std::set<std::string> mistakes;
  bool operator==(const GradeVerdict&) const = default;
};

inline GradeVerdict verdict_of_report(const nlohmann::json& report) {
  GradeVerdict v;
  v.score = report.at("score").get<double>();
  for (const auto& m : report.at("mistakes")) {
    v.mistakes.insert(m.at("id").get<std::string>());
  }
  return v;
}

//! "75.000000 [slow timeout ]", for a test's message.
inline std::string describe_verdict(const GradeVerdict& v) {
  std::string text = std::to_string(v.score) + " [";
  for (const std::string& m : v.mistakes) {
    text += m + " ";
  }
  return text + "]";
}

}  // namespace labrun::testing
