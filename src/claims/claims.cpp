#include "claims/claims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "base/format.hpp"
#include "claims/noise_rule.hpp"
#include "core/byte_model.hpp"
#include "core/rounds.hpp"

namespace labrun {
namespace {

// A figure of a bound: four significant digits, trailing zeros dropped ("1.05", "0.98", "2").
std::string bound_number(double value) {
  return significant(value, 4);
}

// A fraction as a percentage: whole percents without decimals ("15%"), others with one ("4.8%").
std::string percent_text(double fraction) {
  const double percent = fraction * 100.0;
  return fixed(percent, std::fabs(percent - std::round(percent)) < 1e-9 ? 0 : 1) + "%";
}

// Where a claim is judged: a declared size by its label, or (a claim at every size) one n.
struct SizeKey {
  std::string label;
  std::optional<std::uint64_t> elements;
};

std::string size_text(const SizeKey& at) {
  return at.elements ? "at n = " + std::to_string(*at.elements) + " (" + at.label + ")"
                     : "at the " + at.label + " size";
}

ClaimResult start(const ClaimSpec& spec) {
  ClaimResult result;
  result.id = spec.id;
  result.statement = spec.statement;
  result.expected_to_fail = spec.expected_to_fail;
  result.verdict_basis = "point";
  return result;
}

// The bound's figures as the result records them; `tolerance` is its words.
void apply_bound(ClaimResult& result, const ClaimBound& bound, const std::string& words) {
  result.expected = bound.expected;
  result.tolerance = words;
  result.bound_low = bound.low;
  result.bound_high = bound.high;
}

// What every builder below sets: the claim's id, statement, kind and the cases it reads.
ClaimSpec claim_of_kind(std::string id, std::string statement, ClaimKind kind,
                        std::vector<std::string> cases) {
  ClaimSpec spec;
  spec.id = std::move(id);
  spec.statement = std::move(statement);
  spec.kind = kind;
  spec.cases = std::move(cases);
  return spec;
}

ClaimResult not_measured(ClaimResult result, const std::string& why) {
  result.verdict = Verdict::kNotMeasured;
  result.detail = why;
  return result;
}

const CaseResult* timed(const Transcript& t, const std::string& name, const SizeKey& at) {
  const CaseResult* found = nullptr;
  if (at.elements) {
    for (const CaseResult* c : t.cases_named(name)) {
      if (c->elements == *at.elements) {
        found = c;
        break;
      }
    }
  } else {
    found = t.find_case(name, at.label);
  }
  return found != nullptr && found->central_ms() > 0.0 ? found : nullptr;
}

std::string missing(const std::string& name, const SizeKey& at) {
  return name + " was not timed" + (at.label.empty() ? "" : " " + size_text(at));
}

// The words of each kind's figure and bound: what evaluation records and `plan` prints.
std::string figures_text(const ClaimSpec& spec, const std::string& where) {
  switch (spec.kind) {
    case ClaimKind::kTimeRatio:
      return "median time of " + spec.cases.at(0) + " over " + spec.cases.at(1) + " " + where;
    case ClaimKind::kBandwidthBand:
      return "GB/s of each row over the GB/s of " + spec.cases.at(0) + " " + where;
    case ClaimKind::kPerLaunchConverges: {
      const std::string figure =
          "lowest time per launch of " + spec.cases.at(0) + " over its sizes, over the per-launch time of ";
      // A run that reads the host's launch rate words its figure as every run before the queued case.
      return figure + spec.cases.at(1) +
             (spec.cases.at(1) == spec.queued_launch_case
                  ? " (this run queues a sample's launches ahead of the GPU)"
                  : "");
    }
    case ClaimKind::kNotFaster: {
      std::vector<std::string> others(spec.cases.begin() + 1, spec.cases.end());
      return "the fastest median among " + join(others, ", ") + " over the median of " + spec.cases.at(0) +
             " " + where;
    }
    case ClaimKind::kBitwiseEqual:
      return "bitwise comparison of " + spec.cases.at(0) + " and " + spec.cases.at(1);
    case ClaimKind::kCustom: return "the lab's own rule over " + join(spec.cases, ", ");
  }
  return "";
}

std::string bound_words(const ClaimSpec& spec) {
  switch (spec.kind) {
    case ClaimKind::kBandwidthBand: return "every row " + spec.bound.words;
    case ClaimKind::kBitwiseEqual: return "no element differs";
    case ClaimKind::kCustom: return "the lab's own rule";
    default: return spec.bound.words;
  }
}

ClaimResult time_ratio(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  ClaimResult result = start(spec);
  result.figures = figures_text(spec, size_text(at));
  apply_bound(result, spec.bound, bound_words(spec));
  const CaseResult* numerator = timed(t, spec.cases[0], at);
  const CaseResult* denominator = timed(t, spec.cases[1], at);
  if (numerator == nullptr || denominator == nullptr) {
    return not_measured(result, missing(numerator == nullptr ? spec.cases[0] : spec.cases[1], at));
  }
  const double ratio = numerator->central_ms() / denominator->central_ms();
  result.measured = ratio;
  result.verdict = spec.bound.holds(ratio) ? Verdict::kHeld : Verdict::kFailed;
  result.detail = fixed(numerator->central_ms(), 4) + " ms / " + fixed(denominator->central_ms(), 4) +
                  " ms = " + fixed(ratio, 2);
  if (spec.bound.expected) {
    const double off = ratio / *spec.bound.expected - 1.0;
    result.detail += std::string(", ") + (off >= 0 ? "+" : "") + fixed(off * 100.0, 1) + "% from " +
                     fixed(*spec.bound.expected, 2);
  }
  return result;
}

ClaimResult bandwidth_band(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  ClaimResult result = start(spec);
  result.figures = figures_text(spec, size_text(at));
  apply_bound(result, spec.bound, bound_words(spec));
  // The figure is the row furthest from 1; with a band as wide on both sides, it is the first row
  // to leave the band, so the band bounds it.
  result.expected = 1.0;
  const CaseResult* reference = timed(t, spec.cases[0], at);
  if (reference == nullptr) {
    return not_measured(result, missing(spec.cases[0], at));
  }
  bool all_within = true;
  double worst = 1.0;
  int rows = 0;
  for (std::size_t i = 1; i < spec.cases.size(); ++i) {
    const CaseResult* row = timed(t, spec.cases[i], at);
    if (row == nullptr) {
      continue;
    }
    const double multiple = row->gb_per_s() / reference->gb_per_s();
    all_within = all_within && spec.bound.holds(multiple);
    if (std::fabs(multiple - 1.0) > std::fabs(worst - 1.0)) {
      worst = multiple;
    }
    result.detail += (rows++ == 0 ? "" : ", ") + row->label + " " + fixed(multiple, 2);
  }
  if (rows == 0) {
    return not_measured(result, "none of the rows was timed " + size_text(at));
  }
  result.measured = worst;
  result.verdict = all_within ? Verdict::kHeld : Verdict::kFailed;
  result.detail =
      "x " + reference->label + " (" + fixed(reference->gb_per_s(), 1) + " GB/s): " + result.detail;
  return result;
}

// The size of a per-launch claim's swept case whose time per launch is the lowest (the floor it falls
// to as n shrinks); nullptr when none was timed.
const CaseResult* lowest_per_launch(const ClaimSpec& spec, const Transcript& t) {
  const CaseResult* smallest = nullptr;
  const auto per_launch = [](const CaseResult* c) {
    return c->central_ms() / std::max(c->model.launches, 1);
  };
  for (const CaseResult* c : t.cases_named(spec.cases[0])) {
    if (c->central_ms() > 0.0 && (smallest == nullptr || per_launch(c) < per_launch(smallest))) {
      smallest = c;
    }
  }
  return smallest;
}

// `at` names no n: the swept case's lowest per-launch time over its sizes; `at` names one (the run's
// pick, when a claim picks on the run): the swept case at that n.
ClaimResult per_launch_converges(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  ClaimResult result = start(spec);
  result.figures = figures_text(spec, "");
  apply_bound(result, spec.bound, bound_words(spec));
  const CaseResult* smallest = at.elements ? timed(t, spec.cases[0], at) : lowest_per_launch(spec, t);
  const CaseResult* empty = nullptr;
  for (const CaseResult* c : t.cases_named(spec.cases[1])) {
    if (c->central_ms() > 0.0) {
      empty = c;
      break;
    }
  }
  if (smallest == nullptr || empty == nullptr || smallest->model.launches <= 0) {
    return not_measured(result, missing(smallest == nullptr ? spec.cases[0] : spec.cases[1], {}));
  }
  const double chain_us = smallest->central_ms() * 1000.0 / smallest->model.launches;
  const double empty_us = empty->central_ms() * 1000.0 / empty->launches_per_sample;
  const double ratio = chain_us / empty_us;
  result.measured = ratio;
  result.verdict = spec.bound.holds(ratio) ? Verdict::kHeld : Verdict::kFailed;
  result.detail = fixed(chain_us, 3) + " us per launch at n = " + std::to_string(smallest->elements) +
                  " against " + fixed(empty_us, 3) + " us per empty launch";
  if (!spec.queued_launch_case.empty() && spec.cases[1] == spec.queued_launch_case) {
    result.detail += " (" + std::to_string(empty->launches_per_sample) +
                     " between one pair of events, queued ahead of the GPU as the swept case's are)";
  }
  return result;
}

// The fastest of a not-faster claim's other cases at `at`; nullptr when none was timed there.
const CaseResult* fastest_other(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  const CaseResult* fastest = nullptr;
  for (std::size_t i = 1; i < spec.cases.size(); ++i) {
    const CaseResult* c = timed(t, spec.cases[i], at);
    if (c != nullptr && (fastest == nullptr || c->central_ms() < fastest->central_ms())) {
      fastest = c;
    }
  }
  return fastest;
}

ClaimResult not_faster(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  ClaimResult result = start(spec);
  result.figures = figures_text(spec, size_text(at));
  apply_bound(result, spec.bound, bound_words(spec));
  const CaseResult* baseline = timed(t, spec.cases[0], at);
  if (baseline == nullptr) {
    return not_measured(result, missing(spec.cases[0], at));
  }
  const CaseResult* fastest = fastest_other(spec, t, at);
  if (fastest == nullptr) {
    return not_measured(result, "no other case was timed " + size_text(at));
  }
  const double ratio = fastest->central_ms() / baseline->central_ms();
  result.measured = ratio;
  result.verdict = spec.bound.holds(ratio) ? Verdict::kHeld : Verdict::kFailed;
  result.detail = "fastest: " + fastest->label + " " + fixed(fastest->central_ms(), 4) + " ms against " +
                  baseline->label + " " + fixed(baseline->central_ms(), 4) + " ms";
  return result;
}

ClaimResult bitwise_equal(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  result.figures = figures_text(spec, "");
  result.expected = 0.0;
  result.tolerance = bound_words(spec);
  result.bound_low = 0.0;
  result.bound_high = 0.0;
  for (const BitwiseComparison& b : t.bitwise) {
    if (b.first == spec.cases[0] && b.second == spec.cases[1]) {
      result.measured = static_cast<double>(b.differing);
      result.verdict = b.differing == 0 ? Verdict::kHeld : Verdict::kFailed;
      const double share =
          b.elements > 0 ? static_cast<double>(b.differing) / static_cast<double>(b.elements) : 0.0;
      result.detail = std::to_string(b.differing) + " of " + std::to_string(b.elements) +
                      " elements differ (" + percent(share) + "), by at most " +
                      scientific(b.max_abs_difference);
      return result;
    }
  }
  return not_measured(
      result, "no bitwise comparison of " + spec.cases[0] + " and " + spec.cases[1] + " was recorded");
}

ClaimResult custom(const ClaimSpec& spec, const Transcript& t) {
  ClaimResult result = start(spec);
  if (!spec.evaluate) {
    return not_measured(result, "the claim declares no rule (a lab bug)");
  }
  spec.evaluate(t, result);
  result.verdict_basis = "point";
  result.id = spec.id;
  result.statement = spec.statement;
  result.expected_to_fail = spec.expected_to_fail;
  return result;
}

// One claim at one size (or, for the kinds that read no size, as a whole).
ClaimResult evaluate_at(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  switch (spec.kind) {
    case ClaimKind::kTimeRatio: return time_ratio(spec, t, at);
    case ClaimKind::kBandwidthBand: return bandwidth_band(spec, t, at);
    case ClaimKind::kPerLaunchConverges: return per_launch_converges(spec, t, at);
    case ClaimKind::kNotFaster: return not_faster(spec, t, at);
    case ClaimKind::kBitwiseEqual: return bitwise_equal(spec, t);
    case ClaimKind::kCustom: return custom(spec, t);
  }
  return not_measured(start(spec), "unknown claim kind");
}

// The sizes a claim at every size is judged at: each n its first case ran at (in run order) at
// which another of its cases ran too, labelled as the first case's run labels it.
std::vector<SizeKey> shared_sizes(const ClaimSpec& spec, const Transcript& t) {
  std::vector<SizeKey> sizes;
  for (const CaseResult* first : t.cases_named(spec.cases.at(0))) {
    const bool seen = std::any_of(sizes.begin(), sizes.end(),
                                  [&](const SizeKey& key) { return key.elements == first->elements; });
    const bool shared = std::any_of(spec.cases.begin() + 1, spec.cases.end(), [&](const std::string& other) {
      const std::vector<const CaseResult*> runs = t.cases_named(other);
      return std::any_of(runs.begin(), runs.end(),
                         [&](const CaseResult* c) { return c->elements == first->elements; });
    });
    if (!seen && shared) {
      sizes.push_back(SizeKey{first->size_label, first->elements});
    }
  }
  return sizes;
}

// How close a held figure is to its bound, relative to it: the smaller, the closer.
double margin(const ClaimResult& r) {
  double closest = std::numeric_limits<double>::infinity();
  const auto relative = [](double gap, double bound) { return gap / std::max(std::fabs(bound), 1e-12); };
  if (r.measured && r.bound_low) {
    closest = std::min(closest, relative(*r.measured - *r.bound_low, *r.bound_low));
  }
  if (r.measured && r.bound_high) {
    closest = std::min(closest, relative(*r.bound_high - *r.measured, *r.bound_high));
  }
  return closest;
}

int severity(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFailed: return 3;
    case Verdict::kInconclusive: return 2;
    case Verdict::kNotMeasured: return 1;
    case Verdict::kHeld: return 0;
  }
  return 3;
}

// A claim at every size from its verdict at each size: the size that decides it (the first that
// fails, else the first inconclusive or not measured, else the held one closest to its bound) gives
// the figure, its interval and the verdict; the detail lists every size.
ClaimResult combine_sizes(const ClaimSpec& spec,
                          const std::vector<std::pair<SizeKey, ClaimResult>>& per_size) {
  if (per_size.empty()) {
    ClaimResult result = start(spec);
    result.figures = figures_text(spec, "at every size they share");
    apply_bound(result, spec.bound, bound_words(spec));
    return not_measured(result,
                        "no size at which " + spec.cases.at(0) + " and another of its cases both ran");
  }
  std::size_t deciding = 0;
  for (std::size_t i = 1; i < per_size.size(); ++i) {
    const ClaimResult& candidate = per_size[i].second;
    const ClaimResult& current = per_size[deciding].second;
    if (severity(candidate.verdict) > severity(current.verdict) ||
        (candidate.verdict == Verdict::kHeld && current.verdict == Verdict::kHeld &&
         margin(candidate) < margin(current))) {
      deciding = i;
    }
  }
  ClaimResult result = per_size[deciding].second;
  result.figures =
      figures_text(spec, "at every size they share") + "; reported " + size_text(per_size[deciding].first);
  result.detail.clear();
  for (const auto& [at, judged] : per_size) {
    result.detail += (result.detail.empty() ? "" : "; ") + at.label +
                     " (n = " + std::to_string(at.elements.value_or(0)) +
                     "): " + verdict_name(judged.verdict) + ", " + judged.detail;
  }
  return result;
}

// The timed cases a claim judged at `at` reads: every case its spec names, at `at`'s n when it names
// one; at `at`'s size label for a claim of one figure at one size (a time ratio, a bandwidth band,
// "not faster"); else at every size (a per-launch or custom rule may read several).
std::vector<const CaseResult*> cases_read(const ClaimSpec& spec, const Transcript& t, const SizeKey& at) {
  const bool one_size =
      !spec.at_every_size() && (spec.kind == ClaimKind::kTimeRatio ||
                                spec.kind == ClaimKind::kBandwidthBand || spec.kind == ClaimKind::kNotFaster);
  // A per-launch claim at a picked n reads its swept case there and its launch case at every size.
  const bool picked_launch_size = spec.kind == ClaimKind::kPerLaunchConverges && at.elements;
  std::vector<const CaseResult*> read;
  for (const std::string& name : spec.cases) {
    const bool every_size = picked_launch_size && name != spec.cases.front();
    for (const CaseResult* c : t.cases_named(name)) {
      const bool at_size = every_size    ? true
                           : at.elements ? c->elements == *at.elements
                                         : !one_size || c->size_label == at.label;
      if (c->has_samples() && at_size) {
        read.push_back(c);
      }
    }
  }
  return read;
}

// The claim at `at` on each of the first `count` views.
std::vector<ClaimResult> per_round(const ClaimSpec& spec, const std::vector<Transcript>& views,
                                   std::size_t count, const SizeKey& at) {
  std::vector<ClaimResult> results;
  results.reserve(count);
  for (std::size_t u = 0; u < count && u < views.size(); ++u) {
    results.push_back(evaluate_at(spec, views[u], at));
  }
  return results;
}

// One claim at `at` over the run and, with 2 or more views, over each interval unit alone
// (judge_with_rounds); with `noise_rule` (1.8.0) a claim judged by its interval then meets
// claims/noise_rule.hpp's rule.
ClaimResult judge_at(const ClaimSpec& spec, const Transcript& t, const std::vector<Transcript>& views,
                     bool noise_rule, const SizeKey& at) {
  const bool pick_on_the_run = claims_pick_on_the_run(t);
  ClaimResult result = evaluate_at(spec, t, at);
  // A claim that picks the fastest of several cases picks on the run: each context's figure is that
  // case's, so the interval is the picked figure's, not the spread of each context's own pick.
  ClaimSpec picked;
  const ClaimSpec* unit_spec = &spec;
  if (pick_on_the_run && spec.kind == ClaimKind::kNotFaster) {
    if (const CaseResult* fastest = fastest_other(spec, t, at)) {
      picked = spec;
      picked.cases = {spec.cases.front(), fastest->name};
      unit_spec = &picked;
    }
  }
  const std::vector<const CaseResult*> read = cases_read(*unit_spec, t, at);
  // The units every case it reads has (1.11.0: a claim that reads a small case and a larger one is
  // paired over the contexts both ran in); a claim that reads no timed case, the run's fewest.
  const std::size_t units = std::min(views.size(), shared_units(read).value_or(unit_count(t)));
  if (units >= 2) {
    const std::vector<ClaimResult> per_unit = per_round(*unit_spec, views, units, at);
    const ProcessTerm process = claims_allow_by_figure_kind(t)
                                    ? claim_process_term(read, process_allowance_of(t))
                                    : ProcessTerm{process_allowance_of(t), 0.0};
    judge_with_rounds(result, per_unit, process);
    if (noise_rule && result.verdict_basis == "interval") {
      std::vector<double> figures;
      figures.reserve(per_unit.size());
      for (const ClaimResult& unit : per_unit) {
        figures.push_back(unit.measured.value_or(0.0));
      }
      apply_noise_rule(result, figures);
    }
  }
  return result;
}

// The claim kinds that set one figure against a bound from the cases they read: judged on GPU time
// alone too in hot timing (claims_read_gpu_alone). A per-launch claim reads the host's launch rate in
// hot timing on purpose, and a lab's own rule says what it reads itself.
bool sets_figures_against_a_bound(ClaimKind kind) {
  return kind == ClaimKind::kTimeRatio || kind == ClaimKind::kBandwidthBand || kind == ClaimKind::kNotFaster;
}

// The transcript as GPU time alone reads it (core/rounds.hpp: gated_reading) and its unit views.
struct GpuAloneTranscript {
  Transcript transcript;
  std::vector<Transcript> views;
};

// `hot`, a claim judged on a hot run's samples, judged again with `gpu_alone`, the same claim on its
// cases' gated samples: its interval becomes the span of both intervals and its verdict that span's
// against the bound, so it is held or failed only where both readings are; the gated reading is
// recorded (ClaimResult::gpu_alone, 1.12.0), and the detail gives it and says when the host decides
// it. A hot figure too noisy for the claim's tolerance (basis "noise", claims/noise_rule.hpp) rests on
// the gated reading where that one is not (basis "interval"): item 2 of issue 31, a claim that needs
// precision the hot samples lack reads the gated figure, the hot interval still spanned in. Nothing
// changes where either reading has no interval, where the hot one was judged otherwise (rounds,
// point), or where the gated one is too noisy as well.
void span_gpu_alone(ClaimResult& hot, const ClaimResult& gpu_alone) {
  const bool hot_too_noisy = hot.verdict_basis == "noise";
  if ((hot.verdict_basis != "interval" && !hot_too_noisy) || !hot.measured_interval || !gpu_alone.measured ||
      !gpu_alone.measured_interval || gpu_alone.verdict_basis != "interval") {
    return;
  }
  const Interval span{std::min(hot.measured_interval->low, gpu_alone.measured_interval->low),
                      std::max(hot.measured_interval->high, gpu_alone.measured_interval->high)};
  const Verdict spanned = verdict_from_interval(span, hot.bound_low, hot.bound_high);
  hot.gpu_alone = GpuAloneReading{*gpu_alone.measured, *gpu_alone.measured_interval, gpu_alone.verdict};
  hot.detail += "; on GPU time alone (its cases' gated samples): " + fixed(*gpu_alone.measured, 3) + " (" +
                fixed(gpu_alone.measured_interval->low, 3) + " to " +
                fixed(gpu_alone.measured_interval->high, 3) + "), " + verdict_name(gpu_alone.verdict);
  if (hot_too_noisy) {
    hot.detail += std::string(
                      ", which moves less than its tolerance, so the claim rests on it, the hot interval "
                      "spanned in: ") +
                  verdict_name(spanned);
    hot.verdict_basis = "interval";
  } else if (spanned != hot.verdict) {
    hot.detail +=
        std::string(": the host's launch latency in the hot samples decides the verdict, so it is ") +
        verdict_name(spanned);
  }
  hot.measured_interval = span;
  hot.verdict = spanned;
}

// One claim over the run and, with 2 or more views, over each interval unit alone (judge_at); in a hot
// run judged on GPU time alone too (`gpu_alone`, non-null: claims_read_gpu_alone), a claim that sets a
// figure against a bound spans both readings at each size where a case it reads has gated samples.
ClaimResult judge(const ClaimSpec& spec, const Transcript& t, const std::vector<Transcript>& views,
                  bool noise_rule, const GpuAloneTranscript* gpu_alone) {
  const bool pick_on_the_run = claims_pick_on_the_run(t);
  if (pick_on_the_run && spec.kind == ClaimKind::kCustom && spec.interval && views.size() >= 2) {
    // A position in a sweep: its interval comes from the sweep's figures' intervals, never from the
    // position each context alone would give.
    ClaimResult result = evaluate_at(spec, t, SizeKey{spec.size_label, std::nullopt});
    if (result.measured && result.verdict != Verdict::kNotMeasured) {
      result.measured_interval = spec.interval(t, result);
      if (result.measured_interval && result.has_bound()) {
        result.verdict =
            verdict_from_interval(*result.measured_interval, result.bound_low, result.bound_high);
        result.verdict_basis = "interval";
      }
    }
    return result;
  }
  const auto judged_at = [&](const SizeKey& at) {
    ClaimResult result = judge_at(spec, t, views, noise_rule, at);
    if (gpu_alone != nullptr && sets_figures_against_a_bound(spec.kind)) {
      const std::vector<const CaseResult*> read = cases_read(spec, t, at);
      if (std::any_of(read.begin(), read.end(), [](const CaseResult* c) { return has_gated_reading(*c); })) {
        span_gpu_alone(result, judge_at(spec, gpu_alone->transcript, gpu_alone->views, noise_rule, at));
      }
    }
    return result;
  };
  if (pick_on_the_run && spec.kind == ClaimKind::kPerLaunchConverges) {
    // The size whose per-launch time is the lowest is picked on the run; each context is read at it.
    const CaseResult* picked = lowest_per_launch(spec, t);
    return judged_at(picked != nullptr ? SizeKey{picked->size_label, picked->elements}
                                       : SizeKey{spec.size_label, std::nullopt});
  }
  if (!spec.at_every_size() || spec.kind == ClaimKind::kPerLaunchConverges ||
      spec.kind == ClaimKind::kBitwiseEqual || spec.kind == ClaimKind::kCustom) {
    return judged_at(SizeKey{spec.size_label, std::nullopt});
  }
  std::vector<std::pair<SizeKey, ClaimResult>> per_size;
  for (const SizeKey& at : shared_sizes(spec, t)) {
    per_size.emplace_back(at, judged_at(at));
  }
  return combine_sizes(spec, per_size);
}

}  // namespace

