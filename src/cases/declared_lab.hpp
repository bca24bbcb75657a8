#pragma once
// A lab's GPU side declared case by case: the lab names its buffers, its correctness versions and
// its cases (each with the region to time), and the harness owns the rest: the device buffers, the
// seeded input fill, poisoning, the correctness loop against the float64 reference, the bitwise
// comparisons, CUDA graphs and capacity checks. `session_factory()` turns the declaration into the
// `Lab::open_session` the runner uses (src/registry/lab.hpp), so a declared lab needs no session
// of its own. A region may launch anything its lab's launchers launch (a cooperative kernel, a
// CUDA graph); a lab that needs what no declaration expresses can still implement
// labrun::LabSession itself, though no registered lab does.
//
// Host code only; the lab's kernels stay behind launchers in its .cu files. Every buffer holds
// floats, the run's largest n of them (SessionConfig::max_elements), unless it is an output
// declared with its own element count (a reduction's partial sums, its one result) or a byte
// output (a mask: one byte per element).
//
// What every lab writes is here too: regions that call a launcher with the case's buffers
// (linear_region, image_region), the compiled-kernel facts from a kernel pointer
// (compiled_kernel_facts, kernel_resources), and case specs from a part and a name
// (registry/lab.hpp: case_name, case_spec).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/sizes.hpp"
#include "core/transcript.hpp"
#include "registry/lab.hpp"
#include "verify/compare.hpp"

namespace labrun {

//! A declared buffer, by its place in the declaration. Only LabDeclaration makes one.
class BufferId {
 public:
  [[nodiscard]] std::size_t index() const { return index_; }

 private:
  friend class LabDeclaration;
  explicit BufferId(std::size_t index) : index_(index) {}
  std::size_t index_;
};

//! A declared byte buffer (one byte per element: a mask). Only LabDeclaration makes one.
class ByteBufferId {
 public:
  [[nodiscard]] std::size_t index() const { return index_; }

 private:
  friend class LabDeclaration;
  explicit ByteBufferId(std::size_t index) : index_(index) {}
  std::size_t index_;
};

//! A correctness version's output: a float buffer or a byte buffer. Implicit, so that a check
//! names its output as the buffer was declared.
class OutputId {
 public:
  OutputId(BufferId buffer) : index_(buffer.index()) {}
  OutputId(ByteBufferId buffer) : index_(buffer.index()) {}
  [[nodiscard]] std::size_t index() const { return index_; }

 private:
  std::size_t index_;
};

//! A declared correctness version. Only LabDeclaration makes one.
class CheckId {
 public:
  [[nodiscard]] std::size_t index() const { return index_; }

 private:
  friend class LabDeclaration;
  explicit CheckId(std::size_t index) : index_(index) {}
  std::size_t index_;
};

//! What a region is built against: the session's device buffers and stream, and its CUDA graphs.
class RegionContext {
 public:
  virtual ~RegionContext() = default;
  //! The device pointer of a declared buffer (max_elements floats, or the count it was declared with).
  [[nodiscard]] virtual float* operator[](BufferId buffer) const = 0;
  //! The device pointer of a declared byte buffer (max_elements bytes).
  [[nodiscard]] virtual std::uint8_t* operator[](ByteBufferId buffer) const = 0;
  //! The image the region is built for: the case's size as registry/lab.hpp's shape_at gives it
  //! (while a case is prepared), or the lab's correctness image (while a version is checked);
  //! nullopt for a 1-D size.
  [[nodiscard]] virtual std::optional<Shape> shape() const = 0;
  //! The stream every region enqueues on: the legacy default stream.
  [[nodiscard]] virtual cudaStream_t stream() const = 0;
  //! `enqueue` (which launches its work on the stream it is given) captured once per (key, n) as a
  //! CUDA graph on a capture stream of the session's own, instantiated, and kept until the session
  //! closes. Throws labrun::CudaError.
  [[nodiscard]] virtual cudaGraphExec_t graph(const std::string& key, std::uint64_t n,
                                              const std::function<void(cudaStream_t)>& enqueue) = 0;
};

//! Builds one execution of a case (or version) on n elements: the returned function enqueues the
//! work on ctx.stream() and returns without synchronising. It may keep pointers from ctx, which
//! stay valid until the session closes.
using RegionBuilder = std::function<std::function<void()>(RegionContext& ctx, std::uint64_t n)>;

//! Per-case facts recorded with each timed case (blocks, registers, occupancy, ...).
using AttributesBuilder = std::function<std::map<std::string, double>(std::uint64_t n)>;

//! Host copies of the declared inputs, the first n elements of each, as the session filled them,
//! and the image they form when the check runs on one (the lab's correctness image).
class HostInputs {
 public:
  explicit HostInputs(std::map<std::size_t, std::vector<float>> inputs,
                      std::optional<Shape> shape = std::nullopt)
      : inputs_(std::move(inputs)), shape_(shape) {}
  //! Throws std::invalid_argument for a buffer that is not a declared input.
  [[nodiscard]] const std::vector<float>& operator[](BufferId buffer) const;
  //! The image the inputs are (width x height == n), or nullopt for a 1-D check.
  [[nodiscard]] const std::optional<Shape>& shape() const { return shape_; }

