#include "declarations.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "case_names.hpp"
#include "cases/reference_cases.hpp"
#include "constants.hpp"
#include "kernels.hpp"
#include "lab.hpp"
#include "reference.hpp"

namespace verdicts {
namespace {

using labrun::BufferId;
using labrun::ByteModel;
using labrun::CheckId;
using labrun::HostInputs;
using labrun::RegionBuilder;
using labrun::RegionContext;
using labrun::SizeRequest;
using labrun::Tolerance;

constexpr double kFloat = kElementBytes;

const SizeRequest kLesson{"lesson", kLessonElements};
const SizeRequest kCardScaled{"card-scaled", 0};

// Correctness tolerances, per part: |got - expected| <= absolute + relative * |expected|.
// - The copy moves bits: exact.
const Tolerance kCopyTolerance{0.0, 0.0};
// - Scale then bias rounds twice (multiply, add): within 2^-24 of |x * s| + |y|, at most 2e-7
//   here; 1e-6 either way.
const Tolerance kPairTolerance{1e-6, 1e-6};
// - A float32 sum of 10^6 squares in this tree (a few terms per thread, then two 256-way trees)
//   has a worst-case relative error near 1e-6; 1e-5 leaves a factor of ten, while a dropped or
//   doubled block is off by 1e-3 or more.
const Tolerance kSumTolerance{0.0, 1e-5};
// - RMS normalisation inherits half the sum's relative error through the square root.
const Tolerance kNormaliseTolerance{1e-6, 1e-5};
// - A box average of up to 129 values in [-1, 1) summed in float has a worst-case absolute error
//   near 8e-6 (typical 1e-7); a shifted window or a wrong edge is off by 1e-3 or more.
const Tolerance kStencilTolerance{1e-5, 1e-5};
// - The per-group values: a few ulp of exp(sin(k a)) and the rounding of k a, relative 1e-6.
const Tolerance kReuseTolerance{1e-6, 1e-5};

// The lab's buffers as the session holds them: x and a are seeded inputs; mid and y hold the run's
// largest n floats; partials one float per block of the reduction grid; sum one float.
struct WorkspaceIds {
  BufferId x, a, mid, y, partials, sum;