bool ClaimBound::holds(double figure) const {
  if (fraction && expected) {
    return std::fabs(figure / *expected - 1.0) <= *fraction;
  }
  return (!low || figure >= *low) && (!high || figure <= *high);
}

ClaimBound at_most(double high) {
  ClaimBound bound;
  bound.high = high;
  bound.words = "at most " + bound_number(high);
  return bound;
}

ClaimBound at_least(double low) {
  ClaimBound bound;
  bound.low = low;
  bound.words = "at least " + bound_number(low);
  return bound;
}

ClaimBound within(double expected, double fraction) {
  ClaimBound bound;
  bound.expected = expected;
  bound.fraction = fraction;
  bound.low = expected * (1.0 - fraction);
  bound.high = expected * (1.0 + fraction);
  bound.words = "within " + percent_text(fraction) + " of " + fixed(expected, 2);
  return bound;
}

ClaimBound between(double low, double high) {
  ClaimBound bound;
  bound.low = low;
  bound.high = high;
  bound.words = "between " + fixed(low, 2) + " and " + fixed(high, 2);
  return bound;
}

ClaimDescription describe_claim(const ClaimSpec& spec) {
  static const char* const kKinds[] = {"time ratio", "bandwidth band", "per-launch convergence",
                                       "not faster", "bitwise equal",  "the lab's own rule"};
  const std::string where =
      spec.at_every_size() ? "at every size they share" : size_text({spec.size_label, {}});
  std::string figures = figures_text(spec, where);
  if (!spec.queued_launch_case.empty() && spec.cases.size() >= 2 &&
      spec.cases[1] != spec.queued_launch_case) {
    figures += " in hot timing, or of " + spec.queued_launch_case +
               " where the run queues a sample's launches ahead of the GPU (cold, hot-gated)";
  }
  return {kKinds[static_cast<int>(spec.kind)], std::move(figures), bound_words(spec)};
}

