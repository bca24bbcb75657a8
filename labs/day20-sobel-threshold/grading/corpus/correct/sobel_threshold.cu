// Day-20 corpus: correct. One pixel per thread in 32 x 8 blocks, the lab's own fused kernel as a
// student writes it: the clamped neighbours' columns and rows, the two gradients summed in the lab's
// order, sqrtf, and a strict comparison. Indices are 32-bit, the row offset 64-bit. Full marks.

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