 private:
  std::map<std::size_t, std::vector<float>> inputs_;
  std::optional<Shape> shape_;
};

//! A check's reference (CheckDeclaration::reference) on an image: `reference(inputs[buffers]...,
//! width, height)` for a float64 function of the shape `std::vector<double> sobel_reference(const
//! std::vector<float>& image, std::size_t width, std::size_t height)`. Throws std::invalid_argument
//! when the check runs on no image (the lab sets no correctness image).
template <typename Reference, typename... Buffers>
[[nodiscard]] auto image_reference(Reference reference, Buffers... buffers) {
  return [reference, buffers...](const HostInputs& inputs, std::uint64_t n) -> std::vector<double> {
    const std::optional<Shape>& shape = inputs.shape();
    if (!shape || shape->elements() != n) {
      throw std::invalid_argument("an image reference is computed at " + std::to_string(n) +
                                  " elements, which is not the lab's correctness image");
    }
    return reference(inputs[buffers]..., static_cast<std::size_t>(shape->width),
                     static_cast<std::size_t>(shape->height));
  };
}

//! A correctness version: its region runs once at the lab's odd correctness size with every
//! non-input buffer poisoned, and `output`'s first n floats are compared with `reference`. An
//! output declared with its own element count is compared on its first reference.size() floats
//! instead (a reduction's one result: a reference of one element).
struct CheckDeclaration {
  std::string name;  //!< recorded in the transcript's correctness checks and cases' verified_by
  RegionBuilder region;
  OutputId output;  //!< a float buffer, or a byte buffer (its bytes compared as numbers)
  //! The expected output in float64, n elements (or, for an output of its own element count, as
  //! many as are compared, at most that count), from the inputs alone.
  std::function<std::vector<double>(const HostInputs& inputs, std::uint64_t n)> reference;
  Tolerance tolerance;
  //! Versions of one computation (a fused and an unfused kernel) that name the same non-empty key
  //! share one reference: it is computed once per correctness pass, by the first of them checked.
  std::string reference_key = {};
};

//! A timed case: its spec (name, label, byte model, sizes, launches per sample), the version whose
//! check covers its kernels, and the region the harness times.
struct CaseDeclaration {
  CaseSpec spec;  //!< spec.verified_by is set from `verified_by`; no sizes: the lab's (sizes())
  std::optional<CheckId> verified_by;
  RegionBuilder region;
  AttributesBuilder attributes;          //!< empty: no per-case facts
  std::vector<CaseFigure> figures = {};  //!< added to spec.figures: the lab's columns for this case
};

//! The facts every lab records about its compiled kernels: the machine code and PTX versions they
//! were compiled to, as cudaFuncAttributes gives them (90 is written "9.0"), and their block size:
//! "kernel_binary_version", "kernel_ptx_version", "threads_per_block".
[[nodiscard]] std::vector<Fact> compiled_kernel_facts(int binary_version, int ptx_version,
                                                      int threads_per_block);
//! The same facts read from one of the lab's kernels on the current device
//! (cudaFuncGetAttributes): `kernel` is the kernel's address as a `const void*`, which the lab's .cu
//! file hands out (`reinterpret_cast<const void*>(&my_kernel)`). Throws labrun::CudaError.
[[nodiscard]] std::vector<Fact> compiled_kernel_facts(const void* kernel, int threads_per_block);

//! What the runtime says about a kernel's resources on the current device (no profiler needed).
struct KernelResources {
  int registers = 0;                   //!< cudaFuncAttributes::numRegs
  std::size_t local_bytes = 0;         //!< cudaFuncAttributes::localSizeBytes (spills, local arrays)
  int blocks_per_sm = 0;               //!< cudaOccupancyMaxActiveBlocksPerMultiprocessor at threads_per_block
  int binary_version = 0;              //!< the machine code the kernel runs as (90 for sm_90)
  double theoretical_occupancy = 0.0;  //!< blocks_per_sm x threads_per_block / resident threads per SM
};
//! `kernel` as compiled_kernel_facts takes it, launched with `threads_per_block` and no dynamic
//! shared memory. Throws labrun::CudaError.
[[nodiscard]] KernelResources kernel_resources(const void* kernel, int threads_per_block);
//! A case's attributes from its kernel's resources (kernel_resources), the same at every size:
//! "threads_per_block", "registers", "blocks_per_sm", "theoretical_occupancy".
[[nodiscard]] AttributesBuilder kernel_attributes(const void* kernel, int threads_per_block);

//! A region that calls `launch(ctx[buffers]..., n, ctx.stream())` once per execution: the shape of
//! most elementwise launchers, `void launch_copy(const float* in, float* out, std::size_t n,
//! cudaStream_t stream)`. `buffers` are BufferIds and ByteBufferIds, in the launcher's order.
template <typename Launcher, typename... Buffers>
[[nodiscard]] RegionBuilder linear_region(Launcher launch, Buffers... buffers) {
  return [launch, buffers...](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const cudaStream_t stream = ctx.stream();
    const std::size_t elements = n;
    return [launch, pointers = std::make_tuple(ctx[buffers]...), elements, stream] {
      std::apply([&](auto... pointer) { launch(pointer..., elements, stream); }, pointers);
    };
  };
}

//! A region that calls `launch(ctx[buffers]..., width, height, ctx.stream())` on the image the
//! region is built for (RegionContext::shape): `void launch_sobel(const float* image, float*
//! magnitude, std::size_t width, std::size_t height, cudaStream_t stream)`. Throws
//! std::invalid_argument, as the region is built, for a 1-D size.
template <typename Launcher, typename... Buffers>
[[nodiscard]] RegionBuilder image_region(Launcher launch, Buffers... buffers) {
  return [launch, buffers...](RegionContext& ctx, std::uint64_t n) -> std::function<void()> {
    const std::optional<Shape> shape = ctx.shape();
    if (!shape || shape->elements() != n) {
      throw std::invalid_argument("an image region is built at " + std::to_string(n) +
                                  " elements, which is not an image size of its case");
    }
    const cudaStream_t stream = ctx.stream();
    const std::size_t width = shape->width;
    const std::size_t height = shape->height;
    return [launch, pointers = std::make_tuple(ctx[buffers]...), width, height, stream] {
      std::apply([&](auto... pointer) { launch(pointer..., width, height, stream); }, pointers);
    };
  };
}

//! A lab's buffers, versions and cases. Build it once, in the lab's declaration file.
class LabDeclaration {
 public:
  explicit LabDeclaration(std::string lab_name) : lab_name_(std::move(lab_name)) {}