ClaimResult evaluate_claim(const ClaimSpec& spec, const Transcript& transcript) {
  return judge(as_judged_in(spec, transcript), transcript, {}, false, nullptr);
}

std::vector<ClaimResult> evaluate_claims(const std::vector<ClaimSpec>& specs, const Transcript& transcript) {
  // The interval units are the run's CUDA contexts (1.8.0), or its rounds before 1.8.0
  // (core/rounds.hpp); one view per unit of the case with the most (1.11.0: the small cases'), each
  // claim judged over the units of the cases it reads (judge). None below 2 units.
  const std::size_t units = most_units(transcript);
  const auto views_of = [units](const Transcript& t) {
    std::vector<Transcript> views;
    if (units >= 2) {
      views.reserve(units);
      for (std::size_t u = 0; u < units; ++u) {
        views.push_back(unit_view(t, u));
      }
    }
    return views;
  };
  const std::vector<Transcript> views = views_of(transcript);
  // A hot run that says so (claims_read_gpu_alone) judges its claims on its cases' gated samples too.
  std::optional<GpuAloneTranscript> gpu_alone;
  if (claims_read_gpu_alone(transcript)) {
    Transcript gated = gated_reading(transcript);
    std::vector<Transcript> gated_views = views_of(gated);
    gpu_alone.emplace(GpuAloneTranscript{std::move(gated), std::move(gated_views)});
  }
  const bool noise_rule = schema_version_at_least(transcript.schema_version, 1, 8);
  std::vector<ClaimResult> results;
  results.reserve(specs.size());
  for (const ClaimSpec& declared : specs) {
    const ClaimSpec spec = as_judged_in(declared, transcript);
    results.push_back(judge(spec, transcript, views, noise_rule, gpu_alone ? &*gpu_alone : nullptr));
    if (noise_rule) {
      note_launch_bound_figures(results.back(), spec, transcript);
    }
  }
  return results;
}

