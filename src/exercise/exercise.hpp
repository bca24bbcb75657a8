#pragma once
// A graded exercise, declared (docs/grading.md, "Declaring an exercise"). Labs were made
// declarative in cases/declared_lab.hpp; this is the same for the exercises labrun grades. An
// exercise lists its contract (kernels and parameters, launch rules), what its manifest holds (the
// worked answer's fields, their correct values taken from the lab's byte model), its sizes, its
// rubric table, the words its reports use, the lab cases it is timed against, and two functions of
// its own: the judge of the records its probes wrote, and the device side that runs those probes
// in the grading child (exercise/child_session.hpp). The harness owns everything else: the
// contained build, the loader, launch plans, guarded and poisoned buffers, the keyed digest, the
// watchdog, GPU turns, the timed calls, compute-sanitizer, the judge's framework, the reports,
// batches, shards and merges (docs/architecture.md, "exercise").
//
// Host code only.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/byte_model.hpp"
#include "core/sizes.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/rubric.hpp"
#include "grading/manifest.hpp"
#include "grading/report.hpp"

namespace labrun {

class ChildSession;
class ExerciseChild;
struct Judgement;

//! One parameter of a contract's kernel, as the declaration types it: a pointer to a buffer of
//! floats, doubles, integers or bytes, or a scalar of any width (a 4-byte float threshold, a 4-byte
//! width, an 8-byte n). The loaded kernel's parameters are checked against `bytes`, in order.
struct ContractParameter {
  std::string name;         //!< "threshold", as the contract's signature names it
  std::string type;         //!< "const float*", "unsigned char*", "unsigned int", "float"
  std::uint64_t bytes = 8;  //!< its size as passed: 8 for any pointer
  [[nodiscard]] bool operator==(const ContractParameter&) const = default;
};

//! A pointer parameter: `type` is its C type, "const float*".
[[nodiscard]] inline ContractParameter pointer_parameter(std::string name, std::string type) {
  return {std::move(name), std::move(type), sizeof(void*)};
}
//! A scalar parameter of type T, whose C spelling is `type`.
template <typename T>
[[nodiscard]] ContractParameter scalar_parameter(std::string name, std::string type) {
  return {std::move(name), std::move(type), sizeof(T)};
}

//! One kernel a submission defines, with C linkage, found by this name.
struct ContractKernel {
  std::string name;
  std::vector<ContractParameter> parameters;  //!< in the signature's order
  //! Launched as one block of the manifest's threads_per_block threads whatever n (a finishing
  //! step); otherwise the manifest's launch shape covers n elements.
  bool one_block = false;
  //! Runs over the exercise's image at each size (Exercise::image_at), with a 2-D shape.
  bool image = false;
};

//! A case of the lab a submission is timed against, as the grading child times it.
struct LabCaseTiming {
  std::string key;       //!< its median's key in the child's results: "lab_halfway_ms"
  std::string label;     //!< as the report's figures name it: "lab's half-way pair"
  std::string lab_case;  //!< the lab's case, whose byte model it moves
  //! A copy: what the card's memory does for traffic that reads and writes (judge.hpp's
  //! CardBandwidths, beside the harness's own streams).
  bool copy = false;
};

//! A ratio the worked answer predicts: the time of `slower` over `faster`; an empty name is the
//! submission (its model is the exercise's model case).
struct PredictedRatio {
  std::string key;          //!< the manifest's field: "predicted_ratio_vs_staged"
  std::string against;      //!< as the finding says it: "... against staged"
  std::string slower_case;  //!< a lab case, or "" for the submission
  std::string faster_case;
  std::string figure;  //!< the report's figure of the measured ratio: "staged / yours"
};

//! A number a student may declare for bytes per element, and what to tell them when they do.
struct BytesHint {
  std::string lab_case;  //!< the case whose model gives the number; empty: `bytes` as given
  double bytes = 0.0;
  std::string hint;
};

//! The sentences a report says for this exercise, where they differ between exercises.
struct ExerciseWording {
  std::string contract;         //!< "grading/submission.cuh": where the names and signatures are
  std::string parameters;       //!< "pointers and std::size_t n"
  std::string submit;           //!< "the two kernels' device code"
  std::string includes;         //!< "grading/submission.cuh, the lab's headers and CUDA's headers"
  std::string submission_noun;  //!< "pair": "your pair", "one call of the pair"
  std::string reference_name;   //!< "the lab's own half-way pair", what slow is measured against
  std::string slow_hint;        //!< what to look at when it is slow
  std::string timed_hint;       //!< what to do when it is wrong only when timed
  std::string bytes_breakdown;  //!< "(x, the intermediate written and read back, ...: five floats)"
  std::string bytes_hint;       //!< what to count when the declared bytes are wrong
  std::vector<BytesHint> bytes_hints;
  std::string launches_sentence;  //!< "the half-way pair is 2 kernels"
  std::string correct_summary;    //!< "right at both sizes, two kernels joined by the intermediate, ..."
  std::string structure_part;     //!< "the two kernels' structure", as "not correct: see ..." names it
};

//! The worked answer's correct values, from the lab's byte model (exercise_entry fills them).
struct WorkedModel {
  ByteModel submission;           //!< the model case's: the traffic of a correct submission
  std::vector<ByteModel> slower;  //!< per predicted ratio, its slower side
  std::vector<ByteModel> faster;
  std::vector<ByteModel> lab_cases;  //!< per lab case timed, in order
  //! The byte ratio predicted ratio `p` is worth: its slower side's bytes over its faster side's.
  [[nodiscard]] double ratio(std::size_t p) const {
    return slower.at(p).bytes_per_element() / faster.at(p).bytes_per_element();
  }
};

//! What an exercise's judge of its probes is given: the report to name mistakes in, what the child
//! measured, and the judgement so far (exercise/judge.hpp).
struct ProbeJudging {
  GradeReport& report;
  const ChildResults& results;
  Judgement& judgement;
};

struct Exercise {
  std::string name;     //!< "halfway-pair": unique among the build's exercises
  std::string lab;      //!< its lab's name
  std::string title;    //!< one line for `labrun list`
  std::string summary;  //!< what a submission is, in one sentence
  std::vector<ContractKernel> kernels;
  LaunchShape default_shape{256, 1, false};  //!< where the manifest gives no usable shape
  //! The data folder of the lab's headers a submission compiles against ("labs/day48-fusion";
  //! find_data_file), and those it may include by name; empty: none.
  std::string header_folder;
  std::vector<std::string> quoted_headers;
  std::string skeleton;              //!< the starting point's .cu file, relative to the source tree
  std::vector<AnswerField> answers;  //!< the worked answer's fields, besides the predicted ratios
  std::string bytes_key = "bytes_per_element";
  std::string launches_key = "launches";
  std::string model_case;  //!< the lab's case whose byte model a correct submission has
  std::vector<PredictedRatio> predictions;
  double prediction_tolerance = 0.05;  //!< a predicted ratio within this of the model's is right
  std::vector<LabCaseTiming> lab_cases;
  std::string reference_case_key;  //!< the lab case key slow is measured against
  double slow_factor = 1.5;        //!< slower than the reference by more than this is slow
  //! A time under the fastest the card's memory allows for the exercise's traffic, divided by this,
  //! is impossible (judge.hpp: fastest_possible_ms).
  double impossible_margin = 1.5;
  std::uint64_t odd_elements = 1049187;
  //! An exercise over images: the odd and sanitizer sizes' images (width x height must be
  //! odd_elements and sanitize_elements); other sizes are power_of_two_image. nullopt: 1-D.
  std::optional<Shape> odd_image;
  std::optional<Shape> sanitize_image;
  std::uint64_t sanitize_elements = 4099;
  std::uint64_t lesson_elements = 16777216;  //!< the large size where the card's L2 is unknown
  //! Buffers of the large size the child allocates (guards included), for its memory bound.
  int child_buffers = 1;
  //! Of those, the buffers of the large size a timed call's own (without the lab's: guards and the
  //! output's slots included), which each compute-sanitizer run's replica of a timed call allocates.
  int timed_call_buffers = 1;
  std::uint64_t default_seed = 1;  //!< `labrun grade`'s seed when none is given
  //! Count the words of the submission's own global variables that its first kernel's checked
  //! launches write (ChildSession::own_words_changed; the child keeps their values at load for
  //! every exercise, and sets them back before every call).
  bool watch_own_memory = false;
  //! The probes the child runs at each size, by name, in order: the judge knows a run that stopped
  //! early from the ones missing.
  std::vector<std::string> probes;
  //! The rubric's table. The worked answer's rows may leave what they pass on empty: bound_exercise
  //! writes it from the model ("20 bytes and 2 launches", "within 0.05 of 1.80 and 1.67").
  Rubric rubric;
  ExerciseWording wording;
  WorkedModel model;  //!< filled from the lab's cases by exercise_entry
  //! The exercise's own checks: what its probes' records say about the output at each size, the
  //! structure and the buffers (Judgement's odd/card/structure/buffers verdicts and findings).
  std::function<void(ProbeJudging&)> judge_probes;
  //! Checks one probe record (and one inspection of a timed call) as the judge will read it; throws
  //! when it is not one.
  RecordChecks record_checks;
  //! The device side, created by the grading child once it has loaded the submission.
  std::function<std::unique_ptr<ExerciseChild>(ChildSession&)> child;

  [[nodiscard]] std::vector<std::string> kernel_names() const;
  //! The image at n (odd_image, sanitize_image or power_of_two_image), or nullopt for a 1-D exercise.
  [[nodiscard]] std::optional<Shape> image_at(std::uint64_t n) const;
  [[nodiscard]] ManifestSchema manifest_schema() const;
  //! "day48-fusion/halfway-pair"
  [[nodiscard]] std::string full_name() const { return lab + "/" + name; }
};

}  // namespace labrun
