#pragma once
// The harnesses' check that a lossless coding gave the pixels back: same size and format, every row's bytes equal
// (the padding between rows is not compared).

#include <gpurotate/image.hpp>

#include <cstring>

namespace gpurotate::fuzz {

inline bool same_pixels(ConstImageView a, ConstImageView b) {
    if (a.width != b.width || a.height != b.height || a.format != b.format) return false;
    for (std::int64_t y = 0; y < a.height; ++y) {
        if (std::memcmp(a.row(y), b.row(y), a.row_bytes()) != 0) return false;
    }
    return true;
}

}  // namespace gpurotate::fuzz