Verdict verdict_from_interval(const Interval& interval, const std::optional<double>& low,
                              const std::optional<double>& high) {
  const bool below = low && interval.high < *low;
  const bool above = high && interval.low > *high;
  if (below || above) {
    return Verdict::kFailed;
  }
  const bool inside = (!low || interval.low >= *low) && (!high || interval.high <= *high);
  return inside ? Verdict::kHeld : Verdict::kInconclusive;
}

void judge_with_rounds(ClaimResult& claim, const std::vector<ClaimResult>& per_round,
                       const ProcessTerm& process) {
  if (per_round.size() < 2 || claim.verdict == Verdict::kNotMeasured) {
    return;
  }
  std::vector<double> figures;
  bool every_round_measured = claim.measured.has_value();
  for (const ClaimResult& round : per_round) {
    if (round.measured) {
      figures.push_back(*round.measured);
    } else {
      every_round_measured = false;
    }
  }
  if (every_round_measured) {
    claim.measured_interval =
        between_round_interval(*claim.measured, figures, process.allowance, process.floor);
  }
  if (claim.has_bound() && claim.measured_interval) {
    claim.verdict = verdict_from_interval(*claim.measured_interval, claim.bound_low, claim.bound_high);
    claim.verdict_basis = "interval";
    return;
  }
  // No figure against a bound: the run's verdict stands when every round reached it.
  std::size_t agreeing = 0;
  std::vector<std::pair<Verdict, std::size_t>> counts;
  for (const ClaimResult& round : per_round) {
    agreeing += round.verdict == claim.verdict ? 1 : 0;
    const auto same = std::find_if(counts.begin(), counts.end(),
                                   [&](const auto& count) { return count.first == round.verdict; });
    if (same == counts.end()) {
      counts.emplace_back(round.verdict, 1);
    } else {
      ++same->second;
    }
  }
  std::string tally;
  for (const auto& [verdict, count] : counts) {
    tally += (tally.empty() ? "" : ", ") + std::string(verdict_name(verdict)) + " " + std::to_string(count);
  }
  claim.detail += "; rounds: " + tally;
  claim.verdict = agreeing == per_round.size() ? claim.verdict : Verdict::kInconclusive;
  claim.verdict_basis = "rounds";
}

