// Day 34, as the day-48 lesson recalls it: "a shared-memory tile that cut global reads per cell from
// five to 1.328 and made the kernel slower, because the reads it removed were cache hits and not
// DRAM traffic". A 5-point stencil, naive and tiled (kernels.cu): both move the same 8 B a cell
// through DRAM, so the byte model predicts no gain from the tile, whatever it does to the loads.

#include <cstddef>
#include <string>
#include <vector>

#include "cases/declared_lab.hpp"
#include "cases/reference_cases.hpp"
#include "registry/lab.hpp"

namespace day34 {

// kernels.cu
void launch_naive(const float* in, float* out, std::size_t width, std::size_t height, cudaStream_t stream);
void launch_tiled(const float* in, float* out, std::size_t width, std::size_t height, cudaStream_t stream);
const void* naive_kernel();
const void* tiled_kernel();
// reference.cpp
std::vector<double> stencil_reference(const std::vector<float>& grid, std::size_t width, std::size_t height);

namespace {

const std::string kLab = "day34-stencil-tile";
const std::string kNaive = labrun::case_name(kLab, "stencil", "naive");
const std::string kTiled = labrun::case_name(kLab, "stencil", "tiled");
constexpr int kThreadsPerBlock = 256;  // 32 x 8

// Per cell: a float read from DRAM (the neighbours' reads hit the caches), a float written, and
// kernels.cu's 6 flops. The same for both: the tile changes where the reads are served, not DRAM.
const labrun::ByteModel kStencilModel = labrun::with_flops({4.0, 4.0, 1}, 6.0);

labrun::CaseFigure global_loads(double per_cell, const std::string& counted) {
  return labrun::declared_figure("global loads", "per cell", per_cell, "counted from kernels.cu: " + counted);
}

}  // namespace

labrun::Lab make_lab() {
  labrun::LabDeclaration declaration(kLab);
  // Odd by odd, and neither a multiple of the 32 x 8 block: every guard and clamped edge is exercised.
  declaration.correctness_image({1001, 999});
  // 2048 x 2048 floats in and out (32 MiB) fit in an H200's 60 MB L2; the card-scaled image is 8 x L2.
  declaration.sizes({labrun::image_size("l2-resident", 2048, 2048), labrun::card_scaled_image()});
  const labrun::BufferId grid = declaration.input("grid", 1, 0.0f, 1.0f);
  const labrun::BufferId out = declaration.output("smoothed");
  const auto reference = labrun::image_reference(stencil_reference, grid);
  const labrun::Tolerance tolerance{1e-6, 1e-6};  // five terms in [0, 1]: a few float32 roundings
  const labrun::CaseFigure rate = labrun::rate_figure("cells", "10^9/s");
  const labrun::CheckId naive = declaration.add_checked_case(
      labrun::case_spec(kNaive, "naive: five global loads a cell", kStencilModel),
      {"naive", labrun::image_region(launch_naive, grid, out), out, reference, tolerance, "stencil"},
      labrun::kernel_attributes(naive_kernel(), kThreadsPerBlock),
      {global_loads(5.0, "the cell and its four neighbours"), rate});
  const labrun::CheckId tiled = declaration.add_checked_case(
      labrun::case_spec(kTiled, "tiled: a 34 x 10 shared-memory tile per 32 x 8 block", kStencilModel),
      {"tiled", labrun::image_region(launch_tiled, grid, out), out, reference, tolerance, "stencil"},
      labrun::kernel_attributes(tiled_kernel(), kThreadsPerBlock),
      {global_loads(340.0 / 256.0, "a 34 x 10 tile, halo and corners, for 32 x 8 cells"), rate});
  declaration.compare_bitwise(tiled, naive);
  labrun::add_card_cases(declaration, "card", grid);
  declaration.facts([] { return labrun::compiled_kernel_facts(tiled_kernel(), kThreadsPerBlock); });
  labrun::Lab lab = labrun::declared(declaration);
  lab.title = "Day 34: a shared-memory tile that cuts loads, not time";
  lab.summary = "A 5-point stencil, naive and tiled: 5 against 1.33 global loads a cell, the same DRAM bytes";
  lab.predictions = {{"naive over tiled", kNaive, kTiled}};
  lab.stability_case = kTiled;
  lab.claims = {
      labrun::time_ratio_claim("tile-is-not-faster",
                               "At every size, cutting global loads from 5 to 1.33 a cell does not make the "
                               "stencil faster: naive over tiled is at most 1.05",
                               kNaive, kTiled, labrun::kEverySize, labrun::at_most(1.05)),
      labrun::bitwise_equal_claim("tile-changes-no-bit", "The tiled and naive stencils agree bit for bit",
                                  "tiled", "naive", false),
  };
  return lab;
}

}  // namespace day34
