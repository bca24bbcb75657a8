#pragma once
// What the harness records about the card, the driver, the build and the host.

#include <cstdint>
#include <string>
#include <vector>

#include "core/transcript.hpp"

namespace labrun {

//! Whether a CUDA device can be used, and if not, why, in words, with the CUDA error.
struct DeviceAvailability {
  bool usable = false;
  int device_count = 0;
  //! "no NVIDIA driver is loaded on this machine (cudaGetDeviceCount: cudaErrorInsufficientDriver: ...)
  //! ...", or the CUDA error as the runtime names it.
  std::string error;
};

//! Asks the CUDA runtime for devices; never throws.
[[nodiscard]] DeviceAvailability probe_devices();

//! What a failed cudaGetDeviceCount means. The runtime says cudaErrorInsufficientDriver both when
//! the driver is older than the runtime and when there is no driver at all; `driver_version`
//! (cudaDriverGetVersion, 0 without a driver) tells the two apart. `runtime_version` as CUDA
//! encodes it (13000 for 13.0).
[[nodiscard]] std::string explain_device_error(const std::string& cuda_error, bool insufficient_driver,
                                               int driver_version, int runtime_version);

//! The CUDA runtime this binary uses and the driver's CUDA version, as "13.0"; the driver as
//! "none (no NVIDIA driver is loaded)" without one. Needs no GPU.
struct CudaVersions {
  std::string runtime;
  std::string driver;
};
[[nodiscard]] CudaVersions read_cuda_versions();

//! Figures about device 0 that the runner needs for sizing, read once.
struct DeviceSizing {
  std::string name;
  std::string pci_bus_id;
  std::uint64_t l2_bytes = 0;
  std::uint64_t free_memory_bytes = 0;
  std::uint64_t total_memory_bytes = 0;
  int sm_count = 0;
  double sm_clock_peak_mhz = 0.0;  //!< cudaDevAttrClockRate; 0 when the device does not say
};
//! Throws CudaError on failure.
[[nodiscard]] DeviceSizing read_device_sizing();

struct CudaCapability {
  int major = 0;
  int minor = 0;
};
//! Compute capability of device 0; throws CudaError.
[[nodiscard]] CudaCapability read_compute_capability();

//! Facts about device 0 ("device"), the driver and runtime ("driver"), this binary ("build") and
//! the host ("host"). Any fact that cannot be read is recorded as unknown with the reason.
[[nodiscard]] std::vector<FactGroup> collect_environment();

//! The `driver` group's fact `cuda_environment`: the CUDA environment variables this process was
//! given, which can change how the driver and runtime queue, launch, load and place work
//! (CUDA_LAUNCH_BLOCKING, CUDA_DEVICE_MAX_CONNECTIONS, CUDA_MODULE_LOADING, CUDA_VISIBLE_DEVICES as
//! labrun narrowed it, ...): every variable named CUDA_* but those that only locate the toolkit or a
//! cache (kCudaLocationVariables), as "NAME=value" sorted by name and joined by "; ", or "none".
//! `environment`: "NAME=value" entries, as `environ` holds them.
[[nodiscard]] Fact cuda_environment_fact(const std::vector<std::string>& environment);
//! The same, of this process's environment now.
[[nodiscard]] Fact cuda_environment_fact();

//! Facts for a build with no usable device (for `labrun plan`/tests): build and host only.
[[nodiscard]] std::vector<FactGroup> collect_build_and_host();

//! "nvidia-h200" from "NVIDIA H200": lower case, runs of other characters become one '-'.
[[nodiscard]] std::string device_slug(const std::string& device_name);

//! Formats a 16-byte CUDA UUID as "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
[[nodiscard]] std::string format_gpu_uuid(const unsigned char (&bytes)[16]);

//! The current SM clock in MHz from NVML, as a fact named `key`.
[[nodiscard]] Fact read_sm_clock_fact(const std::string& key, const std::string& pci_bus_id);

}  // namespace labrun