bool reads_against_a_bound(const std::vector<ClaimSpec>& claims, const std::string& case_name,
                           const std::string& size_label) {
  return std::any_of(claims.begin(), claims.end(), [&](const ClaimSpec& spec) {
    return sets_figures_against_a_bound(spec.kind) &&
           (spec.at_every_size() || spec.size_label == size_label) &&
           std::find(spec.cases.begin(), spec.cases.end(), case_name) != spec.cases.end();
  });
}

std::vector<ClaimResult> claims_for(const Transcript& transcript, const std::vector<ClaimSpec>* specs) {
  if (transcript.claims_recorded) {
    return transcript.claims;
  }
  return specs != nullptr ? evaluate_claims(*specs, transcript) : std::vector<ClaimResult>{};
}

ClaimSpec time_ratio_claim(std::string id, std::string statement, std::string numerator_case,
                           std::string denominator_case, std::string size_label, ClaimBound bound) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kTimeRatio,
                                 {std::move(numerator_case), std::move(denominator_case)});
  spec.size_label = std::move(size_label);
  spec.bound = std::move(bound);
  return spec;
}

ClaimSpec bandwidth_band_claim(std::string id, std::string statement, std::string reference_case,
                               const std::vector<std::string>& rows, std::string size_label, double low,
                               double high) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kBandwidthBand,
                                 {std::move(reference_case)});
  spec.cases.insert(spec.cases.end(), rows.begin(), rows.end());
  spec.size_label = std::move(size_label);
  spec.bound = between(low, high);
  return spec;
}

