// Day-20 corpus: wrong-predictions. The correct one-pixel-per-thread kernel, but the manifest
// predicts the launch ratio 2.0 (two launches against one) instead of the byte ratio 13 / 5 = 2.6.

#include <cstddef>

extern "C" __global__ void sobel_threshold(const float* __restrict__ image, unsigned char* __restrict__ mask,
                                           unsigned int width, unsigned int height, float threshold) {
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  const unsigned int left = x > 0 ? x - 1 : 0;
  const unsigned int right = x + 1 < width ? x + 1 : x;
  const float* above = image + static_cast<std::size_t>(y > 0 ? y - 1 : 0) * width;
  const float* row = image + static_cast<std::size_t>(y) * width;
  const float* below = image + static_cast<std::size_t>(y + 1 < height ? y + 1 : y) * width;
  const float gx =
      (above[right] + 2.0f * row[right] + below[right]) - (above[left] + 2.0f * row[left] + below[left]);
  const float gy =
      (below[left] + 2.0f * below[x] + below[right]) - (above[left] + 2.0f * above[x] + above[right]);
  mask[static_cast<std::size_t>(y) * width + x] = sqrtf(gx * gx + gy * gy) > threshold ? 1 : 0;
}
