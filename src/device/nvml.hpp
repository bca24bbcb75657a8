#pragma once
// NVML reached through dlopen("libnvidia-ml.so.1"): no NVML header or link-time dependency, so
// the harness starts on machines without a driver. Every read reports why it failed.

#include <string>

namespace labrun {

//! A value read from NVML, or the reason it could not be read.
template <typename T>
struct NvmlRead {
  bool ok = false;
  T value{};
  std::string reason;
};

class Nvml {
 public:
  //! Loads the library and initialises NVML; failures are kept, not thrown.
  Nvml();
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  [[nodiscard]] bool available() const { return initialised_; }
  [[nodiscard]] const std::string& unavailable_reason() const { return reason_; }

  //! The display driver's version string, "580.95.05".
  [[nodiscard]] NvmlRead<std::string> driver_version() const;
  //! Current SM clock in MHz of the device at this PCI bus id ("0000:18:00.0").
  [[nodiscard]] NvmlRead<unsigned> sm_clock_mhz(const std::string& pci_bus_id) const;

 private:
  void* library_ = nullptr;
  bool initialised_ = false;
  std::string reason_;
};

}  // namespace labrun
