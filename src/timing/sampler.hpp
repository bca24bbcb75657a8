#pragma once
// Takes a case's samples the way the run asks: hot or cold, with the SM clock read after every
// sample. The stop rule itself is host logic (core/sampling).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "core/sampling.hpp"
#include "timing/device_buffer.hpp"
#include "timing/event_timer.hpp"

namespace labrun {

//! Evicts a case's data from the L2 before a cold sample: resets persisting L2 lines (where the
//! card has them), then reads a buffer of `multiple` times the L2 size (timing/probes.hpp says why
//! it reads rather than writes).
class L2Flusher {
 public:
  L2Flusher(std::size_t l2_bytes, int multiple, int sm_count);
  //! `clock_out`: where the flush times the SM clock (ClockProbe::flush_clock_words); null: it does not.
  void flush(cudaStream_t stream, unsigned long long* clock_out = nullptr);
  [[nodiscard]] std::size_t bytes() const { return buffer_.bytes(); }
  //! The buffer the flush reads (and never writes).
  [[nodiscard]] const void* data() const { return buffer_.data(); }
  [[nodiscard]] bool resets_persisting_lines() const { return resets_persisting_lines_; }

 private:
  DeviceBuffer<uint4> buffer_;
  DeviceBuffer<unsigned> sink_;
  int sm_count_ = 0;
  bool resets_persisting_lines_ = false;
};

//! Reads the SM clock by timing clock64 against %globaltimer in a one-thread kernel.
class ClockProbe {
 public:
  //! max_plausible_mhz: readings above it are probe failures, not clocks (the thread moved to
  //! another SM, whose clock64 counts from elsewhere, or the timer jumped); 0: no limit.
  //! spin_ns: nanoseconds the probe kernel spins; longer is more precise and costs more per sample.
  explicit ClockProbe(double max_plausible_mhz = 0.0, unsigned long long spin_ns = 20000);
  //! The SM clock in MHz over the probe's spin; synchronises the stream. nullopt when the timer did
  //! not advance (a device whose %globaltimer does not tick) or the reading is implausible.
  [[nodiscard]] std::optional<double> sm_clock_mhz(cudaStream_t stream);
  //! The probe's two words of device memory, for a flush that times the clock itself
  //! (L2Flusher::flush's clock_out).
  [[nodiscard]] unsigned long long* flush_clock_words() { return result_.data(); }
  //! The SM clock in MHz that the last flush given flush_clock_words() timed, read once that flush is
  //! done; synchronises the stream. nullopt as for sm_clock_mhz.
  [[nodiscard]] std::optional<double> clock_mhz_from_flush(cudaStream_t stream);

 private:
  //! Copies the two words back (synchronising the stream) and turns them into MHz.
  [[nodiscard]] std::optional<double> read_back(cudaStream_t stream);

  DeviceBuffer<unsigned long long> result_;
  unsigned long long spin_ns_;
  double max_plausible_mhz_;
};

//! Holds a stream behind a one-thread gate kernel until the host releases it (hot-gated mode): the
//! sample's launches queue up behind the gate, so the GPU never waits for the host inside the
//! sample. Two ints of host-mapped pinned memory carry the release flag and the time-out flag.
class LaunchGate {
 public:
  LaunchGate();
  ~LaunchGate();
  LaunchGate(const LaunchGate&) = delete;
  LaunchGate& operator=(const LaunchGate&) = delete;

  //! Closes the gate and enqueues the gate kernel on the stream.
  void hold(cudaStream_t stream);
  //! Opens the gate (the host writes the flag the kernel spins on).
  void release();
  //! After the stream has passed the gate: whether it gave up waiting (kGateTimeoutNs).
  [[nodiscard]] bool timed_out() const;

 private:
  volatile int* host_ = nullptr;  // [0] release, [1] timed out
  int* device_ = nullptr;
};

//! A case's samples so far. Each sample times executions_per_sample back-to-back executions of the
//! region between two CUDA events; in cold mode the flusher runs before the start event, and with a
//! probe it times the sample's SM clock too.
class CaseSampler {
 public:
  //! flusher: required in cold mode; gate: required in hot-gated mode; probe: may be null (no
  //! clock recorded).
  CaseSampler(std::function<void()> region, int executions_per_sample, TimingMode mode, L2Flusher* flusher,
              ClockProbe* probe, LaunchGate* gate = nullptr, cudaStream_t stream = nullptr);

  //! Work around every sample, outside its time: `before` runs ahead of the cold flush and the start
  //! event (the grader's fresh inputs and poisoned outputs), `after` once the sample's time has been
  //! read (the grader's check of its output). Either may be empty; labs set neither.
  void set_sample_hooks(std::function<void()> before, std::function<void()> after);

  //! Untimed executions (module loading and first-touch costs stay out of the samples).
  void warm_up(int warmups);
  //! Takes `count` more samples; a launch error or failed kernel throws CudaError.
  void take(int count);

  [[nodiscard]] const std::vector<double>& samples_ms() const { return samples_ms_; }
  //! Per sample: the SM clock, MHz, just after it (hot and hot-gated: the probe's kernel) or over the
  //! flush just before it (cold: the flush times it, so that no kernel runs between cold samples);
  //! nullopt when it could not be read.
  [[nodiscard]] const std::vector<std::optional<double>>& sm_clock_mhz() const { return sm_clock_mhz_; }
  //! Wall seconds spent in warm_up and take so far.
  [[nodiscard]] double elapsed_s() const { return elapsed_s_; }
  //! Hot-gated mode: indices of samples whose gate timed out before the host released it (their
  //! time includes part of the gate's wait).
  [[nodiscard]] const std::vector<std::size_t>& gate_timeout_samples() const { return gate_timeouts_; }

 private:
  std::function<void()> region_;
  std::function<void()> before_sample_;
  std::function<void()> after_sample_;
  int executions_per_sample_;
  TimingMode mode_;
  L2Flusher* flusher_;
  ClockProbe* probe_;
  LaunchGate* gate_;
  cudaStream_t stream_;
  EventTimer timer_;
  std::vector<double> samples_ms_;
  std::vector<std::optional<double>> sm_clock_mhz_;
  double elapsed_s_ = 0.0;
  std::vector<std::size_t> gate_timeouts_;
};

}  // namespace labrun
