#pragma once
// Move-only owner of a device allocation (cudaMalloc; never managed memory).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "timing/cuda_check.hpp"

namespace labrun {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) {
      LABRUN_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    }
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  [[nodiscard]] T* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void release() {
    if (data_ != nullptr) {
      LABRUN_CUDA_NOTHROW(cudaFree(data_));
      data_ = nullptr;
    }
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace labrun