  //! The sizes of every case that declares none of its own (nvbench's axes: one list per lab).
  void sizes(std::vector<SizeRequest> sizes) { sizes_ = std::move(sizes); }
  [[nodiscard]] const std::vector<SizeRequest>& sizes() const { return sizes_; }
  //! The correctness size of a 1-D lab: odd, so that every bounds check fires (Lab::correctness_elements).
  void correctness_elements(std::uint64_t elements);
  //! The correctness image of an image lab: odd by odd (Lab::correctness_shape and its area).
  void correctness_image(Shape shape);
  //! The cases behind the lab's roofline and its card figures, as the harness's reference cases
  //! (cases/reference_cases.hpp) fill them in; a lab may name its own there too.
  [[nodiscard]] RooflineCases& roofline() { return roofline_; }
  [[nodiscard]] CardFigures& card_figures() { return card_figures_; }

  //! An input, filled once when a session opens: element i = seeded_uniform(seed, seed_stream,
  //! i, low, high) (src/cases/seeded_uniform.hpp).
  BufferId input(std::string name, std::uint64_t seed_stream, float low, float high);
  //! An output or intermediate, poisoned (NaN) before each correctness version runs.
  BufferId output(std::string name);
  //! An output or intermediate of one byte per element (max_elements bytes), poisoned to 255
  //! before each correctness version runs; a check compares its bytes as numbers.
  ByteBufferId byte_output(std::string name);
  //! An output or intermediate of `elements()` floats instead of max_elements, whatever n is: a
  //! reduction's partial sums (one per block of its grid) or its single result. `elements` is
  //! called once as a session opens, on the session's device, so it may query the device (an
  //! occupancy-sized grid); it must return at least 1. The whole buffer is poisoned before each
  //! correctness version runs.
  BufferId output(std::string name, std::function<std::size_t()> elements);
  //! A correctness version. Throws std::invalid_argument for a repeated name.
  CheckId check(CheckDeclaration check);
  //! A timed case. Throws std::invalid_argument for a repeated case name.
  void add_case(CaseDeclaration declared);
  //! A case and the correctness version that checks it, where one region is both timed and checked:
  //! `check` is declared (check()), and the case times check.region, verified by it. Returns the
  //! check's id (for compare_bitwise, or another case it verifies).
  CheckId add_checked_case(CaseSpec spec, CheckDeclaration check, AttributesBuilder attributes = {},
                           std::vector<CaseFigure> figures = {});
  //! Whether two versions' outputs are bitwise equal is recorded when both were checked.
  void compare_bitwise(CheckId first, CheckId second);
  //! Runs (and is synchronised) after the inputs are filled and again after the correctness
  //! checks, at the session's capacity: state some cases read (a chain's intermediates) is primed.
  void prime(RegionBuilder region);
  //! What the lab knows about its compiled kernels, recorded in the transcript's "lab" group.
  void facts(std::function<std::vector<Fact>()> facts);

