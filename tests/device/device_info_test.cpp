#include "device/device_info.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/environment_contract.hpp"

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

TEST_CASE("no driver at all is told apart from a driver that is too old") {
  const std::string error =
      "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version";
  const std::string none = labrun::explain_device_error(error, true, 0, 13000);
  CHECK_THAT(none, StartsWith("no NVIDIA driver is loaded on this machine (" + error));
  CHECK_THAT(none, ContainsSubstring("nvidia-smi"));
  CHECK(none.find("update") == std::string::npos);
  const std::string old = labrun::explain_device_error(error, true, 12040, 13000);
  CHECK_THAT(old,
             StartsWith("the NVIDIA driver supports CUDA 12.4, older than this build's CUDA runtime 13.0"));
  CHECK_THAT(old, ContainsSubstring("update the driver"));
  CHECK(labrun::explain_device_error("cudaErrorNoDevice: no CUDA-capable device is detected", false, 13000,
                                     13000) == "cudaErrorNoDevice: no CUDA-capable device is detected");
}

TEST_CASE("CUDA versions are read without a GPU") {
  const labrun::CudaVersions versions = labrun::read_cuda_versions();
  CHECK_THAT(versions.runtime, ContainsSubstring("."));
  CHECK_FALSE(versions.driver.empty());
}

TEST_CASE("the environment a run collects meets the 1.4.0 contract, with or without a device") {
  // The runner adds the lab's facts and the run's clocks (runner.cpp); the rest is collected here.
  std::vector<labrun::FactGroup> environment = labrun::collect_environment();
  environment.push_back({"lab", {}});
  environment.push_back({"run",
                         {labrun::read_sm_clock_fact("sm_clock_mhz_start", "0000:00:00.0"),
                          labrun::read_sm_clock_fact("sm_clock_mhz_end", "0000:00:00.0")}});
  CHECK(labrun::missing_from_contract(environment).empty());
  const labrun::FactGroup& host = environment.at(3);
  REQUIRE(host.name == "host");
  CHECK(host.find("hostname")->is_known());
}
