#include "device/nvml.hpp"

#include <dlfcn.h>

namespace labrun {
namespace {

// The few NVML entry points used, declared by their documented C signatures.
using NvmlReturn = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = void*;
using InitFn = NvmlReturn (*)();
using ShutdownFn = NvmlReturn (*)();
using ErrorStringFn = const char* (*)(NvmlReturn);
using DriverVersionFn = NvmlReturn (*)(char*, unsigned);
using HandleByPciFn = NvmlReturn (*)(const char*, NvmlDevice*);
using ClockInfoFn = NvmlReturn (*)(NvmlDevice, int, unsigned*);
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM

template <typename Fn>
Fn symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

std::string nvml_error(void* library, NvmlReturn code) {
  auto error_string = symbol<ErrorStringFn>(library, "nvmlErrorString");
  std::string text = "NVML error " + std::to_string(code);
  if (error_string != nullptr) {
    text += " (" + std::string(error_string(code)) + ")";
  }
  return text;
}

}  // namespace

Nvml::Nvml() {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    const char* error = dlerror();
    reason_ = std::string("libnvidia-ml.so.1 not loadable: ") + (error != nullptr ? error : "?");
    return;
  }
  auto init = symbol<InitFn>(library_, "nvmlInit_v2");
  if (init == nullptr) {
    reason_ = "libnvidia-ml.so.1 has no nvmlInit_v2";
    return;
  }
  const NvmlReturn code = init();
  if (code != 0) {
    reason_ = "nvmlInit_v2 failed: " + nvml_error(library_, code);
    return;
  }
  initialised_ = true;
}

Nvml::~Nvml() {
  if (initialised_) {
    if (auto shutdown = symbol<ShutdownFn>(library_, "nvmlShutdown")) {
      static_cast<void>(shutdown());
    }
  }
  if (library_ != nullptr) {
    dlclose(library_);
  }
}

NvmlRead<std::string> Nvml::driver_version() const {
  NvmlRead<std::string> read;
  if (!initialised_) {
    read.reason = reason_;
    return read;
  }
  auto get = symbol<DriverVersionFn>(library_, "nvmlSystemGetDriverVersion");
  if (get == nullptr) {
    read.reason = "NVML has no nvmlSystemGetDriverVersion";
    return read;
  }
  char text[96] = {};
  const NvmlReturn code = get(text, sizeof text);
  if (code != 0) {
    read.reason = "nvmlSystemGetDriverVersion failed: " + nvml_error(library_, code);
    return read;
  }
  read.ok = true;
  read.value = text;
  return read;
}

NvmlRead<unsigned> Nvml::sm_clock_mhz(const std::string& pci_bus_id) const {
  NvmlRead<unsigned> read;
  if (!initialised_) {
    read.reason = reason_;
    return read;
  }
  auto handle_by_pci = symbol<HandleByPciFn>(library_, "nvmlDeviceGetHandleByPciBusId_v2");
  auto clock_info = symbol<ClockInfoFn>(library_, "nvmlDeviceGetClockInfo");
  if (handle_by_pci == nullptr || clock_info == nullptr) {
    read.reason = "NVML lacks nvmlDeviceGetHandleByPciBusId_v2 or nvmlDeviceGetClockInfo";
    return read;
  }
  NvmlDevice device = nullptr;
  NvmlReturn code = handle_by_pci(pci_bus_id.c_str(), &device);
  if (code != 0) {
    read.reason = "no NVML device at " + pci_bus_id + ": " + nvml_error(library_, code);
    return read;
  }
  unsigned mhz = 0;
  code = clock_info(device, kNvmlClockSm, &mhz);
  if (code != 0) {
    read.reason = "nvmlDeviceGetClockInfo failed: " + nvml_error(library_, code);
    return read;
  }
  read.ok = true;
  read.value = mhz;
  return read;
}

}  // namespace labrun
