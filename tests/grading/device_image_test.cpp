#include "grading/device_image.hpp"

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstring>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "process/process.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// The cubin nvcc makes of `source` for sm_75.
std::string cubin_of(const std::string& source) {
  std::string pattern = (fs::temp_directory_path() / "labrun-device-image-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const fs::path folder = pattern;
  labrun::write_file_atomically(folder / "image.cu", source, false);
  labrun::SpawnOptions options;
  options.argv = {LABRUN_NVCC_PATH, "-cubin", "-arch=sm_75", "-o", "image.cubin", "image.cu"};
  options.working_directory = folder;
  options.limit_seconds = 120.0;
  const labrun::ProcessResult compiled = labrun::run_contained(options);
  INFO(compiled.output);
  REQUIRE(compiled.succeeded());
  std::string image = labrun::read_regular_file(folder / "image.cubin", labrun::kDeviceImageMaxBytes);
  fs::remove_all(folder);
  return image;
}

labrun::DeviceImageFootprint footprint_of(const std::string& image) {
  std::string problem;
  const auto footprint = labrun::device_image_footprint(image, problem);
  INFO(problem);
  REQUIRE(footprint.has_value());
  return *footprint;
}

}  // namespace

TEST_CASE("an image's global variables are counted, however large the compiler says its sections are") {
  const std::string plain = cubin_of("extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n");
  CHECK(footprint_of(plain).global_bytes < 4096);
  const std::string variables = cubin_of(
      "__device__ float table[1 << 20];\n"
      "__device__ float init[4] = {1, 2, 3, 4};\n"
      "__managed__ int shared_with_host[1024];\n"
      "extern \"C\" __global__ void k(float* x) { x[0] = table[threadIdx.x] + init[0] + shared_with_host[2]; "
      "}\n");
  const auto counted = footprint_of(variables);
  CHECK(counted.global_bytes >= (std::uint64_t{1} << 22) + 16 + 4096);
  CHECK(counted.global_bytes < (std::uint64_t{1} << 22) + 65536);
  // 64 GiB: the section's recorded size is cut to 32 bits, the variable's is not.
  const std::string hoard = cubin_of(
      "__device__ float hoard[1ull << 34];\n"
      "extern \"C\" __global__ void k(float* x) { x[0] = hoard[threadIdx.x]; }\n");
  CHECK(footprint_of(hoard).global_bytes >= std::uint64_t{64} << 30);
  CHECK(footprint_of(hoard).global_bytes > labrun::kStaticDeviceMemoryMaxBytes);
  const std::string constants = cubin_of(
      "__constant__ float bank[4096];\n"
      "extern \"C\" __global__ void k(float* x) { x[0] = bank[threadIdx.x]; }\n");
  CHECK(footprint_of(constants).constant_bytes >= 16384);
}

TEST_CASE("bytes that are not a readable ELF image are refused, never followed outside the file") {
  std::string problem;
  CHECK_FALSE(labrun::device_image_footprint("", problem).has_value());
  CHECK_FALSE(labrun::device_image_footprint(
                  "not an image at all, but long enough to hold a header..........", problem)
                  .has_value());
  CHECK_THAT(problem, ContainsSubstring("not an ELF file"));
  const std::string image = cubin_of("extern \"C\" __global__ void k(float* x) { x[0] = 1.0f; }\n");
  // A section table beyond the end of the file.
  std::string moved = image;
  const std::uint64_t far = std::uint64_t{1} << 40;
  std::memcpy(moved.data() + 0x28, &far, sizeof far);
  CHECK_FALSE(labrun::device_image_footprint(moved, problem).has_value());
  CHECK_THAT(problem, ContainsSubstring("outside the file"));
  // Cut short, anywhere.
  for (const std::size_t keep : {std::size_t{64}, image.size() / 2, image.size() - 1}) {
    INFO(keep);
    const auto cut = labrun::device_image_footprint(image.substr(0, keep), problem);
    CHECK((!cut.has_value() || cut->global_bytes < 4096));
  }
}
