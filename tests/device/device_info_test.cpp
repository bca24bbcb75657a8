#include "device/device_info.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "core/environment_contract.hpp"
#include "support/scoped_environment.hpp"

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

TEST_CASE("a run records the CUDA environment variables it was given, not where the toolkit lies") {
  const labrun::Fact fact =
      labrun::cuda_environment_fact({"PATH=/usr/bin", "CUDA_LAUNCH_BLOCKING=1", "CUDA_HOME=/usr/local/cuda",
                                     "CUDA_DEVICE_MAX_CONNECTIONS=1", "CUDA_VISIBLE_DEVICES=0",
                                     "NOT_CUDA_X=1", "CUDA_CACHE_PATH=/tmp/cache", "CUDA_NO_EQUALS"});
  CHECK(fact.key == "cuda_environment");
  REQUIRE(fact.value.has_value());
  CHECK(std::get<std::string>(*fact.value) ==
        "CUDA_DEVICE_MAX_CONNECTIONS=1; CUDA_LAUNCH_BLOCKING=1; CUDA_VISIBLE_DEVICES=0");
  CHECK(std::get<std::string>(
            *labrun::cuda_environment_fact(std::vector<std::string>{"PATH=/usr/bin"}).value) == "none");
  // A run's collected environment reads the process's own.
  const std::vector<labrun::FactGroup> environment = [] {
    const labrun::testing::ScopedEnvironment connections("CUDA_DEVICE_MAX_CONNECTIONS", "3");
    return labrun::collect_environment();
  }();
  const auto driver = std::find_if(environment.begin(), environment.end(),
                                   [](const labrun::FactGroup& g) { return g.name == "driver"; });
  REQUIRE(driver != environment.end());
  const labrun::Fact* recorded = driver->find("cuda_environment");
  REQUIRE(recorded != nullptr);
  CHECK_THAT(std::get<std::string>(*recorded->value), ContainsSubstring("CUDA_DEVICE_MAX_CONNECTIONS=3"));
}