std::string bound_words_before_1_8_0(const ClaimSpec& spec) {
  return spec.bound.words_before_1_8_0.empty() ? bound_words(spec) : spec.bound.words_before_1_8_0;
}

ClaimSpec per_launch_converges_claim(std::string id, std::string statement, std::string swept_case,
                                     std::string launch_case, double fraction,
                                     std::string queued_launch_case) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kPerLaunchConverges,
                                 {std::move(swept_case), std::move(launch_case)});
  spec.bound = within(1.0, fraction);
  spec.bound.words_before_1_8_0 = "within " + percent_text(fraction);
  spec.queued_launch_case = std::move(queued_launch_case);
  return spec;
}

bool launches_are_queued(const Transcript& transcript) {
  return transcript.timing && (transcript.timing->mode == "cold" || transcript.timing->mode == "hot-gated");
}

ClaimSpec as_judged_in(const ClaimSpec& spec, const Transcript& transcript) {
  if (spec.kind != ClaimKind::kPerLaunchConverges || spec.queued_launch_case.empty() ||
      spec.cases.size() < 2 || !launches_are_queued(transcript)) {
    return spec;
  }
  const std::vector<const CaseResult*> queued = transcript.cases_named(spec.queued_launch_case);
  const bool timed_here =
      std::any_of(queued.begin(), queued.end(), [](const CaseResult* c) { return c->central_ms() > 0.0; });
  if (!timed_here) {
    return spec;
  }
  ClaimSpec judged = spec;
  judged.cases[1] = spec.queued_launch_case;
  return judged;
}

