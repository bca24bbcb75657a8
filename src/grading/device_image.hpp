#pragma once
// What a compiled submission (a cubin: an ELF file of device code) would take from the GPU before
// any of its code runs. Loading an image allocates its global variables (`__device__` and
// `__managed__` arrays), so a submission that declares a huge one would take the GPU's memory from
// the submissions graded beside it. This reads the image as plain bytes, on the host, so that such
// an image is refused before any GPU is touched. Host logic only.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labrun {

//! Largest compiled image a submission may have (bytes of the file).
inline constexpr std::uint64_t kDeviceImageMaxBytes = std::uint64_t{64} * 1024 * 1024;
//! Most device memory a submission's global variables may take (bytes).
inline constexpr std::uint64_t kStaticDeviceMemoryMaxBytes = std::uint64_t{64} * 1024 * 1024;

//! A global variable the image defines: its symbol's name and size.
struct DeviceImageGlobal {
  std::string name;
  std::uint64_t bytes = 0;
};

struct DeviceImageFootprint {
  //! Bytes of global memory the image's variables occupy: per global-data section (.nv.global,
  //! .nv.global.init, and any other writable, allocated section that is not shared memory), the
  //! larger of its size and the end of the furthest variable the symbol table places in it (a
  //! section's recorded size can be truncated to 32 bits while a variable in it is far larger).
  std::uint64_t global_bytes = 0;
  //! Bytes of constant banks the image defines (`__constant__` data).
  std::uint64_t constant_bytes = 0;
  //! The variables in those global-data sections with a name and a size (object symbols), at most
  //! kDeviceImageGlobalsMax of them, names of at most kDeviceImageGlobalNameMax bytes.
  std::vector<DeviceImageGlobal> globals;
};

inline constexpr std::size_t kDeviceImageGlobalsMax = 4096;
inline constexpr std::size_t kDeviceImageGlobalNameMax = 1024;

//! Reads an ELF64 little-endian image; nullopt, with `problem` set, when the bytes are not one
//! (anything that points outside the file is refused, never followed).
[[nodiscard]] std::optional<DeviceImageFootprint> device_image_footprint(std::string_view image,
                                                                         std::string& problem);

}  // namespace labrun
