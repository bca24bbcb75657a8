#include "device/device_info.hpp"

#include <cuda_runtime_api.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_model.hpp"
#include "core/environment_contract.hpp"
#include "device/build_info.hpp"
#include "device/nvml.hpp"
#include "timing/cuda_check.hpp"

namespace labrun {
namespace {

std::string version_text(int encoded) {
  // CUDA encodes versions as 1000 * major + 10 * minor.
  return std::to_string(encoded / 1000) + "." + std::to_string((encoded % 1000) / 10);
}

Fact attribute_fact(const std::string& key, cudaDeviceAttr attribute, int device) {
  int value = 0;
  const cudaError_t code = cudaDeviceGetAttribute(&value, attribute, device);
  if (code != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return Fact::unknown(key, "cudaDeviceGetAttribute: " + describe_cuda_error(code));
  }
  return Fact::known(key, static_cast<std::int64_t>(value));
}

Fact text_or_unknown(const std::string& key, const char* value, const std::string& reason) {
  if (value == nullptr || *value == '\0') {
    return Fact::unknown(key, reason);
  }
  return Fact::known(key, std::string(value));
}

// The theoretical peak from the memory clock fact just recorded and the bus width.
Fact memory_peak_fact(const std::vector<Fact>& device_facts, int bus_width_bits) {
  const std::string key = "memory_peak_gb_per_s";
  for (const Fact& fact : device_facts) {
    if (fact.key == "memory_clock_khz" && fact.is_known()) {
      const double peak = theoretical_peak_gb_per_s(static_cast<double>(std::get<std::int64_t>(*fact.value)),
                                                    static_cast<double>(bus_width_bits));
      if (peak > 0.0) {
        return Fact::known(key, peak);
      }
      return Fact::unknown(key, "the memory clock or bus width is reported as 0");
    }
  }
  return Fact::unknown(key, "the memory clock is unknown");
}

// The theoretical FP32 peak, for the roofline's dashed ceiling: SMs x FP32 lanes per SM (from the
// compute capability) x 2 flops per fused multiply-add x the peak SM clock.
Fact fp32_peak_fact(const std::vector<Fact>& device_facts, const std::string& compute_capability,
                    int sm_count) {
  const std::string key = "fp32_peak_gflop_per_s";
  const std::optional<int> lanes = fp32_lanes_per_sm(compute_capability);
  if (!lanes) {
    return Fact::unknown(
        key, "FP32 lanes per SM of compute capability " + compute_capability + " are not known to labrun");
  }
  for (const Fact& fact : device_facts) {
    if (fact.key == "sm_clock_peak_khz" && fact.is_known()) {
      const double peak =
          theoretical_peak_gflop_per_s(static_cast<double>(sm_count), static_cast<double>(*lanes),
                                       static_cast<double>(std::get<std::int64_t>(*fact.value)));
      if (peak > 0.0) {
        return Fact::known(key, peak);
      }
      return Fact::unknown(key, "the SM count or peak SM clock is reported as 0");
    }
  }
  return Fact::unknown(key, "the peak SM clock is unknown");
}

FactGroup build_group() {
  FactGroup build{"build", {}};
  build.facts.push_back(Fact::known("labrun_version", std::string(build_info::labrun_version())));
  build.facts.push_back(
      text_or_unknown("nvcc_version", build_info::nvcc_version(), "CMake reported no CUDA compiler version"));
  build.facts.push_back(Fact::known("cuda_flags", std::string(build_info::cuda_flags())));
  build.facts.push_back(text_or_unknown("cuda_architectures", build_info::cuda_architectures(),
                                        "CMAKE_CUDA_ARCHITECTURES was empty"));
  build.facts.push_back(Fact::known("host_compiler", std::string(build_info::host_compiler())));
  build.facts.push_back(
      text_or_unknown("cuda_host_compiler", build_info::cuda_host_compiler(), "CMake reported none"));
  build.facts.push_back(
      text_or_unknown("build_type", build_info::build_type(), "no CMAKE_BUILD_TYPE was set"));
  const build_info::Item commit = build_info::git_commit();
  build.facts.push_back(text_or_unknown("git_commit", commit.value, commit.reason));
  const build_info::Item dirty = build_info::git_dirty();
  if (*dirty.value == '\0') {
    build.facts.push_back(Fact::unknown("git_dirty", dirty.reason));
  } else {
    build.facts.push_back(Fact::known("git_dirty", std::string(dirty.value) == "true"));
  }
  build.facts.push_back(text_or_unknown("git_source", build_info::git_source(), "no git state was recorded"));
  return build;
}

FactGroup host_group() {
  FactGroup host{"host", {}};
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) {
    host.facts.push_back(Fact::known("hostname", std::string(name)));
  } else {
    host.facts.push_back(Fact::unknown("hostname", "gethostname failed"));
  }
  utsname system{};
  if (uname(&system) == 0) {
    host.facts.push_back(Fact::known(
        "operating_system", std::string(system.sysname) + " " + system.release + " " + system.machine));
  } else {
    host.facts.push_back(Fact::unknown("operating_system", "uname failed"));
  }
  return host;
}

}  // namespace

