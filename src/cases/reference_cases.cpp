#include "cases/reference_cases.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cases/reference_kernels.hpp"

namespace labrun {

double peak_fma_reference(std::uint64_t i) {
  double sum = 0.0;
  for (int chain = 0; chain < kPeakFmaChains; ++chain) {
    double x = peak_fma_start(i, chain);
    for (int step = 0; step < kPeakFmaSteps; ++step) {
      x = x * static_cast<double>(kPeakFmaScale) + static_cast<double>(kPeakFmaOffset);
    }
    sum += x;
  }
  return sum;
}

namespace {

// An element's chains start from i % 1024 alone, so 1024 values are every element's reference.
std::vector<double> peak_fma_references(std::uint64_t n) {
  std::vector<double> period(1024);
  for (std::size_t i = 0; i < period.size(); ++i) {
    period[i] = peak_fma_reference(i);
  }
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    expected[i] = period[i % period.size()];
  }
  return expected;
}

using CopyLauncher = void (*)(const float*, float*, std::size_t, cudaStream_t);

struct CopyVersion {
  std::string name;
  const char* version;
  const char* label;
  CopyLauncher launch;
};

}  // namespace

std::string add_peak_fma_case(LabDeclaration& lab, const std::string& part) {
  const BufferId out = lab.output("peak-fma-out", [] { return static_cast<std::size_t>(kPeakFmaElements); });
  // A check runs at the lab's correctness size, a smoke run at fewer: never more than the output holds.
  const auto elements = [](std::uint64_t n) { return std::min<std::uint64_t>(n, kPeakFmaElements); };
  const RegionBuilder region = [out, elements](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    float* target = ctx[out];
    const std::size_t count = elements(n);
    const cudaStream_t stream = ctx.stream();
    return [target, count, stream] { launch_peak_fma(target, count, stream); };
  };
  const CheckId check =
      lab.check(CheckDeclaration{"peak-fma", region, out,
                                 [elements](const HostInputs& /*inputs: it reads none*/, std::uint64_t n) {
                                   return peak_fma_references(elements(n));
                                 },
                                 Tolerance{0.0, 1e-4}});
  std::string name = case_name(lab.lab_name(), part, "peak-fma");
  lab.add_case(CaseDeclaration{
      case_spec(name,
                "peak FMA: " + std::to_string(kPeakFmaChains) + " chains of " +
                    std::to_string(kPeakFmaSteps) + " fused multiply-adds per thread",
                with_flops(ByteModel{0.0, 4.0, 1}, kPeakFmaFlopsPerElement), {{"fixed", kPeakFmaElements}}),
      check, region, [](std::uint64_t /*n*/) {
        const KernelResources resources = kernel_resources(peak_fma_kernel(), 256);
        return std::map<std::string, double>{{"threads_per_block", 256},
                                             {"registers", resources.registers},
                                             {"blocks_per_sm", resources.blocks_per_sm}};
      }});
  return name;
}

CopyCases add_copy_cases(LabDeclaration& lab, const std::string& part, BufferId from, BufferId to,
                         const std::vector<SizeRequest>& sizes) {
  const auto exact_copy = [from](const HostInputs& inputs, std::uint64_t /*n*/) {
    return std::vector<double>(inputs[from].begin(), inputs[from].end());
  };
  CopyCases names{case_name(lab.lab_name(), part, "copy"), case_name(lab.lab_name(), part, "copy-memcpy")};
  const ByteModel copy_model = with_flops(ByteModel{4.0, 4.0, 1}, 0.0);
  const CopyVersion versions[] = {
      {names.copy, "copy", "copy, one element per thread", launch_copy},
      {names.memcpy, "copy-memcpy", "copy: cudaMemcpy device to device", launch_copy_memcpy}};
  for (const CopyVersion& copy : versions) {
    const RegionBuilder region = linear_region(copy.launch, from, to);
    const CheckId check =
        lab.check(CheckDeclaration{copy.version, region, to, exact_copy, Tolerance{0.0, 0.0}});
    lab.add_case(CaseDeclaration{case_spec(copy.name, copy.label, copy_model, sizes), check, region, {}});
  }
  return names;
}

std::string add_launch_cost_case(LabDeclaration& lab, const std::string& part, int launches_per_sample) {
  std::string name = case_name(lab.lab_name(), part, "empty-launch");
  const RegionBuilder region = [](RegionContext& ctx, std::uint64_t /*n*/) -> std::function<void()> {
    const cudaStream_t stream = ctx.stream();
    return [stream] { launch_empty(stream); };
  };
  lab.add_case(CaseDeclaration{
      case_spec(name, "empty kernel, 1 block of 1 thread", with_flops(ByteModel{0.0, 0.0, 1}, 0.0),
                {{"single", 1}}, launches_per_sample),
      std::nullopt,
      region,
      {}});
  return name;
}

CardCases add_card_cases(LabDeclaration& lab, const std::string& part, BufferId from) {
  if (lab.sizes().empty()) {
    throw std::invalid_argument(lab.lab_name() + " declares its card cases before its sizes");
  }
  std::vector<SizeRequest> linear;
  for (const SizeRequest& size : lab.sizes()) {
    linear.push_back(SizeRequest{size.label, size.elements});
  }
  const BufferId copy_out = lab.output("copy-out");
  CardCases card;
  card.copies = add_copy_cases(lab, part, from, copy_out, linear);
  card.peak_fma = add_peak_fma_case(lab, part);
  card.empty_launch = add_launch_cost_case(lab, part);
  lab.roofline() = RooflineCases{{card.copies.copy, card.copies.memcpy}, card.peak_fma};
  lab.card_figures().copy_floor_case = card.copies.copy;
  lab.card_figures().ceiling_cases = {card.copies.memcpy};
  lab.card_figures().launch_case = card.empty_launch;
  return card;
}

}  // namespace labrun
