#include "grading/device_image.hpp"

#include <unistd.h>

#include <algorithm>
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

TEST_CASE("each kernel's shared memory, barriers and warp-synchronous instructions are read from the image") {
  const std::string image = cubin_of(
      "extern \"C\" __global__ void plain(float* x) { x[threadIdx.x] *= 2.0f; }\n"
      "extern \"C\" __global__ void tiled(float* x) {\n"
      "  __shared__ float tile[256];\n"
      "  tile[threadIdx.x] = x[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  x[threadIdx.x] = tile[255 - threadIdx.x];\n"
      "}\n"
      "extern \"C\" __global__ void shuffled(float* x) {\n"
      "  float v = x[threadIdx.x];\n"
      "  v += __shfl_down_sync(0xFFFFFFFFu, v, 1);\n"
      "  x[threadIdx.x] = v;\n"
      "}\n"
      "extern \"C\" __global__ void divergent(float* x) {\n"
      "  if (x[threadIdx.x] > 0.0f) { __syncthreads(); }\n"
      "  x[threadIdx.x] = 1.0f;\n"
      "}\n"
      "extern \"C\" __global__ void own_slot(float* x) {\n"
      "  __shared__ float mine[256];\n"
      "  mine[threadIdx.x] = x[threadIdx.x];\n"
      "  x[threadIdx.x] = mine[threadIdx.x] + 1.0f;\n"
      "}\n");
  const labrun::DeviceImageFootprint footprint = footprint_of(image);
  const auto function = [&](const std::string& name) {
    const auto found = std::find_if(footprint.functions.begin(), footprint.functions.end(),
                                    [&](const labrun::DeviceImageFunction& f) { return f.name == name; });
    REQUIRE(found != footprint.functions.end());
    return *found;
  };
  CHECK(footprint.functions.size() == 5);
  CHECK_FALSE(function("plain").may_synchronise());
  CHECK(function("plain").shared_bytes == 0);
  CHECK(function("tiled").barriers >= 1);
  CHECK(function("tiled").shared_bytes == 1024);
  CHECK(function("shuffled").warp_synchronous);
  CHECK(function("shuffled").barriers == 0);
  CHECK(function("divergent").barriers >= 1);
  CHECK(function("divergent").may_synchronise());
  CHECK(function("own_slot").shared_bytes == 1024);
  CHECK(footprint.any_shared_memory());
  CHECK(footprint.any_synchronisation());
  const labrun::DeviceImageFootprint none =
      footprint_of(cubin_of("extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n"));
  CHECK_FALSE(none.any_shared_memory());
  CHECK_FALSE(none.any_synchronisation());
}

TEST_CASE("a kernel whose records cannot be read is taken to synchronise") {
  std::string image = cubin_of("extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n");
  // Make the kernel's first record claim more data than its section holds.
  const std::size_t at = image.find(std::string("\x04\x37\x04\x00", 4));
  REQUIRE(at != std::string::npos);
  image[at + 2] = '\x7F';
  const labrun::DeviceImageFootprint footprint = footprint_of(image);
  REQUIRE(footprint.functions.size() == 1);
  CHECK_FALSE(footprint.functions.front().attributes_read);
  CHECK(footprint.any_synchronisation());
}

TEST_CASE("the driver's device-side calls an image makes are named; an image that makes none names none") {
  const std::string plain =
      cubin_of("extern \"C\" __global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n");
  CHECK(footprint_of(plain).outside_calls.empty());
  const std::string calls = cubin_of(
      "#include <cassert>\n#include <cstdio>\n"
      "extern \"C\" __global__ void heap(float* x) { float* p = new float[4]; p[0] = x[0]; x[1] = p[0]; "
      "delete[] p; }\n"
      "extern \"C\" __global__ void say(float* x) { printf(\"%f\\n\", x[0]); }\n"
      "extern \"C\" __global__ void insist(float* x) { assert(x[0] == 1.0f); }\n");
  const std::vector<std::string> named = footprint_of(calls).outside_calls;
  for (const char* call : {"malloc", "free", "vprintf", "__assertfail"}) {
    INFO(call);
    CHECK(std::find(named.begin(), named.end(), call) != named.end());
  }
}