std::string explain_device_error(const std::string& cuda_error, bool insufficient_driver, int driver_version,
                                 int runtime_version) {
  if (!insufficient_driver) {
    return cuda_error;
  }
  if (driver_version == 0) {
    return "no NVIDIA driver is loaded on this machine (" + cuda_error +
           "; the CUDA runtime says this when there is no driver at all). Install the NVIDIA driver for the "
           "GPU (`nvidia-smi` lists it once it works); list, plan, report, plot, validate, compare and "
           "aggregate need no GPU";
  }
  return "the NVIDIA driver supports CUDA " + version_text(driver_version) +
         ", older than this build's CUDA " + "runtime " + version_text(runtime_version) + " (" + cuda_error +
         "): update the driver";
}

CudaVersions read_cuda_versions() {
  CudaVersions versions;
  int version = 0;
  if (cudaRuntimeGetVersion(&version) == cudaSuccess) {
    versions.runtime = version_text(version);
  } else {
    static_cast<void>(cudaGetLastError());
    versions.runtime = "unknown (cudaRuntimeGetVersion failed)";
  }
  version = 0;
  if (cudaDriverGetVersion(&version) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    versions.driver = "unknown (cudaDriverGetVersion failed)";
  } else {
    versions.driver = version > 0 ? version_text(version) : "none (no NVIDIA driver is loaded)";
  }
  return versions;
}

DeviceAvailability probe_devices() {
  DeviceAvailability availability;
  const cudaError_t code = cudaGetDeviceCount(&availability.device_count);
  if (code != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    availability.device_count = 0;
    int driver = 0;
    int runtime = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) {
      driver = -1;  // unknown: say only what the runtime said
    }
    static_cast<void>(cudaRuntimeGetVersion(&runtime));
    static_cast<void>(cudaGetLastError());
    availability.error = explain_device_error(
        describe_cuda_error(code), code == cudaErrorInsufficientDriver && driver >= 0, driver, runtime);
    return availability;
  }
  if (availability.device_count == 0) {
    availability.error = "cudaGetDeviceCount reported 0 devices";
    return availability;
  }
  availability.usable = true;
  return availability;
}

CudaCapability read_compute_capability() {
  CudaCapability capability;
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&capability.major, cudaDevAttrComputeCapabilityMajor, 0));
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&capability.minor, cudaDevAttrComputeCapabilityMinor, 0));
  return capability;
}

DeviceSizing read_device_sizing() {
  DeviceSizing sizing;
  cudaDeviceProp properties{};
  LABRUN_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  sizing.name = properties.name;
  sizing.l2_bytes = static_cast<std::uint64_t>(properties.l2CacheSize);
  char bus_id[32] = {};
  LABRUN_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 0));
  sizing.pci_bus_id = bus_id;
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  LABRUN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  sizing.free_memory_bytes = free_bytes;
  sizing.total_memory_bytes = total_bytes;
  sizing.sm_count = properties.multiProcessorCount;
  int clock_khz = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0) == cudaSuccess) {
    sizing.sm_clock_peak_mhz = clock_khz / 1000.0;
  } else {
    static_cast<void>(cudaGetLastError());
  }
  return sizing;
}

std::string format_gpu_uuid(const unsigned char (&bytes)[16]) {
  std::string text = "GPU-";
  char pair[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) {
      text += '-';
    }
    std::snprintf(pair, sizeof pair, "%02x", bytes[i]);
    text += pair;
  }
  return text;
}

std::string device_slug(const std::string& device_name) {
  std::string slug;
  bool pending_dash = false;
  for (const char c : device_name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) {
      if (pending_dash && !slug.empty()) {
        slug += '-';
      }
      pending_dash = false;
      slug += static_cast<char>(std::tolower(u));
    } else {
      pending_dash = true;
    }
  }
  return slug.empty() ? "unknown-device" : slug;
}

Fact read_sm_clock_fact(const std::string& key, const std::string& pci_bus_id) {
  const Nvml nvml;
  const NvmlRead<unsigned> clock = nvml.sm_clock_mhz(pci_bus_id);
  if (!clock.ok) {
    return Fact::unknown(key, clock.reason);
  }
  return Fact::known(key, static_cast<std::int64_t>(clock.value));
}

namespace {

// CUDA_* variables that only say where the toolkit or a cache lies: they change no measurement.
constexpr std::array<std::string_view, 5> kCudaLocationVariables{"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT",
                                                                 "CUDA_TOOLKIT_ROOT_DIR", "CUDA_CACHE_PATH"};

}  // namespace