  // The launchers' workspace on the session's buffers. The reduction grid is the current device's,
  // the one the partial sums were sized by when the session opened.
  [[nodiscard]] Workspace on(const RegionContext& ctx) const {
    const ReductionGrid grid = reduction_grid();
    Workspace w;
    w.x = ctx[x];
    w.a = ctx[a];
    w.mid = ctx[mid];
    w.y = ctx[y];
    w.partials = ctx[partials];
    w.sum = ctx[sum];
    w.reduction_blocks = grid.blocks;
    w.cooperative_launch = grid.cooperative_launch;
    return w;
  }
};

// One execution of `launch(workspace, n, stream)` at n, on the legacy default stream. A launcher
// of the reduction parts launches on the reduction grid, cooperatively where it says so.
template <typename Launch>
RegionBuilder region(const WorkspaceIds& ids, Launch launch) {
  return [ids, launch](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const Workspace w = ids.on(ctx);
    const cudaStream_t s = ctx.stream();
    return [launch, w, n, s] { launch(w, n, s); };
  };
}

// ---- per-case attributes: threads per block and the grid, plus each part's own facts ----------

labrun::AttributesBuilder elementwise_attributes() {
  return [](std::uint64_t n) {
    return std::map<std::string, double>{{"threads_per_block", kThreadsPerBlock}, {"blocks", blocks_for(n)}};
  };
}

labrun::AttributesBuilder reduction_attributes(bool cooperative) {
  return [cooperative](std::uint64_t /*n: the grid is the device's, whatever n is*/) {
    const ReductionGrid grid = reduction_grid();
    std::map<std::string, double> attributes{{"threads_per_block", kThreadsPerBlock},
                                             {"grid_blocks", grid.blocks},
                                             {"blocks_per_sm", grid.blocks_per_sm}};
    if (cooperative) {
      attributes["cooperative"] = 1;
    }
    return attributes;
  };
}

labrun::AttributesBuilder stencil_attributes(int radius, bool fused) {
  return [radius, fused](std::uint64_t n) {
    const StencilShape shape = stencil_shape(radius, fused);
    const std::uint64_t blocks = (n + kStencilTile - 1) / kStencilTile;
    return std::map<std::string, double>{{"threads_per_block", kThreadsPerBlock},
                                         {"blocks", static_cast<double>(blocks)},
                                         {"radius", shape.radius},
                                         {"points", 2 * shape.radius + 1},
                                         {"tile", shape.tile},
                                         {"halo", shape.halo},
                                         {"recomputed_fraction", shape.recomputed_fraction},
                                         {"shared_bytes_per_block", static_cast<double>(shape.shared_bytes)}};
  };
}

labrun::AttributesBuilder reuse_attributes(unsigned reuse_shift) {
  return [reuse_shift](std::uint64_t n) {
    return std::map<std::string, double>{{"threads_per_block", kThreadsPerBlock},
                                         {"blocks", blocks_for(n)},
                                         {"reuse", static_cast<double>(1u << reuse_shift)},
                                         {"groups", static_cast<double>(groups_for(n, reuse_shift))}};
  };
}

// The flop model of the pair (core/byte_model.hpp): a multiply (scale) and an add (bias) per element,
// in either version. The lab's other cases declare no flops and are not placed on the roofline.
constexpr double kPairFlops = 2.0;

// ---- a case and its own correctness version ---------------------------------------------------

using Reference = std::function<std::vector<double>(const HostInputs&, std::uint64_t)>;

// Everything one case of this lab declares. Every case is checked on its own: its correctness
// version, "<part>-<name>" (version_name), runs the same region once at the odd correctness size.
struct VersionedCase {
  std::string name;  // the case's full name (case_names.hpp)
  std::string label;
  ByteModel model;
  std::vector<SizeRequest> sizes = {};  // none: the lab's (LabDeclaration::sizes)
  RegionBuilder region;
  BufferId output;
  Reference reference;
  Tolerance tolerance;
  labrun::AttributesBuilder attributes;
  std::string reference_key = {};  // shared by the two versions of one computation
};

CheckId declare(labrun::LabDeclaration& lab, VersionedCase declared) {
  const std::size_t last = declared.name.rfind('/');
  labrun::CaseSpec spec =
      labrun::case_spec(declared.name, std::move(declared.label), declared.model, std::move(declared.sizes));
  std::string version = version_name(spec.part, declared.name.substr(last + 1));
  return lab.add_checked_case(
      std::move(spec),
      {std::move(version), std::move(declared.region), declared.output, std::move(declared.reference),
       declared.tolerance, std::move(declared.reference_key)},
      std::move(declared.attributes));
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

// log2 of a reuse factor (a power of two, one of kReuseFactors).
unsigned shift_of(unsigned reuse) {
  unsigned shift = 0;
  while ((1u << shift) < reuse) {
    ++shift;
  }
  return shift;
}

// f(a[g]) in float64 for each group g of n elements at reuse R, then x[i] * f(a[i / R]).
Reference reuse_expected(const WorkspaceIds& ids, bool expensive, unsigned reuse) {
  return [ids, expensive, reuse](const HostInputs& in, std::uint64_t n) {
    const std::vector<float>& a = in[ids.a];
    const std::size_t groups = groups_for(n, shift_of(reuse));
    std::vector<double> values(groups);
    std::transform(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(groups), values.begin(),
                   expensive ? expensive_value_reference : cheap_value_reference);
    return reuse_reference(in[ids.x], values, reuse);
  };
}

}  // namespace

labrun::LabDeclaration declare_lab() {
  labrun::LabDeclaration lab(kLabName);
  lab.correctness_elements(kCorrectnessElements);
  // Every case runs at these but the pair (swept), the wider stencils and the reuse cases (lesson).
  lab.sizes({kLesson, kCardScaled});
  const WorkspaceIds ids{
      lab.input("x", kInputStream, kInputLow, kInputHigh),
      lab.input("a", kGroupInputStream, kInputLow, kInputHigh),
      lab.output("mid"),
      lab.output("y"),
      lab.output("partials", [] { return std::size_t{std::max(reduction_grid().blocks, 1u)}; }),
      lab.output("sum", [] { return std::size_t{1}; })};
  const auto x_of = [ids](const HostInputs& in) -> const std::vector<float>& { return in[ids.x]; };

  // The practical ceiling the eliminated traffic is judged against: one read and one write.
  declare(lab, {.name = cases::kCopy,
                .label = "copy floor: y = x",
                .model = labrun::with_flops(ByteModel{kFloat, kFloat, 1}, 0.0),
                .region = region(ids, launch_copy_floor),
                .output = ids.y,
                .reference =
                    [x_of](const HostInputs& in, std::uint64_t) {
                      return std::vector<double>(x_of(in).begin(), x_of(in).end());
                    },
                .tolerance = kCopyTolerance,
                .attributes = elementwise_attributes()});

  // Elementwise then elementwise, the chapter's scale-then-bias pair. Two passes: scale reads x
  // and writes tmp, bias reads tmp and writes y (8 + 8 B, 2 launches); fused: reads x, writes y
  // (4 + 4 B, 1 launch). Byte ratio 2. Swept over n for the L2 crossover.
  const Reference scale_bias = [x_of](const HostInputs& in, std::uint64_t) {
    return scale_bias_reference(x_of(in));
  };
  const CheckId pair_two_passes =
      declare(lab, {.name = cases::kPairTwoPasses,
                    .label = "scale, then bias: two passes",
                    .model = labrun::with_flops(ByteModel{2 * kFloat, 2 * kFloat, 2}, kPairFlops),
                    .sizes = pair_sizes(),
                    .region = region(ids, launch_pair_two_passes),
                    .output = ids.y,
                    .reference = scale_bias,
                    .tolerance = kPairTolerance,
                    .attributes = elementwise_attributes(),
                    .reference_key = "scale-bias"});
  const CheckId pair_fused =
      declare(lab, {.name = cases::kPairFused,
                    .label = "scale and bias fused",
                    .model = labrun::with_flops(ByteModel{kFloat, kFloat, 1}, kPairFlops),
                    .sizes = pair_sizes(),
                    .region = region(ids, launch_pair_fused),
                    .output = ids.y,
                    .reference = scale_bias,
                    .tolerance = kPairTolerance,
                    .attributes = elementwise_attributes(),
                    .reference_key = "scale-bias"});

  // Elementwise then reduction: t = x^2 then sum(t). Two kernels: the square reads x and writes
  // t, the grid-stride sum reads t (8 + 4 B); folded: the sum squares x as it loads it (4 + 0 B).
  // Both finish with one block summing the per-block partials: O(blocks) bytes, not per element,
  // so not in the model; it is the third and second launch. The check compares the one float of
  // `sum` with the float64 sum.
  const Reference sum_of_squares = [x_of](const HostInputs& in, std::uint64_t) {
    return std::vector<double>{sum_of_squares_reference(x_of(in))};
  };
  const CheckId sum_two_kernels = declare(lab, {.name = cases::kSumTwoKernels,
                                                .label = "square, then sum: two kernels",
                                                .model = ByteModel{2 * kFloat, kFloat, 3},
                                                .region = region(ids, launch_sum_two_kernels),
                                                .output = ids.sum,
                                                .reference = sum_of_squares,
                                                .tolerance = kSumTolerance,
                                                .attributes = reduction_attributes(false),
                                                .reference_key = "sum-of-squares"});
  const CheckId sum_folded = declare(lab, {.name = cases::kSumFolded,
                                           .label = "sum of squares, the square folded into the loads",
                                           .model = ByteModel{kFloat, 0.0, 2},
                                           .region = region(ids, launch_sum_folded),
                                           .output = ids.sum,
                                           .reference = sum_of_squares,
                                           .tolerance = kSumTolerance,
                                           .attributes = reduction_attributes(false),
                                           .reference_key = "sum-of-squares"});

  // Reduction then elementwise: y = x / rms(x). Both versions read x twice (once to sum, once to
  // scale) and write y (8 + 4 B); the partial sums are O(blocks). Two kernels on one grid, or one
  // cooperative kernel with a grid-wide barrier between the phases: same bytes, one boundary less.
  // The cooperative region calls cudaLaunchCooperativeKernel through its launcher.
  const Reference normalised = [x_of](const HostInputs& in, std::uint64_t) {
    return rms_normalise_reference(x_of(in));
  };
  const CheckId normalise_two_kernels = declare(lab, {.name = cases::kNormaliseTwoKernels,
                                                      .label = "sum of squares, then normalise: two kernels",
                                                      .model = ByteModel{2 * kFloat, kFloat, 2},
                                                      .region = region(ids, launch_normalise_two_kernels),
                                                      .output = ids.y,
                                                      .reference = normalised,
                                                      .tolerance = kNormaliseTolerance,
                                                      .attributes = reduction_attributes(false),
                                                      .reference_key = "rms-normalise"});
  const CheckId normalise_cooperative = declare(lab, {.name = cases::kNormaliseCooperative,
                                                      .label = "one cooperative kernel, grid barrier between",
                                                      .model = ByteModel{2 * kFloat, kFloat, 1},
                                                      .region = region(ids, launch_normalise_cooperative),
                                                      .output = ids.y,
                                                      .reference = normalised,
                                                      .tolerance = kNormaliseTolerance,
                                                      .attributes = reduction_attributes(true),
                                                      .reference_key = "rms-normalise"});

  // The pairs whose outputs are compared bit for bit, (fused, unfused): unfused and fused versions
  // run the same float operations in the same order (stages.cuh).
  lab.compare_bitwise(pair_fused, pair_two_passes);
  lab.compare_bitwise(sum_folded, sum_two_kernels);
  lab.compare_bitwise(normalise_cooperative, normalise_two_kernels);

  // Stencil then stencil: two box averages of 2R + 1 points. Two passes: x -> u -> y (8 + 8 B);
  // fused through a shared-memory tile: x -> y (4 + 4 B). The halo loads beyond each tile (R per
  // side per pass, 2R for the fused kernel) are read again by the neighbouring block and served
  // by the L2, so the model leaves them out; the cases record halo and tile as attributes.
  for (const int radius : kStencilRadii) {
    const std::vector<SizeRequest> sizes = radius == 1 ? lab.sizes() : std::vector<SizeRequest>{kLesson};
    const std::string points = std::to_string(2 * radius + 1) + "-point";
    const Reference stencil_pair = [x_of, radius](const HostInputs& in, std::uint64_t) {
      return stencil_pair_reference(x_of(in), radius);
    };
    const CheckId unfused = declare(
        lab, {.name = cases::stencil(radius, false),
              .label = points + " box, then again: two passes",
              .model = ByteModel{2 * kFloat, 2 * kFloat, 2},
              .sizes = sizes,
              .region = region(ids, [radius](const Workspace& w, std::size_t n,
                                             cudaStream_t s) { launch_stencil_two_passes(radius, w, n, s); }),
              .output = ids.y,
              .reference = stencil_pair,
              .tolerance = kStencilTolerance,
              .attributes = stencil_attributes(radius, false),
              .reference_key = "stencil-r" + std::to_string(radius)});
    const CheckId fused = declare(
        lab, {.name = cases::stencil(radius, true),
              .label = points + " box twice, fused (halo recomputed)",
              .model = ByteModel{kFloat, kFloat, 1},
              .sizes = sizes,
              .region = region(ids, [radius](const Workspace& w, std::size_t n,
                                             cudaStream_t s) { launch_stencil_fused(radius, w, n, s); }),
              .output = ids.y,
              .reference = stencil_pair,
              .tolerance = kStencilTolerance,
              .attributes = stencil_attributes(radius, true),
              .reference_key = "stencil-r" + std::to_string(radius)});
    lab.compare_bitwise(fused, unfused);
  }

  // Recompute or materialise a value used by R outputs: y[i] = x[i] * f(a[i / R]). Recompute
  // (one kernel, every thread evaluates f): reads x and a[i / R], writes y: 4 + 4/R read, 4
  // written. Materialise (f once per group into v, then y = x * v): reads a and v once per group
  // and x per element, writes v per group and y per element: 4 + 8/R read, 4 + 4/R written.
  for (const bool expensive : {false, true}) {
    const std::string cost = expensive ? "expensive" : "cheap";
    for (const unsigned reuse : kReuseFactors) {
      const unsigned shift = shift_of(reuse);
      const double per_group = kFloat / reuse;
      const std::string r = " (R = " + std::to_string(reuse) + ")";
      std::string recomputed = cost;
      recomputed.append(" value recomputed").append(r);
      std::string materialised = cost;
      materialised.append(" value materialised").append(r);
      const CheckId recompute = declare(
          lab, {.name = cases::reuse(expensive, true, reuse),
                .label = std::move(recomputed),
                .model = ByteModel{kFloat + per_group, kFloat, 1},
                .sizes = {kLesson},
                .region = region(ids,
                                 [expensive, shift](const Workspace& w, std::size_t n, cudaStream_t s) {
                                   launch_recompute(expensive, shift, w, n, s);
                                 }),
                .output = ids.y,
                .reference = reuse_expected(ids, expensive, reuse),
                .tolerance = kReuseTolerance,
                .attributes = reuse_attributes(shift),
                .reference_key = "reuse-" + cost + "-r" + std::to_string(reuse)});
      const CheckId materialise = declare(
          lab, {.name = cases::reuse(expensive, false, reuse),
                .label = std::move(materialised),
                .model = ByteModel{kFloat + 2 * per_group, kFloat + per_group, 2},
                .sizes = {kLesson},
                .region = region(ids,
                                 [expensive, shift](const Workspace& w, std::size_t n, cudaStream_t s) {
                                   launch_materialise(expensive, shift, w, n, s);
                                 }),
                .output = ids.y,
                .reference = reuse_expected(ids, expensive, reuse),
                .tolerance = kReuseTolerance,
                .attributes = reuse_attributes(shift),
                .reference_key = "reuse-" + cost + "-r" + std::to_string(reuse)});
      lab.compare_bitwise(recompute, materialise);
    }
  }

  // The roofline's compute ceiling (evidence/roofline.hpp): the harness's peak-FMA case.
  labrun::add_peak_fma_case(lab, "roofline");

  lab.facts([] {
    const ReductionGrid grid = reduction_grid();
    std::vector<labrun::Fact> facts = labrun::compiled_kernel_facts(fused_pair_kernel(), kThreadsPerBlock);
    facts.push_back(labrun::Fact::known("stencil_tile", std::int64_t{kStencilTile}));
    facts.push_back(labrun::Fact::known("reduction_grid_blocks", static_cast<std::int64_t>(grid.blocks)));
    facts.push_back(
        labrun::Fact::known("reduction_blocks_per_sm", static_cast<std::int64_t>(grid.blocks_per_sm)));
    facts.push_back(labrun::Fact::known("cooperative_launch", grid.cooperative_launch));
    return facts;
  });
  return lab;
}

}  // namespace verdicts
