// Day-20 corpus: edge-off-by-one (graded as a wrong mask). The clamp uses the image's size where it
// needs its last index, min(x + 1, width) for min(x + 1, width - 1), and likewise for rows: in the
// last column the right neighbours are the first pixels of the next rows, and in the last row the
// row below is read past the end of the image (an out-of-bounds read compute-sanitizer reports).
// The mask is wrong along the right and bottom edges.

#include <cstddef>

extern "C" __global__ void sobel_threshold(const float* __restrict__ image, unsigned char* __restrict__ mask,
                                           unsigned int width, unsigned int height, float threshold) {
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  const unsigned int left = x > 0 ? x - 1 : 0;
  const unsigned int right = min(x + 1, width);  // should be width - 1
  const float* above = image + static_cast<std::size_t>(y > 0 ? y - 1 : 0) * width;
  const float* row = image + static_cast<std::size_t>(y) * width;
  const float* below = image + static_cast<std::size_t>(min(y + 1, height)) * width;  // height - 1
  const float gx =
      (above[right] + 2.0f * row[right] + below[right]) - (above[left] + 2.0f * row[left] + below[left]);
  const float gy =
      (below[left] + 2.0f * below[x] + below[right]) - (above[left] + 2.0f * above[x] + above[right]);
  mask[static_cast<std::size_t>(y) * width + x] = sqrtf(gx * gx + gy * gy) > threshold ? 1 : 0;
}
