#pragma once
// Tuning is data: the tile shapes of the kernels, and the shared-memory padding derived from them.

namespace gpurotate::detail {

/// A square tile moved by a block of `tile_dim` x `block_rows` threads, `tile_dim / block_rows` pixels each.
struct TilePolicy {
    int tile_dim;
    int block_rows;
    /// Pixels per thread, the loop count of each phase.
    constexpr int pixels_per_thread() const { return tile_dim / block_rows; }
    constexpr int threads() const { return tile_dim * block_rows; }
};

/// The textbook tile: 32x32 pixels, 32x8 threads, 4 pixels per thread.
inline constexpr TilePolicy tile32_policy{32, 8};

/// Padding of a row-major shared tile so that reading a column touches each bank once: one word per
/// row shifts consecutive rows by one bank (tile_dim = 32, the 32 banks of 4 bytes).
constexpr int column_padding(TilePolicy) { return 1; }

/// The 16x16 "skip-lines" tile, one thread per pixel: a warp covers two rows of 16, so padding goes in every
/// `lines_to_skip` rows, `lines_to_skip` words at a time (index x + 16 y + (y / 2) * 2).
struct SkipLinesPolicy {
    int tile_dim;
    /// Rows one warp covers: 32 / tile_dim.
    constexpr int lines_to_skip() const { return 32 / tile_dim; }
    /// Shared-memory words of the padded tile.
    constexpr int shared_words() const { return tile_dim * tile_dim + (tile_dim / lines_to_skip()) * lines_to_skip(); }
    /// Shared-memory index of element (row, col) of the tile.
    __host__ __device__ constexpr int index(int row, int col) const {
        return col + tile_dim * row + (row / lines_to_skip()) * lines_to_skip();
    }
};

inline constexpr SkipLinesPolicy tile16_skiplines_policy{16};

/// gridDim.y is limited to 65535; kernels stride over tile rows beyond that.
inline constexpr unsigned max_grid_y = 65535;

}  // namespace gpurotate::detail
