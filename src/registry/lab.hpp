#pragma once
// What a lab declares to the harness: its cases with their byte models and sizes, its
// predictions, its tables, and a session that runs its kernels on a GPU. Host code only; a lab's
// kernels sit behind its session, in the lab's own folder.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "claims/claims.hpp"
#include "core/byte_model.hpp"
#include "core/rounds.hpp"
#include "core/sizes.hpp"
#include "core/transcript.hpp"
#include "grading/grade_request.hpp"
#include "grading/report.hpp"
#include "plots/plot_spec.hpp"

namespace labrun {

//! A size a case runs at. elements == 0 with label "card-scaled" asks the runner for the size
//! scaled to the card's L2 (core/sizes.hpp). An image (2-D) size carries its shape: width x height
//! elements (image_size); the card-scaled image (card_scaled_image) is laid out as
//! power_of_two_image of the card-scaled element count.
struct SizeRequest {
  std::string label;  //!< "lesson", "card-scaled", "sweep": lower-case letters, digits and '-'
  std::uint64_t elements = 0;
  //! An image: width x height == elements; for the card-scaled image {0, 0} (chosen at run time).
  std::optional<Shape> shape = std::nullopt;

  [[nodiscard]] bool is_image() const { return shape.has_value(); }
  [[nodiscard]] bool is_card_scaled() const { return elements == 0; }
};

//! An image of width x height elements at `label`.
[[nodiscard]] SizeRequest image_size(std::string label, std::uint64_t width, std::uint64_t height);
//! The card-scaled size as an image: power_of_two_image of the card-scaled element count.
[[nodiscard]] SizeRequest card_scaled_image();

//! A figure a lab declares for a case beside its byte model (nvbench's state.add_summary): a name,
//! a unit, and either a value (counted from the source: global loads per cell, 5) or a formula over
//! the timed case (its model, n, image, median and attributes). The run records it with the case
//! (CaseResult::declared_figures); the generic tables show it as a column, and `labrun plan` lists it.
struct CaseFigure {
  std::string name;             //!< the column: "global loads"
  std::string unit;             //!< "per cell"
  std::optional<double> value;  //!< declared: the same at every size
  //! A formula: the figure of one timed case; nullopt where the case gives it none (no time).
  std::function<std::optional<double>(const CaseResult&)> formula;
  std::string source;  //!< where the value comes from, or what the formula computes, in words
};

//! A figure of `value` (finite), the same at every size: `declared_figure("global loads", "per cell",
//! 5, "counted from kernels.cu")`.
[[nodiscard]] CaseFigure declared_figure(std::string name, std::string unit, double value,
                                         std::string source);
//! A figure computed from each timed case by `formula`, which `words` describe ("n / median").
[[nodiscard]] CaseFigure formula_figure(std::string name, std::string unit, std::string words,
                                        std::function<std::optional<double>(const CaseResult&)> formula);
//! The formula figure of elements per nanosecond at the case's median (10^9 elements a second):
//! `rate_figure("cells", "10^9/s")`.
[[nodiscard]] CaseFigure rate_figure(std::string name, std::string unit);

struct CaseSpec {
  std::string name;         //!< stable, "<lab>/<part>/<case>"
  std::string part;         //!< "part1" .. for grouping into tables
  std::string label;        //!< the row label
  ByteModel model;          //!< bytes, launches and (optionally) flops per element
  std::string verified_by;  //!< correctness version covering this case's kernels; "" for none
  std::vector<SizeRequest> sizes;
  int launches_per_sample = 1;           //!< region executions inside one timed sample
  std::vector<CaseFigure> figures = {};  //!< the lab's own figures for this case, as columns

