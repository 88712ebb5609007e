#include "jpeg/dct_blocks.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace gpurotate::detail {
namespace {

// A block row of 8 coefficients in one 16-byte vector (the compilers' vector extensions: SSE2 on x86-64,
// NEON elsewhere), so that a block's sign flips and its transpose are a few dozen vector instructions where
// the scalar loops took one multiply per coefficient (the transform was 18% of a lossless augment's time).
// Unsigned lanes: multiplying by 0xFFFF negates modulo 2^16, defined for every coefficient.
typedef std::uint16_t Row __attribute__((vector_size(16)));
using Block = std::array<Row, 8>;

Block load(const DctBlock& block) {
    Block rows;
    std::memcpy(rows.data(), block, sizeof rows);
    return rows;
}

void store(DctBlock& block, const Block& rows) { std::memcpy(block, rows.data(), sizeof rows); }

// The sign of each output coefficient (row = vertical frequency, column = horizontal): -1 where the
// source coefficient it comes from has an odd frequency along a mirrored source axis.
Block signs_of(AxisMap map) {
    Block signs{};
    for (int row = 0; row < 8; ++row) {
        for (int column = 0; column < 8; ++column) {
            const int source_row = map.swap_axes ? column : row, source_column = map.swap_axes ? row : column;
            const bool negate = (map.mirror_x && source_column % 2) != (map.mirror_y && source_row % 2);
            signs[static_cast<std::size_t>(row)][column] = negate ? 0xffff : 1;
        }
    }
    return signs;
}

// Modulo 2^16: -(-32768) is -32768 again, as in libjpeg's own transforms; real coefficients stay within +-2^11.
Block signed_rows(Block rows, const Block& signs) {
    for (std::size_t i = 0; i < 8; ++i) rows[i] *= signs[i];
    return rows;
}

// Three rounds of interleaving row j with row j + 4 (the perfect shuffle): rows become columns.
Block transposed(Block rows) {
    for (int round = 0; round < 3; ++round) {
        Block next;
        for (std::size_t j = 0; j < 4; ++j) {
            next[2 * j] = __builtin_shufflevector(rows[j], rows[j + 4], 0, 8, 1, 9, 2, 10, 3, 11);
            next[2 * j + 1] = __builtin_shufflevector(rows[j], rows[j + 4], 4, 12, 5, 13, 6, 14, 7, 15);
        }
        rows = next;
    }
    return rows;
}

void copy_block(const DctBlock& source, DctBlock& destination, const Block& signs) { store(destination, signed_rows(load(source), signs)); }

void transpose_block(const DctBlock& source, DctBlock& destination, const Block& signs) {
    store(destination, signed_rows(transposed(load(source)), signs));
}

}  // namespace

void transform_dct_blocks(AxisMap map, DctBlockRows source, std::int64_t width, std::int64_t height, DctBlockRows destination,
                          std::int64_t mirrored_width, std::int64_t mirrored_height) {
    // A block past the mirrored part of an axis is not mirrored along it, so its signs are those of an
    // element without that mirror: four sign tables, [mirrored along x][mirrored along y].
    Block signs[2][2];
    for (const bool x : {false, true}) {
        for (const bool y : {false, true}) signs[x][y] = signs_of(AxisMap{map.swap_axes, map.mirror_x && x, map.mirror_y && y});
    }
    // The mirrored part of each side (none where that axis is not mirrored): a row is split once into its
    // mirrored blocks and the ones past them, so the inner loops choose nothing block by block.
    const std::int64_t mirrored_columns = map.mirror_x ? mirrored_width : 0, mirrored_rows = map.mirror_y ? mirrored_height : 0;
    if (!map.swap_axes) {
        for (std::int64_t y = 0; y < height; ++y) {
            const bool row_mirrored = y < mirrored_rows;
            const DctBlock* from = source[row_mirrored ? mirrored_rows - 1 - y : y];
            DctBlock* to = destination[y];
            for (std::int64_t x = 0; x < mirrored_columns; ++x) copy_block(from[mirrored_columns - 1 - x], to[x], signs[true][row_mirrored]);
            for (std::int64_t x = mirrored_columns; x < width; ++x) copy_block(from[x], to[x], signs[false][row_mirrored]);
        }
        return;
    }
    // The output is height x width blocks. Tiles of 8x8 blocks (8 KiB each way) keep the source rows a tile
    // reads in cache while its columns are gathered.
    constexpr std::int64_t tile = 8;
    for (std::int64_t y0 = 0; y0 < width; y0 += tile) {
        for (std::int64_t x0 = 0; x0 < height; x0 += tile) {
            const std::int64_t x_end = std::min(x0 + tile, height), split = std::clamp(mirrored_rows, x0, x_end);
            for (std::int64_t y = y0; y < std::min(y0 + tile, width); ++y) {
                const bool column_mirrored = y < mirrored_columns;
                const std::int64_t column = column_mirrored ? mirrored_columns - 1 - y : y;
                DctBlock* to = destination[y];
                for (std::int64_t x = x0; x < split; ++x) transpose_block(source[mirrored_rows - 1 - x][column], to[x], signs[column_mirrored][true]);
                for (std::int64_t x = split; x < x_end; ++x) transpose_block(source[x][column], to[x], signs[column_mirrored][false]);
            }
        }
    }
}

}  // namespace gpurotate::detail