  [[nodiscard]] const std::string& lab_name() const { return lab_name_; }
  [[nodiscard]] const CheckDeclaration& check_of(CheckId id) const { return checks_.at(id.index()); }
  //! The cases' specs in declaration order, verified_by filled in: Lab::cases.
  [[nodiscard]] std::vector<CaseSpec> case_specs() const;
  //! Lab::open_session for this declaration; the declaration is copied into it.
  [[nodiscard]] std::function<std::unique_ptr<LabSession>(const SessionConfig&)> session_factory() const;

  struct Buffer {
    std::string name;
    bool input = false;
    std::uint64_t seed_stream = 0;
    float low = 0.0f;
    float high = 0.0f;
    std::function<std::size_t()> elements = {};  //!< empty: max_elements floats
    bool bytes = false;                          //!< one byte per element (byte_output)
  };
  [[nodiscard]] const std::vector<Buffer>& buffers() const { return buffers_; }
  [[nodiscard]] const std::vector<CheckDeclaration>& checks() const { return checks_; }
  [[nodiscard]] const std::vector<CaseDeclaration>& cases() const { return cases_; }
  [[nodiscard]] const std::vector<std::pair<CheckId, CheckId>>& bitwise_pairs() const { return bitwise_; }
  [[nodiscard]] const RegionBuilder& priming() const { return prime_; }
  [[nodiscard]] const std::function<std::vector<Fact>()>& lab_facts() const { return facts_; }
  [[nodiscard]] std::uint64_t correctness_size() const { return correctness_elements_; }
  [[nodiscard]] const std::optional<Shape>& correctness_shape() const { return correctness_shape_; }
  [[nodiscard]] const RooflineCases& roofline() const { return roofline_; }
  [[nodiscard]] const CardFigures& card_figures() const { return card_figures_; }

 private:
  std::string lab_name_;
  std::vector<SizeRequest> sizes_;
  std::uint64_t correctness_elements_ = 0;
  std::optional<Shape> correctness_shape_;
  RooflineCases roofline_;
  CardFigures card_figures_;
  std::vector<Buffer> buffers_;
  std::vector<CheckDeclaration> checks_;
  std::vector<CaseDeclaration> cases_;
  std::vector<std::pair<CheckId, CheckId>> bitwise_;
  RegionBuilder prime_;
  std::function<std::vector<Fact>()> facts_;
};

//! `lab` with what its declaration gives it: its cases (case_specs), its session (session_factory)
//! and buffers_at_max_size (each buffer of max_elements, a byte buffer counted as a float one, so
//! the runner's check that the card-scaled size fits errs on the safe side); and, where `lab` leaves
//! them empty, its name, its correctness size and image, its roofline and its card figures' cases.
[[nodiscard]] Lab declared(Lab lab, const LabDeclaration& declaration);
//! The same from an empty Lab: everything but the title, summary, predictions, claims and stability
//! case, which the lab sets on the result.
[[nodiscard]] Lab declared(const LabDeclaration& declaration);

}  // namespace labrun
