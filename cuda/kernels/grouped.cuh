#pragma once
// Many images of mixed sizes in one launch: blocks walk the concatenated list of every image's 32x32 output
// tiles; a block finds the image its tile belongs to by binary search in the table of each image's first
// tile, then runs the padded tile body of transpose_tile32_padded.cuh with that image's arguments. The
// tile body serves every element (it maps each output pixel to its source), so each image has its own.

#include "kernels/transpose_tile32_padded.cuh"

namespace gpurotate::detail {

/// The grouped launch's table, in device memory: one TransformArgs and first tile per image.
struct GroupedTable {
    const TransformArgs* images;
    const long long* first_tile;  ///< ascending; image i owns tiles [first_tile[i], first_tile[i + 1])
    int count;
    long long total_tiles;
};

template <class Word>
__global__ void __launch_bounds__(tile32_policy.tile_dim * tile32_policy.block_rows) transpose_grouped_kernel(GroupedTable table) {
    constexpr int tile = tile32_policy.tile_dim;
    __shared__ Word shared[tile][tile + column_padding(tile32_policy)];
    for (long long t = blockIdx.x; t < table.total_tiles; t += gridDim.x) {
        int lo = 0, hi = table.count - 1;  // the last image whose first tile is at or before t
        while (lo < hi) {
            const int mid = lo + (hi - lo + 1) / 2;
            if (table.first_tile[mid] <= t) lo = mid; else hi = mid - 1;
        }
        const TransformArgs a = table.images[lo];
        const int tiles_x = (a.dst_width + tile - 1) / tile;
        const long long local = t - table.first_tile[lo];
        transpose_one_tile<Word, tile, tile, tile32_policy.block_rows, column_padding(tile32_policy)>(
            a, static_cast<int>(local % tiles_x), static_cast<int>(local / tiles_x), shared);
    }
}

}  // namespace gpurotate::detail
