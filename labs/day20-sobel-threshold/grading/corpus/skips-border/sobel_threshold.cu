// Day-20 corpus: skips-border. Interior pixels are right, but the one-pixel frame of the image,
// where the clamping is needed, is written as 0 (no edge) instead of being computed: every byte is
// written and every read is inside the image, so only the values of the frame are wrong.

#include <cstddef>

extern "C" __global__ void sobel_threshold(const float* __restrict__ image, unsigned char* __restrict__ mask,
                                           unsigned int width, unsigned int height, float threshold) {
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  const std::size_t i = static_cast<std::size_t>(y) * width + x;
  if (x == 0 || y == 0 || x + 1 == width || y + 1 == height) {
    mask[i] = 0;
    return;
  }
  const float* above = image + i - width;
  const float* row = image + i;
  const float* below = image + i + width;
  const float gx = (above[1] + 2.0f * row[1] + below[1]) - (above[-1] + 2.0f * row[-1] + below[-1]);
  const float gy = (below[-1] + 2.0f * below[0] + below[1]) - (above[-1] + 2.0f * above[0] + above[1]);
  mask[i] = sqrtf(gx * gx + gy * gy) > threshold ? 1 : 0;
}
