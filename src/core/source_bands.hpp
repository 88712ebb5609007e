#pragma once
// Images larger than the device memory budget stream through the GPU in bands of source rows. A band of
// rows maps to a band of the output (rows, or columns when the element swaps axes), and the element applied
// to the band alone produces exactly that part of the output: its mirrors are relative to the band's own
// frame, and the offset below puts the band's frame where it belongs.

#include <gpurotate/orientation.hpp>

#include <cstdint>

namespace gpurotate::detail {

/// A rectangle of pixels: origin and size.
struct PixelRect {
    std::int64_t x = 0, y = 0, width = 0, height = 0;
};

/// Where source rows [y0, y0 + rows) of a source of `extent` land in the output of `map`.
constexpr PixelRect output_rect_of_source_rows(AxisMap map, Extent extent, std::int64_t y0, std::int64_t rows) {
    // Output pixels read source row H-1-v when mirroring y, else v; v is the output column when the axes
    // swap, else the output row. So the band's first output line is v0.
    const std::int64_t v0 = map.mirror_y ? extent.height - y0 - rows : y0;
    return map.swap_axes ? PixelRect{v0, 0, rows, extent.width} : PixelRect{0, v0, extent.width, rows};
}

}  // namespace gpurotate::detail
