#include "timing/event_timer.hpp"

#include "timing/cuda_check.hpp"

namespace labrun {

EventTimer::EventTimer() {
  LABRUN_CUDA_CHECK(cudaEventCreate(&start_));
  LABRUN_CUDA_CHECK(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  LABRUN_CUDA_NOTHROW(cudaEventDestroy(start_));
  LABRUN_CUDA_NOTHROW(cudaEventDestroy(stop_));
}

void EventTimer::start(cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaEventRecord(start_, stream));
}

double EventTimer::stop_ms(cudaStream_t stream) {
  record_stop(stream);
  return elapsed_ms();
}

void EventTimer::record_stop(cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaEventRecord(stop_, stream));
}

double EventTimer::elapsed_ms() {
  LABRUN_CUDA_CHECK(cudaEventSynchronize(stop_));
  float elapsed = 0.0f;
  LABRUN_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start_, stop_));
  return static_cast<double>(elapsed);
}

}  // namespace labrun
