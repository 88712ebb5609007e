#pragma once
// The independent reference: each operation written out as the formula its definition gives
// (ImageMagick's -rotate, -flop, -flip, -transpose, -transverse), in a plain nested loop that shares
// nothing with the library's axis maps or kernels.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

#include <cstring>
#include <stdexcept>

namespace reference {

inline gpurotate::Image transform(const gpurotate::Image& in, gpurotate::Orientation op) {
    using gpurotate::Orientation;
    const std::int64_t W = in.width(), H = in.height();
    const bool swapped = op == Orientation::rot90 || op == Orientation::rot270 || op == Orientation::transpose ||
                         op == Orientation::transverse;
    gpurotate::Image out(swapped ? H : W, swapped ? W : H, in.format());
    const std::size_t pixel = in.format().pixel_bytes();
    for (std::int64_t y = 0; y < out.height(); ++y) {
        for (std::int64_t x = 0; x < out.width(); ++x) {
            std::int64_t sx = 0, sy = 0;
            switch (op) {
                case Orientation::identity: sx = x; sy = y; break;
                case Orientation::rot90: sx = y; sy = H - 1 - x; break;
                case Orientation::rot180: sx = W - 1 - x; sy = H - 1 - y; break;
                case Orientation::rot270: sx = W - 1 - y; sy = x; break;
                case Orientation::flip_h: sx = W - 1 - x; sy = y; break;
                case Orientation::flip_v: sx = x; sy = H - 1 - y; break;
                case Orientation::transpose: sx = y; sy = x; break;
                case Orientation::transverse: sx = W - 1 - y; sy = H - 1 - x; break;
            }
            std::memcpy(out.view().row(y) + x * pixel, in.view().row(sy) + sx * pixel, pixel);
        }
    }
    return out;
}

}  // namespace reference
