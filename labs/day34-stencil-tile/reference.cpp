// Day 34's float64 reference: one step of the 5-point stencil, edges clamped as the kernels clamp
// them (kernels.cu). lab.cpp declares it.

#include <cstddef>
#include <vector>

namespace day34 {

//! 0.5 x centre + 0.125 x (left + right + up + down) at every cell of a row-major width x height grid
//! (`grid` holds at least width x height cells: labrun::image_reference passes the check's image).
std::vector<double> stencil_reference(const std::vector<float>& grid, std::size_t width, std::size_t height) {
  std::vector<double> out(width * height);
  for (std::size_t y = 0; y < height; ++y) {
    for (std::size_t x = 0; x < width; ++x) {
      const auto at = [&](std::size_t col, std::size_t row) {
        return static_cast<double>(grid[row * width + col]);
      };
      const double neighbours = at(x > 0 ? x - 1 : 0, y) + at(x + 1 < width ? x + 1 : x, y) +
                                at(x, y > 0 ? y - 1 : 0) + at(x, y + 1 < height ? y + 1 : y);
      out[y * width + x] = 0.5 * at(x, y) + 0.125 * neighbours;
    }
  }
  return out;
}

}  // namespace day34
