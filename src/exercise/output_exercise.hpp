#pragma once
// An exercise declared, not written (docs/grading.md, "Declaring an exercise"): one kernel that
// reads input buffers and writes one output buffer, over an image or over [0, n), checked element
// for element (exactly: a mask is bytes) against the lab's own kernel run on the same inputs. The
// declaration is data and the lab's own launchers; the harness owns the rest: the buffers (guarded at
// their element's width, poisoned), the probes and their records, the judge, the timed calls and
// the sanitizer run. The lab supplies only what is the lab's:
//   - graded inputs from a seed, and the per-call scalars (a threshold) they go with;
//   - the reference: the lab's own kernel, run by the lab's own launcher, on those inputs;
//   - the classes of elements its classic mistakes get wrong (an edge pixel, a pixel on the
//     threshold), one bit each, so that a wrong output is named by the measured fact;
//   - its lab cases' launchers, timed beside the submission.
//
// Host code only; nvcc is not needed to compile it.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/sizes.hpp"
#include "exercise/exercise.hpp"

namespace labrun {

//! One buffer of the contract: its elements' width, and whether the kernel reads or writes it.
struct DeclaredBuffer {
  std::string name;  //!< as the contract's parameter names it: "image"
  std::size_t element_bytes = 4;
  bool output = false;
};

//! Where the declared buffers of one call are, by name, on the device.
using BufferPointers = std::map<std::string, void*>;
//! The per-call scalars the inputs come with ("threshold"), as doubles: each is passed at its
//! contract parameter's width (4 bytes: a float, unless its type names an integer).
using Scalars = std::map<std::string, double>;

//! What one of the lab's functions is given: the call's size (an image, or n x 1) and its stream.
struct CallExtent {
  Shape image;
  cudaStream_t stream = nullptr;
  [[nodiscard]] std::size_t elements() const { return static_cast<std::size_t>(image.elements()); }
};

//! A classic mistake named by a measured fact: every wrong element of the output lies in class
//! `class_bit` (OutputDeclaration::classify) and was written with `got` (-1: any value).
struct ClassMistake {
  std::string id;          //!< "threshold-inclusive"
  unsigned class_bit = 0;  //!< below 8
  int got = -1;
  std::string explanation;  //!< what to fix; the record's where and count are added
};

//! A structure the contract forbids, named by a measured fact: the submission's own global
//! memory written for at least `share` of the elements (Exercise::watch_own_memory).
struct MaterialisedMistake {
  std::string id;  //!< "magnitude-materialised"
  double share = 0.25;
  std::string explanation;
};

struct OutputDeclaration {
  //! The buffers, in any order; the contract's pointer parameters name them.
  std::vector<DeclaredBuffer> buffers;
  //! Fills the inputs of one call from `seed` (the lab's own generator) and returns its scalars.
  std::function<Scalars(const BufferPointers&, const CallExtent&, std::uint64_t seed)> graded_inputs;
  //! The same for the lab's cases when timed (the lab's own inputs).
  std::function<Scalars(const BufferPointers&, const CallExtent&, std::uint64_t seed)> lab_inputs;
  //! The lab's own kernel on the same inputs: writes the reference output into `reference`.
  std::function<void(const BufferPointers& inputs, void* reference, const Scalars&, const CallExtent&)>
      reference;
  //! One byte per element: bit k set where the element is in class k; computed from the inputs by
  //! the lab's code (the lab's Sobel magnitude, say), which may use the lab buffers (given with the
  //! inputs). Empty: no classes.
  std::function<void(const BufferPointers& inputs, unsigned char* classes, const Scalars&, const CallExtent&)>
      classify;
  std::vector<ClassMistake> class_mistakes;
  std::vector<MaterialisedMistake> materialised;
  //! The lab's own buffers its timed cases need besides the declared inputs (an intermediate), by
  //! name and element width.
  std::vector<DeclaredBuffer> lab_buffers;
  //! One execution of lab case `index` (Exercise::lab_cases), on the declared inputs and lab buffers.
  std::function<void(std::size_t index, const BufferPointers&, const Scalars&, const CallExtent&)>
      launch_lab_case;
  //! How the wrong element's index is shown: "pixel (x, y)" for an image.
  std::string element_noun = "element";
};

//! The probes the harness offers an output exercise, each a checked call of the submission on fresh
//! inputs: alone; after the lab's own case ran on other inputs (its buffers must stay as it left
//! them); a planted input (new inputs of another draw: the output must follow them, not a kept
//! answer); again on the first call's inputs (two outputs of the same inputs must agree).
inline const std::vector<std::string> kOutputProbes{"alone", "after-lab", "planted", "again"};

//! `base` (its contract, manifest, sizes, rubric, wording and lab cases) made into an exercise the
//! harness grades from `declaration`: its probes, the judge of their records and the device side.
[[nodiscard]] Exercise output_exercise(Exercise base, OutputDeclaration declaration);

//! One checked call's record, as the child writes it and the judge reads it.
struct OutputRecord {
  std::string size_label;  //!< "odd", "card-scaled"
  std::string probe;       //!< one of kOutputProbes, or "timed"
  std::uint64_t elements = 0;
  std::uint64_t width = 0;
  std::uint64_t height = 0;
  int call = 0;
  std::uint64_t mismatches = 0;  //!< elements not equal to the reference, byte for byte
  std::uint64_t unwritten = 0;   //!< elements still holding the poison
  std::uint64_t first_bad = 0;   //!< the first wrong element's index (when mismatches > 0)
  std::int64_t first_bad_got = 0;
  std::int64_t first_bad_expected = 0;
  //! Wrong elements in each class (OutputDeclaration::classify), and of those, the ones whose value
  //! was 1 (a mask's "set").
  std::vector<std::uint64_t> class_mismatches = std::vector<std::uint64_t>(8, 0);
  std::vector<std::uint64_t> class_set = std::vector<std::uint64_t>(8, 0);
  std::uint64_t guard_elements_changed = 0;  //!< around the outputs, at their element width
  bool input_changed = false;                //!< an input or its guards
  bool lab_buffers_written = false;          //!< after-lab: the lab's buffers changed
  std::uint64_t launches_writing_outside = 0;
  std::uint64_t own_words_written = 0;
  [[nodiscard]] bool right() const { return mismatches == 0; }
};

[[nodiscard]] nlohmann::ordered_json to_json(const OutputRecord& record);
//! Throws nlohmann::json::exception when the document is not a record.
[[nodiscard]] OutputRecord output_record_from_json(const nlohmann::ordered_json& document);

//! The judge of an output exercise's probe records (exposed for its host tests).
void judge_output_probes(const OutputDeclaration& declaration, ProbeJudging& in);

class ChildSession;
class ExerciseChild;
//! The device side of an output exercise in the grading child (output_child.cpp).
[[nodiscard]] std::unique_ptr<ExerciseChild> output_child(
    ChildSession& session, std::shared_ptr<const OutputDeclaration> declaration);

}  // namespace labrun