Fact cuda_environment_fact(const std::vector<std::string>& environment) {
  std::vector<std::string> set;
  for (const std::string& entry : environment) {
    const std::size_t equals = entry.find('=');
    if (entry.rfind("CUDA_", 0) != 0 || equals == std::string::npos) {
      continue;
    }
    const std::string_view name(entry.data(), equals);
    if (std::find(kCudaLocationVariables.begin(), kCudaLocationVariables.end(), name) ==
        kCudaLocationVariables.end()) {
      set.push_back(entry);
    }
  }
  std::sort(set.begin(), set.end());
  std::string joined;
  for (const std::string& entry : set) {
    joined += (joined.empty() ? "" : "; ") + entry;
  }
  return Fact::known("cuda_environment", set.empty() ? std::string("none") : joined);
}

Fact cuda_environment_fact() {
  std::vector<std::string> environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    environment.emplace_back(*entry);
  }
  return cuda_environment_fact(environment);
}

std::vector<FactGroup> collect_build_and_host() {
  return {build_group(), host_group()};
}

std::vector<FactGroup> collect_environment() {
  FactGroup device{"device", {}};
  FactGroup driver{"driver", {}};
  const int index = 0;
  cudaDeviceProp properties{};
  const cudaError_t code = cudaGetDeviceProperties(&properties, index);
  if (code != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    const std::string reason = "cudaGetDeviceProperties: " + describe_cuda_error(code);
    for (const std::string& key : required_facts_of(device.name)) {
      device.facts.push_back(Fact::unknown(key, reason));
    }
  } else {
    device.facts.push_back(Fact::known("name", std::string(properties.name)));
    device.facts.push_back(Fact::known(
        "uuid", format_gpu_uuid(reinterpret_cast<const unsigned char(&)[16]>(properties.uuid.bytes))));
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) == cudaSuccess) {
      device.facts.push_back(Fact::known("pci_bus_id", std::string(bus_id)));
    } else {
      static_cast<void>(cudaGetLastError());
      device.facts.push_back(Fact::unknown("pci_bus_id", "cudaDeviceGetPCIBusId failed"));
    }
    device.facts.push_back(Fact::known(
        "compute_capability", std::to_string(properties.major) + "." + std::to_string(properties.minor)));
    device.facts.push_back(
        Fact::known("sm_count", static_cast<std::int64_t>(properties.multiProcessorCount)));
    device.facts.push_back(Fact::known("l2_bytes", static_cast<std::int64_t>(properties.l2CacheSize)));
    device.facts.push_back(Fact::known("memory_bytes", static_cast<std::int64_t>(properties.totalGlobalMem)));
    device.facts.push_back(
        Fact::known("memory_bus_width_bits", static_cast<std::int64_t>(properties.memoryBusWidth)));
    device.facts.push_back(attribute_fact("memory_clock_khz", cudaDevAttrMemoryClockRate, index));
    device.facts.push_back(attribute_fact("sm_clock_peak_khz", cudaDevAttrClockRate, index));
    device.facts.push_back(memory_peak_fact(device.facts, properties.memoryBusWidth));
    device.facts.push_back(fp32_peak_fact(
        device.facts, std::to_string(properties.major) + "." + std::to_string(properties.minor),
        properties.multiProcessorCount));
    device.facts.push_back(
        Fact::known("max_threads_per_sm", static_cast<std::int64_t>(properties.maxThreadsPerMultiProcessor)));
    device.facts.push_back(Fact::known("ecc_enabled", properties.ECCEnabled != 0));
  }

  const Nvml nvml;
  const NvmlRead<std::string> driver_version = nvml.driver_version();
  driver.facts.push_back(driver_version.ok ? Fact::known("driver_version", driver_version.value)
                                           : Fact::unknown("driver_version", driver_version.reason));
  int version = 0;
  if (cudaDriverGetVersion(&version) == cudaSuccess && version > 0) {
    driver.facts.push_back(Fact::known("cuda_driver_api_version", version_text(version)));
  } else {
    static_cast<void>(cudaGetLastError());
    driver.facts.push_back(Fact::unknown("cuda_driver_api_version", "cudaDriverGetVersion failed or gave 0"));
  }
  if (cudaRuntimeGetVersion(&version) == cudaSuccess) {
    driver.facts.push_back(Fact::known("cuda_runtime_version", version_text(version)));
  } else {
    static_cast<void>(cudaGetLastError());
    driver.facts.push_back(Fact::unknown("cuda_runtime_version", "cudaRuntimeGetVersion failed"));
  }
  driver.facts.push_back(cuda_environment_fact());
  return {device, driver, build_group(), host_group()};
}

}  // namespace labrun
