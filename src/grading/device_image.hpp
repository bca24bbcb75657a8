#pragma once
// What a compiled submission (a cubin: an ELF file of device code) would take from the GPU before
// any of its code runs, and what its functions use. Loading an image allocates its global variables
// (`__device__` and `__managed__` arrays), so a submission that declares a huge one would take the
// GPU's memory from the submissions graded beside it. This reads the image as plain bytes, on the
// host, so that such an image is refused before any GPU is touched; and what each function declares
// it uses (static shared memory, barriers, warp-synchronous instructions) tells the grader which of
// compute-sanitizer's tools have anything to check. The driver sizes a launch from the same
// records, so a function cannot use a barrier or shared memory they leave out. Host logic only.

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

//! A function of the image (a kernel, or a device function it calls), as the image describes it.
struct DeviceImageFunction {
  std::string name;
  //! Bytes of static shared memory (its .nv.shared.<name> section; the reserved section is not the
  //! function's own).
  std::uint64_t shared_bytes = 0;
  //! Named barriers it uses (EIATTR_NUM_BARRIERS in its .nv.info.<name>): __syncthreads() and its
  //! kin are barrier 0, so any block-wide barrier makes this at least 1.
  std::uint32_t barriers = 0;
  //! mbarrier objects it uses (EIATTR_NUM_MBARRIERS).
  std::uint32_t mbarriers = 0;
  //! It has warp-synchronous instructions (EIATTR_COOP_GROUP_INSTR_OFFSETS: __syncwarp, the
  //! *_sync shuffles, votes and matches, cooperative groups' tile syncs).
  bool warp_synchronous = false;
  //! It has attribute records (.nv.info.<name>): a kernel. A device function that is not inlined
  //! has none; what it uses is counted in the records of the kernels that call it, which the driver
  //! sizes their launches by.
  bool has_attributes = false;
  //! Its attribute records could be read: false when they are not a whole sequence of records
  //! (then nothing is known of its synchronisation).
  bool attributes_read = false;
  //! Whether it synchronises threads in any way synccheck checks, or that is unknown.
  [[nodiscard]] bool may_synchronise() const {
    return has_attributes && (!attributes_read || barriers > 0 || mbarriers > 0 || warp_synchronous);
  }
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
  //! Every function with code (a .text.<name> section), at most kDeviceImageGlobalsMax of them.
  std::vector<DeviceImageFunction> functions;
  //! Bytes of static shared memory of every function together (every .nv.shared.* section but the
  //! reserved ones).
  std::uint64_t shared_bytes = 0;
  //! Whether any function has static shared memory: racecheck checks shared memory only.
  [[nodiscard]] bool any_shared_memory() const;
  //! Whether any function may synchronise threads (DeviceImageFunction::may_synchronise): synccheck
  //! checks barriers and warp-synchronous instructions only.
  [[nodiscard]] bool any_synchronisation() const;
  //! The symbols the image uses but does not define, other than the compiler's own reserved
  //! shared-memory marker (.nv.reservedSmem.*): the driver's device-side calls (malloc and free,
  //! which `new` and `delete` become; vprintf for printf; __assertfail for assert), at most
  //! kDeviceImageGlobalsMax of them, each name cut at kDeviceImageGlobalNameMax bytes. Each keeps
  //! state in the CUDA context beyond the module's own (the device heap, the printf buffer, an
  //! assertion that stops the context), so a grading worker is not reused after an image that has
  //! any (exercise/worker_pool.hpp).
  std::vector<std::string> outside_calls;
};

inline constexpr std::size_t kDeviceImageGlobalsMax = 4096;
inline constexpr std::size_t kDeviceImageGlobalNameMax = 1024;

//! Reads an ELF64 little-endian image; nullopt, with `problem` set, when the bytes are not one
//! (anything that points outside the file is refused, never followed).
[[nodiscard]] std::optional<DeviceImageFootprint> device_image_footprint(std::string_view image,
                                                                         std::string& problem);

}  // namespace labrun
