#include "codecs/dct_blocks.hpp"

#include <algorithm>
#include <array>

namespace gpurotate::detail {
namespace {

using Signs = std::array<std::int16_t, 64>;

// The sign of each output coefficient (row = vertical frequency, column = horizontal): -1 where the
// source coefficient it comes from has an odd frequency along a mirrored source axis.
Signs signs_of(AxisMap map) {
    Signs signs{};
    for (int row = 0; row < 8; ++row) {
        for (int column = 0; column < 8; ++column) {
            const int source_row = map.swap_axes ? column : row, source_column = map.swap_axes ? row : column;
            const bool negate = (map.mirror_x && source_column % 2) != (map.mirror_y && source_row % 2);
            signs[static_cast<std::size_t>(row * 8 + column)] = negate ? -1 : 1;
        }
    }
    return signs;
}

// In int: -(-32768) wraps back into int16 as libjpeg's own transforms do; real coefficients stay within +-2^11.
void copy_block(const DctBlock& source, DctBlock& destination, const Signs& signs) {
    for (int i = 0; i < 64; ++i) destination[i] = static_cast<std::int16_t>(source[i] * signs[static_cast<std::size_t>(i)]);
}

void transpose_block(const DctBlock& source, DctBlock& destination, const Signs& signs) {
    for (int row = 0; row < 8; ++row) {
        for (int column = 0; column < 8; ++column) {
            const int i = row * 8 + column;
            destination[i] = static_cast<std::int16_t>(source[column * 8 + row] * signs[static_cast<std::size_t>(i)]);
        }
    }
}

}  // namespace

void transform_dct_blocks(AxisMap map, DctBlockRows source, std::int64_t width, std::int64_t height, DctBlockRows destination) {
    const Signs signs = signs_of(map);
    if (!map.swap_axes) {
        for (std::int64_t y = 0; y < height; ++y) {
            const DctBlock* from = source[map.mirror_y ? height - 1 - y : y];
            DctBlock* to = destination[y];
            for (std::int64_t x = 0; x < width; ++x) copy_block(from[map.mirror_x ? width - 1 - x : x], to[x], signs);
        }
        return;
    }
    // The output is height x width blocks. Tiles of 8x8 blocks (8 KiB each way) keep the source rows a tile
    // reads in cache while its columns are gathered.
    constexpr std::int64_t tile = 8;
    for (std::int64_t y0 = 0; y0 < width; y0 += tile) {
        for (std::int64_t x0 = 0; x0 < height; x0 += tile) {
            for (std::int64_t y = y0; y < std::min(y0 + tile, width); ++y) {
                const std::int64_t source_x = map.mirror_x ? width - 1 - y : y;
                DctBlock* to = destination[y];
                for (std::int64_t x = x0; x < std::min(x0 + tile, height); ++x) {
                    const std::int64_t source_y = map.mirror_y ? height - 1 - x : x;
                    transpose_block(source[source_y][source_x], to[x], signs);
                }
            }
        }
    }
}

}  // namespace gpurotate::detail
