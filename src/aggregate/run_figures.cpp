#include "aggregate/run_figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/byte_model.hpp"

namespace labrun {
namespace {

std::optional<double> gb_per_s_at(const Transcript& t, const std::string& case_name,
                                  const std::string& size) {
  const CaseResult* c = t.find_case(case_name, size);
  if (c == nullptr || !(c->central_ms() > 0.0)) {
    return std::nullopt;
  }
  const double gbps = c->gb_per_s();
  return gbps > 0.0 ? std::optional<double>(gbps) : std::nullopt;
}

void read_bandwidths(const Transcript& t, const CardFigures& figures, RunFigures& run) {
  if (figures.copy_floor_case.empty()) {
    return;
  }
  run.bandwidth_size_label = first_size_with(t, figures.copy_floor_case, figures.size_labels);
  if (run.bandwidth_size_label.empty()) {
    return;
  }
  run.copy_floor_gb_per_s = gb_per_s_at(t, figures.copy_floor_case, run.bandwidth_size_label);
  for (const std::string& name : figures.ceiling_cases) {
    if (const auto gbps = gb_per_s_at(t, name, run.bandwidth_size_label)) {
      run.ceiling_gb_per_s =
          std::max({run.ceiling_gb_per_s.value_or(0.0), *gbps, run.copy_floor_gb_per_s.value_or(0.0)});
    }
  }
  run.peak_gb_per_s = t.numeric_fact("device", "memory_peak_gb_per_s");
  const std::optional<double> best = run.ceiling_gb_per_s ? run.ceiling_gb_per_s : run.copy_floor_gb_per_s;
  if (best && run.peak_gb_per_s && *run.peak_gb_per_s > 0.0) {
    run.share_of_peak = *best / *run.peak_gb_per_s;
  }
}

std::optional<double> launch_us_of(const Transcript& t, const std::string& launch_case) {
  if (launch_case.empty()) {
    return std::nullopt;
  }
  const CaseResult* c = t.find_case(launch_case);
  if (c == nullptr || !(c->central_ms() > 0.0)) {
    return std::nullopt;
  }
  return c->central_ms() * 1000.0 / std::max(1, c->launches_per_sample);
}

std::vector<MeasuredRatio> ratios_of(const Transcript& t, const std::vector<Prediction>& predictions,
                                     const std::vector<std::string>& size_labels) {
  std::vector<MeasuredRatio> ratios;
  for (const Prediction& p : predictions) {
    for (const std::string& size : size_labels) {
      const CaseResult* slower = t.find_case(p.slower_case, size);
      const CaseResult* faster = t.find_case(p.faster_case, size);
      if (slower == nullptr || faster == nullptr || !(slower->central_ms() > 0.0) ||
          !(faster->central_ms() > 0.0)) {
        continue;
      }
      const PredictedRatios predicted = predicted_ratios(slower->model, faster->model);
      ratios.push_back({p.description, size, predicted.bytes, predicted.launches,
                        slower->central_ms() / faster->central_ms()});
    }
  }
  return ratios;
}

}  // namespace

std::string first_size_with(const Transcript& t, const std::string& case_name,
                            const std::vector<std::string>& preferred) {
  for (const std::string& size : preferred) {
    if (t.find_case(case_name, size) != nullptr) {
      return size;
    }
  }
  return "";
}

Settling settling_of(const Transcript& t, const std::string& slower_case, const std::string& faster_case,
                     double tolerance) {
  Settling settling;
  // Ratio per n, over the sizes both cases ran at with a positive time.
  std::map<std::uint64_t, double> ratio_at;
  for (const CaseResult* slower : t.cases_named(slower_case)) {
    for (const CaseResult* faster : t.cases_named(faster_case)) {
      if (faster->elements == slower->elements && slower->central_ms() > 0.0 && faster->central_ms() > 0.0) {
        ratio_at[slower->elements] = slower->central_ms() / faster->central_ms();
        settling.byte_ratio = predicted_ratios(slower->model, faster->model).bytes;
      }
    }
  }
  if (ratio_at.size() < 2 || !(settling.byte_ratio > 0.0)) {
    return settling;
  }
  settling.swept = true;
  // From the largest n down, while the ratio stays near the byte ratio.
  for (auto it = ratio_at.rbegin(); it != ratio_at.rend(); ++it) {
    if (std::fabs(it->second / settling.byte_ratio - 1.0) > tolerance) {
      break;
    }
    settling.from_elements = it->first;
  }
  return settling;
}

RunFigures run_figures(const Transcript& t, const CardFigures& figures,
                       const std::vector<Prediction>& predictions, const std::vector<ClaimSpec>* claims) {
  RunFigures run;
  read_bandwidths(t, figures, run);
  run.launch_us = launch_us_of(t, figures.launch_case);
  if (!figures.sweep_slower_case.empty() && !figures.sweep_faster_case.empty()) {
    run.settling =
        settling_of(t, figures.sweep_slower_case, figures.sweep_faster_case, figures.settle_tolerance);
  }
  run.ratios = ratios_of(t, predictions, figures.size_labels);
  run.claims = claims_for(t, claims);
  return run;
}

}  // namespace labrun