  //! The declared sizes with their labels: "lesson 16777216, sweep 1024, card-scaled",
  //! "lesson 4096x4096, card-scaled image".
  [[nodiscard]] std::string describe_sizes() const;
  //! Whether the case declares a size with this label.
  [[nodiscard]] bool declares_size(const std::string& size_label) const;
};

//! "<lab>/<part>/<name>": a case's full name from its parts.
[[nodiscard]] std::string case_name(const std::string& lab, const std::string& part, const std::string& name);

//! A case's spec from its full name ("<lab>/<part>/<name>"; its part is taken from it), row label,
//! model, sizes and launches per sample. No sizes: the lab's own (cases/declared_lab.hpp:
//! LabDeclaration::sizes). Throws std::invalid_argument for a name that is not three parts joined
//! by '/'.
[[nodiscard]] CaseSpec case_spec(const std::string& name, std::string label, ByteModel model,
                                 std::vector<SizeRequest> sizes = {}, int launches_per_sample = 1);

//! The figures `spec` declares for one timed case of it, as the transcript records them.
[[nodiscard]] std::vector<DeclaredFigure> declared_figures_of(const CaseSpec& spec, const CaseResult& result);

//! A claim that the time ratio of two of `cases` at `size_label` (or kEverySize) follows the byte
//! ratio of their models within `tolerance` (a fraction): a kTimeRatio claim (claims/claims.hpp)
//! whose expectation is derived, never typed, and checked again when the lab registers. In
//! `statement`, "{byte_ratio}" and "{launch_ratio}" become the two models' ratios to two decimals
//! ("3.00"). Throws std::invalid_argument when `cases` lacks either case.
[[nodiscard]] ClaimSpec byte_ratio_claim(std::string id, const std::string& statement,
                                         const std::vector<CaseSpec>& cases, const std::string& slower_case,
                                         const std::string& faster_case, std::string size_label,
                                         double tolerance);
//! As byte_ratio_claim, one-sided: the time ratio is at least `share` of the byte ratio (0.9: at
//! most 10% short of it), and more is allowed (a read-only stream that runs faster per byte).
[[nodiscard]] ClaimSpec byte_ratio_floor_claim(std::string id, const std::string& statement,
                                               const std::vector<CaseSpec>& cases,
                                               const std::string& slower_case, const std::string& faster_case,
                                               std::string size_label, double share);

//! `statement` with "{byte_ratio}" and "{launch_ratio}" replaced by `ratios`, two decimals each.
[[nodiscard]] std::string with_ratios(std::string statement, const PredictedRatios& ratios);

//! The image a case runs on at `elements`: the declared image size of that many elements, or, for
//! a case that declares image sizes, power_of_two_image(elements) (its card-scaled size, a size
//! capped for a smoke run); nullopt for a case of 1-D sizes. The runner records it and the session
//! builds the case's region with it (RegionContext::shape), from this one function.
[[nodiscard]] std::optional<Shape> shape_at(const CaseSpec& spec, std::uint64_t elements);

//! A ratio the byte model predicts between two of the lab's cases.
struct Prediction {
  std::string description;
  std::string slower_case;  //!< numerator
  std::string faster_case;  //!< denominator
};

//! Which of a lab's cases give its roofline's ceilings (evidence/roofline.hpp), measured in the same
//! run as the cases placed under them. Empty: the lab draws no roofline.
struct RooflineCases {
  //! Copies: the memory ceiling is the best GB/s among them at the roofline's size.
  std::vector<std::string> memory_ceiling_cases;
  //! A kernel of independent fused multiply-adds (cases/reference_cases.hpp: add_peak_fma_case):
  //! its GFLOP/s is the compute ceiling.
  std::string compute_ceiling_case;