ClaimSpec not_faster_claim(std::string id, std::string statement, std::string baseline_case,
                           const std::vector<std::string>& others, std::string size_label,
                           double at_least_times) {
  ClaimSpec spec =
      claim_of_kind(std::move(id), std::move(statement), ClaimKind::kNotFaster, {std::move(baseline_case)});
  spec.cases.insert(spec.cases.end(), others.begin(), others.end());
  spec.size_label = std::move(size_label);
  spec.bound = at_least(at_least_times);
  spec.bound.expected = 1.0;
  spec.bound.words_before_1_8_0 = "no case faster by more than " + percent_text(1.0 - at_least_times);
  return spec;
}

ClaimSpec bitwise_equal_claim(std::string id, std::string statement, std::string first_version,
                              std::string second_version, bool expected_to_fail) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kBitwiseEqual,
                                 {std::move(first_version), std::move(second_version)});
  spec.expected_to_fail = expected_to_fail;
  return spec;
}

ClaimSpec custom_claim(std::string id, std::string statement, std::vector<std::string> cases,
                       std::function<void(const Transcript&, ClaimResult&)> evaluate) {
  ClaimSpec spec = claim_of_kind(std::move(id), std::move(statement), ClaimKind::kCustom, std::move(cases));
  spec.evaluate = std::move(evaluate);
  return spec;
}

