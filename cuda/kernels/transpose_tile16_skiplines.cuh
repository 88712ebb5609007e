#pragma once
// The 16x16 transpose with "skip-lines" padding (seed 003): one thread per pixel, and a warp spans two
// rows of the tile. Padding one word per row would leave the two rows of a warp colliding, so two words
// are inserted every second row: index x + 16 y + (y / 2) * 2, which spreads a warp's 32 column accesses
// over 32 banks for 4-byte words. Mirrors are folded into the source lookup as in the 32x32 kernel.

#include "kernels/pixel_access.cuh"
#include "kernels/tile_policy.cuh"

namespace gpurotate::detail {

template <class Word, class Passes = OnePass>
__global__ void __launch_bounds__(256) transpose_tile16_skiplines_kernel(TransformArgs args, Passes passes) {
    const TransformArgs a = for_this_image(args);
    constexpr SkipLinesPolicy policy = tile16_skiplines_policy;
    constexpr int tile_dim = policy.tile_dim;
    __shared__ Word tile[policy.shared_words()];
    const int tx = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    const int x0 = static_cast<int>(blockIdx.x) * tile_dim;
    for (int step = static_cast<int>(blockIdx.y); step < a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        const int tile_row = tile_row_of(a, step);
        const int y0 = tile_row * tile_dim;
        // Row tx of the shared tile holds output row y0 + tx; the load writes it column-wise (transposed).
        if (inside_output(a, x0 + ty, y0 + tx)) {
            tile[policy.index(tx, ty)] = load_source<Word>(a, source_of(a.map, a.src_extent, x0 + ty, y0 + tx));
        }
        __syncthreads();
        if (inside_output(a, x0 + tx, y0 + ty)) store_output<Word>(a, x0 + tx, y0 + ty, tile[policy.index(ty, tx)]);
        __syncthreads();
    }
}

}  // namespace gpurotate::detail