  [[nodiscard]] bool empty() const { return memory_ceiling_cases.empty() && compute_ceiling_case.empty(); }
};

//! Which of a lab's cases give the figures `labrun aggregate` puts in each card's row
//! (src/aggregate). A name left empty: the lab has no such case, and the figure is not measured.
struct CardFigures {
  //! Sizes the GB/s figures and the predicted ratios are read at, preferred first: a run's GB/s
  //! come from the first of them it ran the copy floor at.
  std::vector<std::string> size_labels{"card-scaled", "lesson"};
  std::string copy_floor_case;             //!< one read and one write per element
  std::vector<std::string> ceiling_cases;  //!< the best GB/s of these and the floor is the ceiling
  std::string launch_case;                 //!< its central time per launch is the cost of a launch
  //! A pair swept over n: the aggregate finds the smallest n from which slower over faster stays
  //! within settle_tolerance (a fraction) of their byte ratio.
  std::string sweep_slower_case;
  std::string sweep_faster_case;
  double settle_tolerance = 0.10;
};

//! One case at one size, ready to be timed by the harness (src/timing/sampler). The session owns
//! everything `run` touches and keeps it valid until the session closes: with --order interleave
//! the harness holds the regions of every case at once and runs them in turns.
struct CaseRegion {
  //! One execution of the case: enqueues its work on the legacy default stream (stream 0) and
  //! returns without synchronising. The harness times launches_per_sample executions per sample.
  std::function<void()> run;
  std::map<std::string, double> attributes;  //!< per-case facts: blocks, registers, occupancy, ...
};

//! A table ready for rendering: plain strings, one alignment per column.
struct Table {
  std::string title;
  std::vector<std::string> notes;  //!< lines printed under the title
  std::vector<std::string> headers;
  std::vector<bool> right_aligned;  //!< per column
  std::vector<std::vector<std::string>> rows;
};

//! A lab's GPU side for one run. Created once a device is known to be usable.
class LabSession {
 public:
  virtual ~LabSession() = default;
  //! Runs each named version once on seeded inputs of `elements` with poisoned outputs and
  //! compares it with the float64 reference; also fills the bitwise comparisons.
  virtual void check_correctness(const std::vector<std::string>& versions, std::uint64_t elements,
                                 std::uint64_t seed, std::vector<CorrectnessCheck>& checks,
                                 std::vector<BitwiseComparison>& bitwise) = 0;
  //! Facts about the lab's compiled kernels on this device (the machine code they run as, ...),
  //! recorded in the transcript's "lab" group.
  [[nodiscard]] virtual std::vector<Fact> facts() = 0;
  //! Prepares one case at one size for timing. Throws std::invalid_argument for a case the session
  //! does not know and labrun::CudaError on a CUDA error.
  [[nodiscard]] virtual CaseRegion prepare_case(const CaseSpec& spec, std::uint64_t elements) = 0;
  //! A new round (core/rounds.hpp): frees every buffer the session allocated and allocates it again,
  //! after an untouched allocation of `placement_offset_bytes` that the session holds until the next
  //! renewal or its end, so that the buffers need not land where they were; then fills the inputs
  //! from the same seed and primes as when it opened. Every CaseRegion prepared before is invalid
  //! afterwards (its buffers are gone), and so is every CUDA graph. Throws labrun::CudaError.
  virtual void renew_buffers(std::size_t placement_offset_bytes) = 0;
};

//! A student's submission that `labrun run LAB --submission DIR` cannot use: no single .cu file, no
//! usable worked answer, a source the grader's check refuses, a compile error, kernels that break
//! the contract or fail or hang on a trial run. The message says what to fix (exit status 7).
class SubmissionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
//! labrun's exit status for a SubmissionError (cli/exit_codes.hpp), for code that must end the
//! process itself (a kernel that never ends cannot be unwound).
inline constexpr int kSubmissionExitStatus = 7;

//! Settings a session is opened with.
struct SessionConfig {
  std::uint64_t max_elements = 0;  //!< the largest size any selected case runs at
  std::uint64_t seed = 0;
  //! The image the correctness check runs on (Lab::correctness_shape); nullopt for a 1-D lab.
  std::optional<Shape> correctness_shape = std::nullopt;
};

struct Lab;

//! One graded exercise of a lab, as the command line and the grading child use it: built from the
//! exercise's declaration by exercise/exercise_entry.hpp.
struct LabExercise {
  std::string name;                       //!< "sum-of-squares", unique among the build's exercises
  std::string lab;                        //!< its lab's name
  std::string title;                      //!< one line for `labrun list`
  std::vector<std::string> kernel_names;  //!< its contract's kernels, by which a manifest names it
  std::uint64_t default_seed = 1;         //!< `labrun grade`'s seed when none is given
  //! Grades one submission. Never throws for anything a submission does.
  std::function<GradeReport(const GradeRequest&, const std::function<void(const std::string&)>&)> grade;
  //! Batch grading: measures, once per GPU and with that GPU to itself, what every grading of this
  //! exercise on it shares (GradeRequest::shared), with "max_concurrent": gradings the GPU holds at
  //! once. Throws std::runtime_error when it cannot.
  std::function<nlohmann::ordered_json(const GradeRequest&, const std::function<void(const std::string&)>&)>
      prepare_grading;
  //! `labrun run LAB --submission DIR`: the lab with a student's submission declared as one more
  //! case (and its check, predictions and facts), loaded the grader's trusted way. `progress` gets a
  //! line per step. Throws SubmissionError for a submission it cannot use and labrun::NoDeviceError
  //! when no GPU can compile and load it. Empty when the exercise gives no such row.
  std::function<Lab(const Lab& lab, const std::filesystem::path& folder,
                    const std::function<void(const std::string&)>& progress)>
      with_submission;
  //! The grading child's work for one request (its JSON, exercise/child_protocol.hpp): the child's
  //! exit status.
  std::function<int(const nlohmann::ordered_json& request)> run_child;
  //! The exercise's declaration, bound to its lab: opaque here (the registry sits below
  //! src/exercise); exercise/exercise_entry.hpp's declaration_of reads it.
  std::shared_ptr<const void> declaration;
  //! "day48-fusion/halfway-pair"
  [[nodiscard]] std::string full_name() const { return lab + "/" + name; }
};

struct Lab {
  std::string name;  //!< "day48-fusion": case names start with it
  std::string title;
  std::string summary;              //!< one line for `labrun list`
  std::uint64_t element_bytes = 4;  //!< bytes of one element of a case's buffers
  std::uint64_t card_scaled_l2_multiple = 8;
  int buffers_at_max_size = 1;  //!< device buffers of max_elements a session allocates
  std::uint64_t correctness_elements = 0;
  //! A lab of image cases checks correctness on this image (odd width and height, so that every
  //! bounds check of a 2-D grid fires); width x height must be correctness_elements.
  std::optional<Shape> correctness_shape;
  std::vector<CaseSpec> cases;
  std::vector<Prediction> predictions;
  std::vector<ClaimSpec> claims;  //!< the lesson's claims, checked against every run
  std::string stability_case;     //!< timed a second time at the end of a run, at its largest size
  //! The rounds `labrun run` takes when --rounds is not given (each in a CUDA context of its own at
  //! the default --rounds-per-context): kDefaultRounds unless the lab's claims need the figures of
  //! more contexts; at least 2.
  int default_rounds = kDefaultRounds;
  std::function<std::unique_ptr<LabSession>(const SessionConfig&)> open_session;
  //! The exercises `labrun grade` grades, each declared in the lab's folder (exercise/exercise.hpp);
  //! empty when the lab has none.
  std::vector<LabExercise> exercises;
  //! Exercises whose declaration has a mistake, left out of the lab (with_exercises), each as
  //! (what its registration names it, why); the lab and its other exercises still work.
  std::vector<std::pair<std::string, std::string>> left_out_exercises;
  //! The lab's own tables, rendered from a transcript alone.
  std::function<std::vector<Table>(const Transcript&)> render_tables;
  //! The lab's plots, as data computed from a transcript alone (drawn by src/plots); empty when
  //! the lab draws none.
  std::function<std::vector<PlotSpec>(const Transcript&)> plots;
  //! The cases behind each card's row in `labrun aggregate`.
  CardFigures card_figures;
  //! The cases behind the roofline's ceilings; empty: no roofline.
  RooflineCases roofline;