ClaimSpec custom_claim(
    std::string id, std::string statement, std::vector<std::string> cases,
    std::function<void(const Transcript&, ClaimResult&)> evaluate,
    std::function<std::optional<Interval>(const Transcript&, const ClaimResult&)> interval) {
  ClaimSpec spec = custom_claim(std::move(id), std::move(statement), std::move(cases), std::move(evaluate));
  spec.interval = std::move(interval);
  return spec;
}

std::optional<Interval> claim_ratio_interval(const Transcript& transcript, const CaseResult& numerator,
                                             const CaseResult& denominator) {
  if (!(numerator.central_ms() > 0.0) || !(denominator.central_ms() > 0.0)) {
    return std::nullopt;
  }
  const ProcessTerm process =
      claims_allow_by_figure_kind(transcript)
          ? claim_process_term({&numerator, &denominator}, process_allowance_of(transcript))
          : ProcessTerm{process_allowance_of(transcript), 0.0};
  return measured_ratio(numerator, denominator, process).interval;
}

BandFit band_fit(const Interval& interval, double low, double high) {
  if (interval.high < low || interval.low > high) {
    return BandFit::kOutside;
  }
  return interval.low >= low && interval.high <= high ? BandFit::kInside : BandFit::kAcross;
}

SettlingRange settling_range(const std::vector<BandFit>& points) {
  SettlingRange range;
  // Walk back from the last point while the run lasts.
  for (std::size_t i = points.size(); i-- > 0;) {
    if (points[i] == BandFit::kOutside) {
      break;
    }
    range.earliest = i;
  }
  for (std::size_t i = points.size(); i-- > 0;) {
    if (points[i] != BandFit::kInside) {
      break;
    }
    range.latest = i;
  }
  return range;
}

}  // namespace labrun
