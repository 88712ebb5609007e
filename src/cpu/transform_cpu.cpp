#include "cpu/transform_cpu.hpp"

#include "core/parallel_for.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>
#include <cstring>

namespace gpurotate::detail {
namespace {

// Words are moved with memcpy: the pixel bytes may live in any buffer, and memcpy of a fixed small size
// compiles to plain loads and stores without breaking aliasing rules.
template <class Word>
inline void copy_word(std::byte* dst, const std::byte* src) {
    std::memcpy(dst, src, sizeof(Word));
}

// Rows of a non-transposing element: each output row is one source row, reversed for mirror_x.
template <class Word>
void mirror_rows(ConstImageView src, ImageView dst, AxisMap map, std::int64_t y_begin, std::int64_t y_end) {
    const Extent extent = src.extent();
    for (std::int64_t y = y_begin; y < y_end; ++y) {
        const std::byte* source_row = src.row(source_of(map, extent, 0, y).y);
        std::byte* out = dst.row(y);
        if (!map.mirror_x) {
            std::memcpy(out, source_row, dst.row_bytes());
            continue;
        }
        for (std::int64_t x = 0; x < dst.width; ++x) {
            copy_word<Word>(out + x * sizeof(Word), source_row + source_of(map, extent, x, y).x * sizeof(Word));
        }
    }
}

// Rows of a transposing element, in square tiles so that the source columns one tile reads stay in cache
// while the tile's output rows are written.
template <class Word>
void transpose_rows(ConstImageView src, ImageView dst, AxisMap map, std::int64_t y_begin, std::int64_t y_end) {
    constexpr std::int64_t tile = sizeof(Word) <= 4 ? 64 : 32;
    const Extent extent = src.extent();
    for (std::int64_t tile_y = y_begin; tile_y < y_end; tile_y += tile) {
        const std::int64_t y_stop = std::min(tile_y + tile, y_end);
        for (std::int64_t tile_x = 0; tile_x < dst.width; tile_x += tile) {
            const std::int64_t x_stop = std::min(tile_x + tile, dst.width);
            for (std::int64_t y = tile_y; y < y_stop; ++y) {
                std::byte* out = dst.row(y);
                for (std::int64_t x = tile_x; x < x_stop; ++x) {
                    const SourcePoint s = source_of(map, extent, x, y);
                    copy_word<Word>(out + x * sizeof(Word), src.row(s.y) + s.x * sizeof(Word));
                }
            }
        }
    }
}

}  // namespace

void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads) {
    const std::size_t bytes = src.format.pixel_bytes();
    // Alignment does not matter to memcpy; the unaligned words keep the instantiation count down.
    visit_pixel_word(bytes, false, [&](auto word) {
        using Word = decltype(word);
        // Roughly 256 KiB of output per thread at least, so small images do not pay for thread start-up.
        const std::int64_t min_rows = std::max<std::int64_t>(1, (256 << 10) / std::max<std::size_t>(1, dst.row_bytes()));
        parallel_for(dst.height, min_rows, [&](std::int64_t begin, std::int64_t end) {
            if (map.swap_axes) {
                transpose_rows<Word>(src, dst, map, begin, end);
            } else {
                mirror_rows<Word>(src, dst, map, begin, end);
            }
        }, max_threads);
    });
}

}  // namespace gpurotate::detail
