#pragma once
// The roofline of a transcript (day 49): every case with a flop model as a point at its arithmetic
// intensity (its flops per element over its bytes per element) and its measured throughput (its
// flops over its median time), under the card's ceilings measured in the same run: the memory
// ceiling is the best GB/s of the lab's copies, the compute ceiling the GFLOP/s of its peak-FMA
// case (Lab::roofline, recorded as Transcript::roofline), each beside the theoretical peak from the
// device's facts. Everything comes from the transcript: no counters are needed, and where
// `labrun profile` ran, the FP32 instructions Nsight Compute counted are set beside the flop model.
// Host code only; docs/measurement.md, "The roofline", says how to read it.

#include <optional>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "plots/plot_spec.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! One case on the roofline, at one size.
struct RooflinePoint {
  std::string name;
  std::string size_label;
  std::uint64_t elements = 0;
  double flops_per_element = 0.0;  //!< the flop model
  double bytes_per_element = 0.0;  //!< the byte model
  double gflop_per_s = 0.0;        //!< the flop model over the median time
  double gb_per_s = 0.0;           //!< the byte model over the median time
  //! FP32 operations Nsight Compute counted per element (Fp32Instructions::flops over elements),
  //! when `labrun profile` counted this case at this size.
  std::optional<double> counted_flops_per_element;

  //! Flops per byte; 0 for a case that moves no bytes or does no flops.
  [[nodiscard]] double intensity() const {
    return bytes_per_element > 0.0 ? flops_per_element / bytes_per_element : 0.0;
  }
};

//! The ceilings and the points, as a transcript gives them.
struct RooflineFigures {
  double memory_gb_per_s = 0.0;  //!< the best GB/s of the memory ceiling cases
  std::string memory_case;       //!< which case reached it
  std::string memory_size_label;
  double compute_gflop_per_s = 0.0;  //!< the peak-FMA case's GFLOP/s
  std::string compute_case;
  std::uint64_t compute_elements = 0;
  std::optional<double> theoretical_memory_gb_per_s;      //!< device fact memory_peak_gb_per_s
  std::optional<double> theoretical_compute_gflop_per_s;  //!< device fact fp32_peak_gflop_per_s
  std::vector<RooflinePoint> points;                      //!< in run order, one per case
  std::vector<std::string> undeclared;                    //!< timed cases without a flop model, not placed

  //! The intensity at which the memory ceiling meets the compute ceiling (flops per byte).
  [[nodiscard]] double ridge() const {
    return memory_gb_per_s > 0.0 ? compute_gflop_per_s / memory_gb_per_s : 0.0;
  }
  //! The attainable GFLOP/s at an intensity: min(compute ceiling, memory ceiling x intensity).
  [[nodiscard]] double roof_at(double intensity) const;
};

//! The roofline's figures, or why there are none.
struct RooflineOutcome {
  std::optional<RooflineFigures> figures;
  //! Why no roofline can be drawn from a transcript that declares one (a ceiling case not timed);
  //! empty when figures are given, and when the transcript declares no roofline (before 1.7.0, or a
  //! lab without one): then nothing at all is rendered.
  std::string not_drawn;
};

//! The size a case is placed at: card-scaled when it ran there (the L2 cannot hold its traffic),
//! else the lesson's, else the largest it ran at. nullopt when it was not timed.
[[nodiscard]] const CaseResult* roofline_size_of(const Transcript& transcript, const std::string& case_name);

//! The roofline of `transcript` from its figures alone.
[[nodiscard]] RooflineOutcome roofline_of(const Transcript& transcript);

//! The Markdown table of the roofline: a row per point, its ceilings and peaks in the notes.
[[nodiscard]] Table roofline_table(const RooflineFigures& figures);

//! The plot id of the roofline, among the lab's own plots'.
inline constexpr const char* kRooflinePlotId = "roofline";

//! The roofline as a plot: GFLOP/s over flops per byte, both log, the measured ceilings as a line,
//! the theoretical peaks dashed, and each case with flops as a labelled point.
[[nodiscard]] PlotSpec roofline_plot(const RooflineFigures& figures, const std::string& device_name);

//! Every plot of a transcript: its lab's (Lab::plots, when `lab` is given and draws any), then the
//! roofline when the transcript has its figures. `labrun run`, `plot` and `report` draw and link
//! these, so a roofline needs no lab code.
[[nodiscard]] std::vector<PlotSpec> transcript_plots(const Transcript& transcript, const Lab* lab);

}  // namespace labrun
