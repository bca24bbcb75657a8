#include "lab.hpp"

#include <utility>

#include "constants.hpp"
#include "plots.hpp"
#include "rules.hpp"
#include "session.hpp"

namespace verdicts {
namespace {

using labrun::ByteModel;
using labrun::CaseSpec;
using labrun::ClaimSpec;
using labrun::SizeRequest;

constexpr double kFloat = kElementBytes;

const SizeRequest kLesson{"lesson", kLessonElements};
const SizeRequest kCardScaled{"card-scaled", 0};

CaseSpec make_case(const std::string& part, const std::string& name, const std::string& label,
                   ByteModel model, std::vector<SizeRequest> sizes) {
  CaseSpec spec;
  spec.name = case_name(part, name);
  spec.part = part;
  spec.label = label;
  spec.model = model;
  spec.verified_by = version_name(part, name);
  spec.sizes = std::move(sizes);
  return spec;
}

// The lesson and card-scaled sizes first, then every other power of two. The card-scaled size
// lands on a power of two of the sweep (2^27 on an H200): the runner drops the repeated n and
// keeps the first label, "card-scaled".
std::vector<SizeRequest> pair_sizes() {
  std::vector<SizeRequest> sizes{kLesson, kCardScaled};
  for (std::uint64_t n = kSweepFirst; n <= kSweepLast; n *= 2) {
    if (n != kLessonElements) {
      sizes.push_back({"sweep", n});
    }
  }
  return sizes;
}

std::vector<CaseSpec> declare_cases() {
  std::vector<CaseSpec> cases;
  const std::vector<SizeRequest> both{kLesson, kCardScaled};

  // The practical ceiling the eliminated traffic is judged against: one read and one write.
  cases.push_back(make_case(kFloorPart, "copy", "copy floor: y = x", ByteModel{kFloat, kFloat, 1}, both));

  // Elementwise then elementwise, the chapter's scale-then-bias pair. Two passes: scale reads x
  // and writes tmp, bias reads tmp and writes y (8 + 8 B, 2 launches); fused: reads x, writes y
  // (4 + 4 B, 1 launch). Byte ratio 2. Swept over n for the L2 crossover.
  cases.push_back(make_case(kPairPart, "two-passes", "scale, then bias: two passes",
                            ByteModel{2 * kFloat, 2 * kFloat, 2}, pair_sizes()));
  cases.push_back(
      make_case(kPairPart, "fused", "scale and bias fused", ByteModel{kFloat, kFloat, 1}, pair_sizes()));

  // Elementwise then reduction: t = x^2 then sum(t). Two kernels: the square reads x and writes
  // t, the grid-stride sum reads t (8 + 4 B); folded: the sum squares x as it loads it (4 + 0 B).
  // Both finish with one block summing the per-block partials: O(blocks) bytes, not per element,
  // so not in the model; it is the third and second launch.
  cases.push_back(make_case(kSumPart, "two-kernels", "square, then sum: two kernels",
                            ByteModel{2 * kFloat, kFloat, 3}, both));
  cases.push_back(make_case(kSumPart, "folded", "sum of squares, the square folded into the loads",
                            ByteModel{kFloat, 0.0, 2}, both));

  // Reduction then elementwise: y = x / rms(x). Both versions read x twice (once to sum, once to
  // scale) and write y (8 + 4 B); the partial sums are O(blocks). Two kernels on one grid, or one
  // cooperative kernel with a grid-wide barrier between the phases: same bytes, one boundary less.
  cases.push_back(make_case(kNormalisePart, "two-kernels", "sum of squares, then normalise: two kernels",
                            ByteModel{2 * kFloat, kFloat, 2}, both));
  cases.push_back(make_case(kNormalisePart, "cooperative", "one cooperative kernel, grid barrier between",
                            ByteModel{2 * kFloat, kFloat, 1}, both));

  // Stencil then stencil: two box averages of 2R + 1 points. Two passes: x -> u -> y (8 + 8 B);
  // fused through a shared-memory tile: x -> y (4 + 4 B). The halo loads beyond each tile (R per
  // side per pass, 2R for the fused kernel) are read again by the neighbouring block and served
  // by the L2, so the model leaves them out; the cases record halo and tile as attributes.
  for (const int radius : kStencilRadii) {
    const std::vector<SizeRequest> sizes = radius == 1 ? both : std::vector<SizeRequest>{kLesson};
    const std::string points = std::to_string(2 * radius + 1) + "-point";
    cases.push_back(make_case(kStencilPart, stencil_case(radius, false),
                              points + " box, then again: two passes", ByteModel{2 * kFloat, 2 * kFloat, 2},
                              sizes));
    cases.push_back(make_case(kStencilPart, stencil_case(radius, true),
                              points + " box twice, fused (halo recomputed)", ByteModel{kFloat, kFloat, 1},
                              sizes));
  }

  // Recompute or materialise a value used by R outputs: y[i] = x[i] * f(a[i / R]). Recompute
  // (one kernel, every thread evaluates f): reads x and a[i / R], writes y: 4 + 4/R read, 4
  // written. Materialise (f once per group into v, then y = x * v): reads a and v once per group
  // and x per element, writes v per group and y per element: 4 + 8/R read, 4 + 4/R written.
  for (const bool expensive : {false, true}) {
    const std::string cost = expensive ? "expensive" : "cheap";
    for (const unsigned reuse : kReuseFactors) {
      const double per_group = kFloat / reuse;
      const std::string r = " (R = " + std::to_string(reuse) + ")";
      std::string recomputed = cost;
      recomputed.append(" value recomputed").append(r);
      std::string materialised = cost;
      materialised.append(" value materialised").append(r);
      cases.push_back(make_case(kReusePart, reuse_case(expensive, true, reuse), recomputed,
                                ByteModel{kFloat + per_group, kFloat, 1}, {kLesson}));
      cases.push_back(make_case(kReusePart, reuse_case(expensive, false, reuse), materialised,
                                ByteModel{kFloat + 2 * per_group, kFloat + per_group, 2}, {kLesson}));
    }
  }
  return cases;
}

std::vector<std::string> reuse_cases(bool expensive) {
  std::vector<std::string> names;
  for (const unsigned reuse : kReuseFactors) {
    names.push_back(case_name(kReusePart, reuse_case(expensive, true, reuse)));
    names.push_back(case_name(kReusePart, reuse_case(expensive, false, reuse)));
  }
  return names;
}

// One claim per row of the chapter's verdict table that the lab measures, plus the chapter's
// two measuring methods (the L2 crossover and the bandwidth of the eliminated traffic). The
// verdict rows are judged at the card-scaled size, where the buffers are 8 x the L2 and the
// traffic the chapter counts reaches DRAM. Tolerances are this lab's; the chapter gives none.
std::vector<ClaimSpec> declare_claims() {
  const std::string pair_unfused = case_name(kPairPart, "two-passes");
  const std::string pair_fused = case_name(kPairPart, "fused");
  const std::string sum_unfused = case_name(kSumPart, "two-kernels");
  const std::string sum_fused = case_name(kSumPart, "folded");
  const std::string normalise_unfused = case_name(kNormalisePart, "two-kernels");
  const std::string normalise_fused = case_name(kNormalisePart, "cooperative");
  const std::string stencil_unfused = case_name(kStencilPart, stencil_case(1, false));
  const std::string stencil_fused = case_name(kStencilPart, stencil_case(1, true));
  const std::string copy = case_name(kFloorPart, "copy");
  std::vector<ClaimSpec> claims;

  // Elementwise then elementwise, "fuse". Every pass of both versions is one read and one write
  // per element, so the time ratio should be the byte ratio itself; 10% covers the noise of two
  // medians and one launch boundary (a few microseconds against milliseconds at this size).
  claims.push_back(
      labrun::ratio_near_claim(kPairClaim,
                               "Elementwise then elementwise (fuse): two passes over the fused pass "
                               "follows the byte ratio 2.00",
                               pair_unfused, pair_fused, kClaimSize, 2.0, 0.10));

  // The chapter's regression test: the speedup settles at the byte ratio once the intermediate
  // stops fitting in L2. The sweep moves in powers of two, so the first size past the L2 is up to
  // 2 x L2; the two passes keep three buffers (x, tmp, y) live, so the intermediate competes for
  // the L2 from L2 / 3 and part of it can still hit there a doubling beyond. Settling anywhere
  // from L2 / 4 to 4 x L2 is the chapter's crossover; far below it means the L2 made no
  // difference, far above it that something else (not the cache) kept the ratio off.
  const CrossoverRule crossover_rule{pair_unfused, pair_fused, 0.10, 0.25, 4.0, 2.0};
  claims.push_back(labrun::custom_claim(
      kCrossoverClaim,
      "The L2 crossover: the elementwise pair's speedup settles at its byte ratio once "
      "the intermediate no longer fits in L2 (at n x 4 B near the L2 size)",
      {pair_unfused, pair_fused}, [crossover_rule](const labrun::Transcript& t, labrun::ClaimResult& r) {
        judge_crossover(crossover_rule, t, r);
      }));

  // Elementwise then reduction, "fuse with care": folding the pointwise stage into the sum's
  // loads removes its round trip. One-sided: the folded sum only reads, and a read-only stream
  // runs faster per byte than the read-write square pass it replaces, so the speedup may exceed
  // the byte ratio 3; falling more than 10% short of it would mean the fold cost something.
  const AtLeastByteRatioRule sum_rule{sum_unfused, sum_fused, kClaimSize, 0.10};
  claims.push_back(labrun::custom_claim(
      kSumClaim,
      "Elementwise then reduction (fuse with care): folding the pointwise stage into the "
      "reduction's loads gains at least the byte ratio 3.00",
      {sum_unfused, sum_fused}, [sum_rule](const labrun::Transcript& t, labrun::ClaimResult& r) {
        judge_at_least_byte_ratio(sum_rule, t, r);
      }));

  // Reduction then elementwise, "do not fuse": with the bytes the same, the grid barrier can buy
  // only the kernel boundary it replaces (microseconds against a pass that takes hundreds of them
  // at this size). More than 10% faster would mean the chapter's advice leaves time on the table.
  claims.push_back(
      labrun::not_faster_claim(kNormaliseClaim,
                               "Reduction then elementwise (do not fuse): a cooperative kernel with "
                               "a grid-wide barrier is not meaningfully faster than two kernels "
                               "moving the same bytes",
                               normalise_unfused, {normalise_fused}, kClaimSize, 0.10));

  // Stencil then stencil, "fuse, recomputing the halo": same read/write mix as the pair, plus a
  // shared-memory tile, two barriers per block and 2 / 256 of the first pass recomputed, which
  // the byte model does not count: 15% rather than 10%.
  claims.push_back(
      labrun::ratio_near_claim(kStencilClaim,
                               "Stencil then stencil (fuse): two 3-point passes over one fused pass "
                               "that recomputes the halo follows the byte ratio 2.00",
                               stencil_unfused, stencil_fused, kClaimSize, 2.0, 0.15));

  // The chapter's measuring method: time saved / bytes removed should be near the practical
  // ceiling. The removed traffic is one write and one read of the intermediate, the copy floor's
  // own mix; a difference of two medians is noisier than either, hence -20% / +25% (the same
  // distance either way as a ratio).
  const EliminatedTrafficRule eliminated_rule{
      {{pair_unfused, pair_fused}, {sum_unfused, sum_fused}, {stencil_unfused, stencil_fused}},
      copy,
      kClaimSize,
      0.8,
      1.25};
  claims.push_back(labrun::custom_claim(
      kEliminatedClaim,
      "The time each fusion saves is its eliminated traffic moved at about the copy "
      "floor's bandwidth (the chapter's measuring method)",
      {copy, pair_unfused, pair_fused, sum_unfused, sum_fused, stencil_unfused, stencil_fused},
      [eliminated_rule](const labrun::Transcript& t, labrun::ClaimResult& r) {
        judge_eliminated_traffic(eliminated_rule, t, r);
      }));

  // Recompute or materialise, the chapter's "case by case" middle ground. A one-FMA value is
  // free beside the bytes, and materialising it adds a launch and 8/R bytes per element, so
  // recomputing should never lose; 5% allows for noise where the two are within a launch.
  const CheapReuseRule cheap_rule{0.05};
  claims.push_back(labrun::custom_claim(
      kCheapReuseClaim,
      "Recompute or materialise, cheap value: recomputing is never slower than "
      "materialising, at any reuse R",
      reuse_cases(false), [cheap_rule](const labrun::Transcript& t, labrun::ClaimResult& r) {
        judge_cheap_reuse(cheap_rule, t, r);
      }));

  claims.push_back(labrun::custom_claim(
      kExpensiveReuseClaim,
      "Recompute or materialise, expensive value (transcendentals): recomputing wins "
      "at low reuse and materialising wins from some reuse R on",
      reuse_cases(true),
      [](const labrun::Transcript& t, labrun::ClaimResult& r) { judge_expensive_reuse(t, r); }));
  return claims;
}

}  // namespace

std::string case_name(const std::string& part, const std::string& name) {
  return std::string(kLabName) + "/" + part + "/" + name;
}

std::string version_name(const std::string& part, const std::string& name) {
  return part + "-" + name;
}

std::string stencil_case(int radius, bool fused) {
  return std::string(fused ? "fused" : "two-passes") + "-r" + std::to_string(radius);
}

std::string reuse_case(bool expensive, bool recompute, unsigned reuse) {
  return std::string(expensive ? "expensive" : "cheap") + (recompute ? "-recompute" : "-materialise") + "-r" +
         std::to_string(reuse);
}

labrun::Lab make_lab() {
  labrun::Lab lab;
  lab.name = kLabName;
  lab.title = "Fusion verdicts: the chapter's verdict table, measured";
  lab.summary =
      "each fusion verdict (elementwise, reduction, stencil, recompute) measured unfused and fused, with the "
      "L2 crossover";
  lab.element_bytes = sizeof(float);
  lab.card_scaled_l2_multiple = 8;
  lab.buffers_at_max_size = 4;  // x, a, the intermediate and y (Workspace)
  lab.correctness_elements = kCorrectnessElements;
  lab.cases = declare_cases();
  lab.predictions = {
      {"elementwise pair: two passes over fused", case_name(kPairPart, "two-passes"),
       case_name(kPairPart, "fused")},
      {"elementwise then reduction: two kernels over folded", case_name(kSumPart, "two-kernels"),
       case_name(kSumPart, "folded")},
      {"reduction then elementwise: two kernels over cooperative", case_name(kNormalisePart, "two-kernels"),
       case_name(kNormalisePart, "cooperative")},
      {"3-point stencils: two passes over fused", case_name(kStencilPart, stencil_case(1, false)),
       case_name(kStencilPart, stencil_case(1, true))},
      {"fused pair over the copy floor", case_name(kPairPart, "fused"), case_name(kFloorPart, "copy")},
  };
  lab.claims = declare_claims();
  lab.stability_case = case_name(kPairPart, "two-passes");
  lab.open_session = open_session;
  lab.render_tables = render_tables;
  lab.plots = plots;
  // No ceiling copy and no launch case in this lab: those figures are day 48's.
  lab.card_figures.copy_floor_case = case_name(kFloorPart, "copy");
  // The L2 crossover claim's own tolerance.
  lab.card_figures.sweep_slower_case = case_name(kPairPart, "two-passes");
  lab.card_figures.sweep_faster_case = case_name(kPairPart, "fused");
  lab.card_figures.settle_tolerance = 0.10;
  return lab;
}

}  // namespace verdicts
