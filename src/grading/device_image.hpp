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

namespace labrun {

//! Largest compiled image a submission may have (bytes of the file).
inline constexpr std::uint64_t kDeviceImageMaxBytes = std::uint64_t{64} * 1024 * 1024;
//! Most device memory a submission's global variables may take (bytes).
inline constexpr std::uint64_t kStaticDeviceMemoryMaxBytes = std::uint64_t{64} * 1024 * 1024;

struct DeviceImageFootprint {
  //! Bytes of global memory the image's variables occupy: per global-data section (.nv.global,
  //! .nv.global.init, and any other writable, allocated section that is not shared memory), the
  //! larger of its size and the end of the furthest variable the symbol table places in it (a
  //! section's recorded size can be truncated to 32 bits while a variable in it is far larger).
  std::uint64_t global_bytes = 0;
  //! Bytes of constant banks the image defines (`__constant__` data).
  std::uint64_t constant_bytes = 0;
};

//! Reads an ELF64 little-endian image; nullopt, with `problem` set, when the bytes are not one
//! (anything that points outside the file is refused, never followed).
[[nodiscard]] std::optional<DeviceImageFootprint> device_image_footprint(std::string_view image,
                                                                         std::string& problem);

}  // namespace labrun
