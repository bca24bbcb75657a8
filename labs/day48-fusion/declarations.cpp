#include "declarations.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <utility>

#include "case_names.hpp"
#include "cases/reference_cases.hpp"
#include "chain_constants.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "timing/cuda_check.hpp"

namespace day48 {
namespace {

using labrun::BufferId;
using labrun::CaseDeclaration;
using labrun::CaseSpec;
using labrun::CheckId;
using labrun::RegionBuilder;
using labrun::RegionContext;
using labrun::SizeRequest;

constexpr double kFloat = 4.0;  // bytes per element of one float buffer

const SizeRequest kLesson{"lesson", kLessonElements};
const SizeRequest kCardScaled{"card-scaled", 0};

// Reads and writes as counts of float buffers touched per element, and the flops per element the
// case's kernels do, counted from chain_math.hpp's stages as core/byte_model.hpp counts them:
// scale-bias 2 (a fused multiply-add), GELU 5 (two multiplies, a scale, an add and erf), the residual
// 1 (an add), the clamp 0 (a min and a max): 8 for the whole chain.
labrun::ByteModel floats(int reads, int writes, int launches, double flops) {
  return labrun::with_flops(labrun::ByteModel{reads * kFloat, writes * kFloat, launches}, flops);
}
constexpr double kChainFlops = 8.0;

std::vector<SizeRequest> sweep_sizes() {
  std::vector<SizeRequest> sizes;
  for (std::uint64_t n = 1024; n <= kLessonElements; n *= 4) {
    sizes.push_back({"sweep", n});
  }
  sizes.push_back(kCardScaled);
  return sizes;
}

using ChainLauncher = void (*)(const ChainBuffers&, std::size_t, cudaStream_t);
using CopyLauncher = void (*)(const float*, float*, std::size_t, cudaStream_t);

RegionBuilder chain_region(const ChainIds& ids, ChainLauncher launch) {
  return [ids, launch](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const ChainBuffers b = ids.on(ctx);
    const cudaStream_t s = ctx.stream();
    return [launch, b, n, s] { launch(b, n, s); };
  };
}

RegionBuilder copy_region(const ChainIds& ids, CopyLauncher launch) {
  return [ids, launch](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const float* in = ctx[ids.x];
    float* out = ctx[ids.copy_out];
    const cudaStream_t s = ctx.stream();
    return [launch, in, out, n, s] { launch(in, out, n, s); };
  };
}

RegionBuilder wide_region(const ChainIds& ids, int width) {
  return [ids, width](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const ChainBuffers b = ids.on(ctx);
    const cudaStream_t s = ctx.stream();
    return [width, b, n, s] { launch_fused_wide(width, b, n, s); };
  };
}

// The staged chain captured once per n as a CUDA graph (four kernel nodes), replayed per execution.
RegionBuilder graph_region(const ChainIds& ids) {
  return [ids](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const ChainBuffers b = ids.on(ctx);
    const cudaGraphExec_t graph =
        ctx.graph("staged-chain", n, [b, n](cudaStream_t capture) { launch_staged_chain(b, n, capture); });
    const cudaStream_t s = ctx.stream();
    return [graph, s] { LABRUN_CUDA_CHECK(cudaGraphLaunch(graph, s)); };
  };
}

RegionBuilder empty_region(unsigned blocks, unsigned threads) {
  return [blocks, threads](RegionContext& ctx, std::uint64_t /*n*/) -> std::function<void()> {
    const cudaStream_t s = ctx.stream();
    return [blocks, threads, s] { launch_do_nothing(blocks, threads, s); };
  };
}

RegionBuilder empty_chain_grid_region() {
  return [](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const unsigned blocks = blocks_for(n, 1);
    const cudaStream_t s = ctx.stream();
    return [blocks, s] { launch_do_nothing(blocks, kThreadsPerBlock, s); };
  };
}

// The per-case facts: the grid, and for part 4 what the runtime says about each width's kernel.
labrun::AttributesBuilder grid_attributes(int width) {
  return [width](std::uint64_t n) {
    std::map<std::string, double> attributes;
    attributes["blocks"] = blocks_for(n, width > 0 ? width : 1);
    attributes["threads_per_block"] = kThreadsPerBlock;
    if (width > 0) {
      const labrun::KernelResources resources =
          labrun::kernel_resources(fused_wide_kernel(width), kThreadsPerBlock);
      attributes["registers"] = resources.registers;
      attributes["local_bytes_per_thread"] = static_cast<double>(resources.local_bytes);
      attributes["blocks_per_sm"] = resources.blocks_per_sm;
      attributes["theoretical_occupancy"] = resources.theoretical_occupancy;
      attributes["binary_version"] = resources.binary_version;
    }
    return attributes;
  };
}

labrun::AttributesBuilder single_thread_attributes() {
  return [](std::uint64_t /*n*/) {
    return std::map<std::string, double>{{"blocks", 1}, {"threads_per_block", 1}};
  };
}

// A chain version's check: its output y against the float64 chain, within 1e-5 absolute and
// relative.
labrun::CheckDeclaration chain_check_of(const ChainIds& ids, std::string version, RegionBuilder region) {
  const auto expected = [ids](const labrun::HostInputs& in, std::uint64_t /*n*/) {
    return chain_reference(in[ids.x], in[ids.residual]);
  };
  return labrun::CheckDeclaration{
      std::move(version), std::move(region), ids.y, expected, labrun::Tolerance{1e-5, 1e-5}, "float64-chain"};
}

}  // namespace

ChainBuffers ChainIds::on(const RegionContext& ctx) const {
  return ChainBuffers{ctx[x], ctx[residual], ctx[t1], ctx[t2], ctx[t3], ctx[y], ctx[halfway], ctx[copy_out]};
}

labrun::CheckDeclaration ChainDeclaration::chain_check(std::string version, RegionBuilder region) const {
  return chain_check_of(ids, std::move(version), std::move(region));
}

ChainDeclaration declare_chain() {
  labrun::LabDeclaration lab(kLabName);
  lab.correctness_elements(kCorrectnessElements);
  // Parts 2 and 4 run at these; the other parts name their own.
  lab.sizes({kLesson, kCardScaled});
  ChainIds ids{lab.input("x", kInputStream, kInputLow, kInputHigh),
               lab.input("residual", kResidualStream, -kResidualSpan, kResidualSpan),
               lab.output("t1"),
               lab.output("t2"),
               lab.output("t3"),
               lab.output("y"),
               lab.output("halfway"),
               lab.output("copy_out")};

  // Correctness versions: each chain version against the float64 chain, each copy exactly.
  const labrun::Tolerance exact{0.0, 0.0};
  const auto copy_expected = [ids](const labrun::HostInputs& in, std::uint64_t /*n*/) {
    return std::vector<double>(in[ids.x].begin(), in[ids.x].end());
  };
  const auto chain_check = [&](const std::string& version, RegionBuilder region) {
    return lab.check(chain_check_of(ids, version, std::move(region)));
  };
  const auto copy_check = [&](const std::string& version, CopyLauncher launch) {
    return lab.check({version, copy_region(ids, launch), ids.copy_out, copy_expected, exact});
  };
  const CheckId copy_floor = copy_check("copy-floor", launch_copy_floor);
  const CheckId copy_vectorized = copy_check("copy-vectorized", launch_copy_vectorized);
  const CheckId copy_memcpy = copy_check("copy-memcpy", launch_copy_memcpy);
  const CheckId staged = chain_check("staged-chain", chain_region(ids, launch_staged_chain));
  const CheckId fused = chain_check("fused-chain", chain_region(ids, launch_fused_chain));
  const CheckId halfway = chain_check("halfway-pair", chain_region(ids, launch_halfway_pair));
  const CheckId graph = chain_check("staged-chain-graph", graph_region(ids));
  std::map<int, CheckId> wide;
  for (const int width : kWidths) {
    wide.emplace(width, chain_check(cases::fused_wide_short_name(width), wide_region(ids, width)));
  }
  // The lesson's bitwise questions: fused against staged, the exercise against staged, and the
  // width-1 template against the plain fused kernel.
  lab.compare_bitwise(fused, staged);
  lab.compare_bitwise(halfway, staged);
  lab.compare_bitwise(wide.at(1), fused);

  const auto add = [&](CaseSpec case_spec, std::optional<CheckId> verified_by, RegionBuilder region,
                       labrun::AttributesBuilder attributes) {
    lab.add_case(
        CaseDeclaration{std::move(case_spec), verified_by, std::move(region), std::move(attributes)});
  };
  // Part 1: empty kernels. The single-launch row times one launch per sample (its latency); the
  // staged-launches row the staged chain's launches per sample, so that where a sample's launches are
  // queued ahead of the GPU (cold, hot-gated) an empty launch is timed as the chain's are.
  add(labrun::case_spec(cases::kEmptySingleThread, "doNothing, 1 block of 1 thread", floats(0, 0, 1, 0.0),
                        {{"single", 1}}, kLaunchesPerPart1Sample),
      std::nullopt, empty_region(1, 1), single_thread_attributes());
  add(labrun::case_spec(cases::kEmptySingleLaunch, "doNothing, one launch per sample (latency)",
                        floats(0, 0, 1, 0.0), {{"single", 1}}),
      std::nullopt, empty_region(1, 1), single_thread_attributes());
  add(labrun::case_spec(cases::kEmptyStagedLaunches, "doNothing, the staged chain's 4 launches per sample",
                        floats(0, 0, 1, 0.0), {{"single", 1}}, kStagedChainLaunches),
      std::nullopt, empty_region(1, 1), single_thread_attributes());
  add(labrun::case_spec(cases::kEmptyChainGrid, "doNothing, the chain's own grid", floats(0, 0, 1, 0.0),
                        {kLesson}, kLaunchesPerPart1Sample),
      std::nullopt, empty_chain_grid_region(), grid_attributes(0));

  // Part 2, at the lab's sizes. The stages read the intermediates the staged chain primes
  // (LabDeclaration::prime).
  add(labrun::case_spec(cases::kCopyFloor, "copyFloor", floats(1, 1, 1, 0.0)), copy_floor,
      copy_region(ids, launch_copy_floor), grid_attributes(0));
  add(labrun::case_spec(cases::kCopyVectorized, "ceiling: vectorised grid-stride copy", floats(1, 1, 1, 0.0)),
      copy_vectorized, copy_region(ids, launch_copy_vectorized), grid_attributes(0));
  add(labrun::case_spec(cases::kCopyMemcpy, "ceiling: cudaMemcpy device to device", floats(1, 1, 1, 0.0)),
      copy_memcpy, copy_region(ids, launch_copy_memcpy), grid_attributes(0));
  add(labrun::case_spec(cases::kStageScaleBias, "stage 1: applyScaleBias", floats(1, 1, 1, 2.0)), staged,
      chain_region(ids, launch_stage_scale_bias), grid_attributes(0));
  add(labrun::case_spec(cases::kStageGelu, "stage 2: applyGelu", floats(1, 1, 1, 5.0)), staged,
      chain_region(ids, launch_stage_gelu), grid_attributes(0));
  add(labrun::case_spec(cases::kStageAddResidual, "stage 3: applyAddResidual", floats(2, 1, 1, 1.0)), staged,
      chain_region(ids, launch_stage_add_residual), grid_attributes(0));
  add(labrun::case_spec(cases::kStageClampRange, "stage 4: applyClampRange", floats(1, 1, 1, 0.0)), staged,
      chain_region(ids, launch_stage_clamp_range), grid_attributes(0));
  add(labrun::case_spec(cases::kStagedChain, "staged chain, timed as one",
                        floats(5, 4, kStagedChainLaunches, kChainFlops)),
      staged, chain_region(ids, launch_staged_chain), grid_attributes(0));
  add(labrun::case_spec(cases::kFusedChain, "chainFused", floats(2, 1, 1, kChainFlops)), fused,
      chain_region(ids, launch_fused_chain), grid_attributes(0));
  add(labrun::case_spec(cases::kHalfwayPair, "half-way pair (the exercise)", floats(3, 2, 2, kChainFlops)),
      halfway, chain_region(ids, launch_halfway_pair), grid_attributes(0));

  // Part 3: the two chains swept over n.
  add(labrun::case_spec(cases::kSweepStagedChain, "staged chain",
                        floats(5, 4, kStagedChainLaunches, kChainFlops), sweep_sizes()),
      staged, chain_region(ids, launch_staged_chain), grid_attributes(0));
  add(labrun::case_spec(cases::kSweepFusedChain, "chainFused", floats(2, 1, 1, kChainFlops), sweep_sizes()),
      fused, chain_region(ids, launch_fused_chain), grid_attributes(0));

  // Part 4: the fused chain widened; same work and bytes.
  for (const int width : kWidths) {
    add(labrun::case_spec(cases::fused_wide(width), "chainFusedWide<" + std::to_string(width) + ">",
                          floats(2, 1, 1, kChainFlops)),
        wide.at(width), wide_region(ids, width), grid_attributes(width));
  }

  // Part 5: launch cost against bytes. The staged chain replayed as a CUDA graph keeps its four
  // kernels and its 36 B per element but pays the launch overhead once per graph.
  const std::vector<SizeRequest> part5{{"small", kPart5SmallElements}, kLesson};
  add(labrun::case_spec(cases::kLaunchStagedChain, "staged chain, four launches on a stream",
                        floats(5, 4, 4, kChainFlops), part5),
      staged, chain_region(ids, launch_staged_chain), grid_attributes(0));
  add(labrun::case_spec(cases::kLaunchStagedChainGraph, "staged chain, replayed as one CUDA graph",
                        floats(5, 4, 4, kChainFlops), part5),
      graph, graph_region(ids), grid_attributes(0));
  add(labrun::case_spec(cases::kLaunchFusedChain, "chainFused, one launch", floats(2, 1, 1, kChainFlops),
                        part5),
      fused, chain_region(ids, launch_fused_chain), grid_attributes(0));

  // The roofline's compute ceiling (evidence/roofline.hpp): the harness's peak-FMA case.
  labrun::add_peak_fma_case(lab, "roofline");

  // The per-stage cases read the staged chain's intermediates (and the exercise's): keep them real
  // numbers whenever the session opens or the correctness checks have poisoned them.
  lab.prime([ids](RegionContext& ctx, std::uint64_t capacity) -> std::function<void()> {
    const ChainBuffers b = ids.on(ctx);
    const cudaStream_t s = ctx.stream();
    return [b, capacity, s] {
      launch_staged_chain(b, capacity, s);
      launch_halfway_pair(b, capacity, s);
    };
  });
  lab.facts([] { return labrun::compiled_kernel_facts(fused_chain_kernel(), kThreadsPerBlock); });
  return ChainDeclaration{std::move(lab), ids, staged};
}

labrun::LabDeclaration declare_lab() {
  return declare_chain().lab;
}

}  // namespace day48
