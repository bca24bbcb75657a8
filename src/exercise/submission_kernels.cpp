#include "exercise/submission_kernels.hpp"

#include <algorithm>
#include <utility>

#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

// Every kernel's name in the library, for telling a student what was found instead.
std::vector<std::string> kernel_names_in(cudaLibrary_t library) {
  std::vector<std::string> names;
  unsigned count = 0;
  if (cudaLibraryGetKernelCount(&count, library) != cudaSuccess || count == 0) {
    static_cast<void>(cudaGetLastError());
    return names;
  }
  std::vector<cudaKernel_t> kernels(count);
  if (cudaLibraryEnumerateKernels(kernels.data(), count, library) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return names;
  }
  for (cudaKernel_t kernel : kernels) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(kernel)) == cudaSuccess && name != nullptr) {
      names.emplace_back(name);
    }
  }
  static_cast<void>(cudaGetLastError());
  return names;
}

// A found kernel's parameter sizes (cudaFuncGetParamInfo) and resources.
KernelInfo describe_kernel(cudaKernel_t kernel, const std::string& name) {
  KernelInfo info;
  info.name = name;
  info.found = true;
  const void* function = reinterpret_cast<const void*>(kernel);
  for (std::size_t index = 0; index < 16; ++index) {
    std::size_t offset = 0;
    std::size_t bytes = 0;
    if (cudaFuncGetParamInfo(function, index, &offset, &bytes) != cudaSuccess) {
      static_cast<void>(cudaGetLastError());  // past the last parameter: not an error of the run
      break;
    }
    info.parameter_bytes.push_back(bytes);
  }
  cudaFuncAttributes attributes{};
  LABRUN_CUDA_CHECK(cudaFuncGetAttributes(&attributes, function));
  info.registers = attributes.numRegs;
  info.local_bytes = attributes.localSizeBytes;
  info.max_threads_per_block = attributes.maxThreadsPerBlock;
  return info;
}

}  // namespace

namespace {

// "8, 8, 4" ("no" for none); with `collapse`, one size when all are equal ("8" for three pointers).
std::string describe_sizes(const std::vector<std::uint64_t>& sizes, bool collapse) {
  if (sizes.empty()) {
    return "no";
  }
  if (collapse &&
      std::all_of(sizes.begin(), sizes.end(), [&](std::uint64_t b) { return b == sizes.front(); })) {
    return std::to_string(sizes.front());
  }
  std::string text;
  for (const std::uint64_t b : sizes) {
    text += (text.empty() ? "" : ", ") + std::to_string(b);
  }
  return text;
}

}  // namespace

LoadedKernels load_submission_kernels(const std::string& image, const std::vector<ContractKernel>& contract) {
  LoadedKernels loaded;
  const cudaError_t status =
      cudaLibraryLoadData(&loaded.library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (status != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    loaded.library = nullptr;
    loaded.problem_kind = "load";
    loaded.problem = "the compiled submission could not be loaded: " + describe_cuda_error(status);
    return loaded;
  }
  std::string missing;
  std::string signature;
  for (const ContractKernel& wanted : contract) {
    const std::string& name = wanted.name;
    cudaKernel_t kernel = nullptr;
    if (cudaLibraryGetKernel(&kernel, loaded.library, name.c_str()) != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      loaded.kernels.push_back({name, false, {}, 0, 0, 0, ""});
      loaded.handles.push_back(nullptr);
      missing += (missing.empty() ? "" : " and ") + name;
      continue;
    }
    KernelInfo info = describe_kernel(kernel, name);
    std::vector<std::uint64_t> wanted_bytes;
    wanted_bytes.reserve(wanted.parameters.size());
    for (const ContractParameter& parameter : wanted.parameters) {
      wanted_bytes.push_back(parameter.bytes);
    }
    if (info.parameter_bytes != wanted_bytes) {
      signature +=
          (signature.empty() ? "" : "; ") + name + " takes " + std::to_string(info.parameter_bytes.size()) +
          " parameters of " + describe_sizes(info.parameter_bytes, false) + " bytes, the contract " +
          std::to_string(wanted_bytes.size()) + " of " + describe_sizes(wanted_bytes, true) + " bytes";
    }
    loaded.kernels.push_back(info);
    loaded.handles.push_back(kernel);
  }
  if (!missing.empty()) {
    loaded.kernels_found = kernel_names_in(loaded.library);
    loaded.problem_kind = "kernel-missing";
    loaded.problem = "the submission defines no extern \"C\" __global__ kernel named " + missing;
  } else if (!signature.empty()) {
    loaded.problem_kind = "wrong-signature";
    loaded.problem = signature;
  }
  return loaded;
}

LaunchPlan plan_kernel_launch(cudaKernel_t kernel, const ContractKernel& contract, const LaunchShape& shape,
                              std::uint64_t n, int sm_count, std::optional<Shape> image) {
  cudaFuncAttributes attributes{};
  LABRUN_CUDA_CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)));
  if (contract.one_block) {
    return plan_one_block(shape, attributes.maxThreadsPerBlock);
  }
  if (contract.image) {
    const std::optional<Shape> extent = image ? image : power_of_two_image(n);
    if (!extent) {
      LaunchPlan plan;
      plan.problem = "no image of " + std::to_string(n) + " pixels to cover";
      return plan;
    }
    return plan_image_launch(shape, extent->width, extent->height, attributes.maxThreadsPerBlock);
  }
  int per_sm = 0;
  if (shape.threads_per_block <= attributes.maxThreadsPerBlock) {
    LABRUN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, reinterpret_cast<const void*>(kernel), shape.threads_per_block, 0));
  }
  return plan_launch(shape, n, attributes.maxThreadsPerBlock,
                     static_cast<std::uint64_t>(per_sm) * static_cast<std::uint64_t>(sm_count));
}

}  // namespace labrun
