// Day-20 corpus: correct-shared-tile. Each 32 x 8 block first copies its tile of the image with a
// one-pixel halo (34 x 10 floats) into shared memory, every halo pixel read at its clamped
// coordinates, so the edge rule is applied once when loading and the arithmetic reads the tile
// only; then one pixel per thread, summed in the lab's order. A barrier between the load and the
// sums, reached by every thread (threads outside the image return only after it): racecheck and
// synccheck run on it and find nothing. Full marks.

#include <cstddef>

namespace {

constexpr unsigned int kTileWidth = 32;  // the manifest's threads_per_block [32, 8]
constexpr unsigned int kTileHeight = 8;
constexpr unsigned int kHaloWidth = kTileWidth + 2;
constexpr unsigned int kHaloHeight = kTileHeight + 2;

// The coordinate c - 1 + offset, clamped to [0, extent - 1]; c - 1 may be -1, hence the signed sum.
__device__ __forceinline__ unsigned int clamped(unsigned int origin, unsigned int offset,
                                                unsigned int extent) {
  const long long c = static_cast<long long>(origin) - 1 + offset;
  if (c < 0) {
    return 0;
  }
  return c >= extent ? extent - 1 : static_cast<unsigned int>(c);
}

}  // namespace

extern "C" __global__ void sobel_threshold(const float* __restrict__ image, unsigned char* __restrict__ mask,
                                           unsigned int width, unsigned int height, float threshold) {
  __shared__ float tile[kHaloHeight][kHaloWidth];
  const unsigned int origin_x = blockIdx.x * kTileWidth;
  const unsigned int origin_y = blockIdx.y * kTileHeight;
  const unsigned int thread = threadIdx.y * kTileWidth + threadIdx.x;
  for (unsigned int i = thread; i < kHaloWidth * kHaloHeight; i += kTileWidth * kTileHeight) {
    const unsigned int tx = i % kHaloWidth;
    const unsigned int ty = i / kHaloWidth;
    tile[ty][tx] =
        image[static_cast<std::size_t>(clamped(origin_y, ty, height)) * width + clamped(origin_x, tx, width)];
  }
  __syncthreads();

  const unsigned int x = origin_x + threadIdx.x;
  const unsigned int y = origin_y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  // In the tile, the pixel is at (threadIdx.x + 1, threadIdx.y + 1); its clamped neighbours were
  // loaded into the halo around it.
  const float* above = tile[threadIdx.y];
  const float* row = tile[threadIdx.y + 1];
  const float* below = tile[threadIdx.y + 2];
  const unsigned int left = threadIdx.x;
  const unsigned int centre = threadIdx.x + 1;
  const unsigned int right = threadIdx.x + 2;
  const float gx =
      (above[right] + 2.0f * row[right] + below[right]) - (above[left] + 2.0f * row[left] + below[left]);
  const float gy = (below[left] + 2.0f * below[centre] + below[right]) -
                   (above[left] + 2.0f * above[centre] + above[right]);
  mask[static_cast<std::size_t>(y) * width + x] = sqrtf(gx * gx + gy * gy) > threshold ? 1 : 0;
}
