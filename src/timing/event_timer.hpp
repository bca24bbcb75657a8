#pragma once
// Timing with CUDA events around a region of work on one stream.

#include <cuda_runtime_api.h>

namespace labrun {

//! A pair of CUDA events; move-only.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream);
  //! Records the stop event, waits for it, and returns the elapsed time in milliseconds.
  [[nodiscard]] double stop_ms(cudaStream_t stream);
  //! Records the stop event without waiting for it.
  void record_stop(cudaStream_t stream);
  //! Waits for the recorded stop event and returns the elapsed time in milliseconds.
  [[nodiscard]] double elapsed_ms();

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace labrun