  [[nodiscard]] const CaseSpec* find_case(const std::string& case_name) const;
  //! The exercise of that name (without the lab's), or nullptr.
  [[nodiscard]] const LabExercise* find_exercise(const std::string& exercise_name) const;
};

//! One exercise's registration (labrun_register_exercise, labs/CMakeLists.txt): its factory, given
//! the lab whose cases its worked answer is taken from, and the name the factory is registered by.
struct ExerciseFactory {
  const char* registered_as;
  LabExercise (*make)(const Lab&);
};

//! `lab` with one exercise from each factory, in order. A factory that throws (a mistake in its
//! declaration) leaves that exercise out, recorded in left_out_exercises with the reason, and
//! nothing else.
[[nodiscard]] Lab with_exercises(Lab lab, const std::vector<ExerciseFactory>& factories);

//! Each case of `transcript` given the figures `lab` declares for it (declared_figures_of): what a
//! run records once its cases are timed. A case the lab does not declare keeps none.
void record_declared_figures(const Lab& lab, Transcript& transcript);

//! The lab of a name, or nullptr when this build has none. The command line passes the registry
//! (registry/registry.hpp); code below it that needs a lab by name takes one of these.
using LabLookup = std::function<const Lab*(const std::string&)>;

}  // namespace labrun
