#pragma once
// The padded shared-memory transpose (Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA"),
// with the element's mirrors folded into the source lookup. A block owns one TileDim x TileDim output
// tile: it reads the matching source tile with rows along source x (coalesced, also when mirrored: a
// reversed warp still touches the same segments), parks it in shared memory, and writes output rows
// from the tile's columns. Padding the rows by one word puts the words of a column in different banks.
//
// The tile body is a device function so that the bench's variants (no padding, diagonal block order,
// 64x64 tiles with 16 pixels per thread) are the same code with other parameters.

#include "kernels/pixel_access.cuh"
#include "kernels/tile_policy.cuh"

namespace gpurotate::detail {

/// One output tile at tile column `tile_x`, tile row `tile_row`, through the shared array `tile`, by the
/// thread at (tx, ty) of a BlockX x BlockY block.
template <class Word, int TileDim, int BlockX, int BlockY, int Padding>
__device__ __forceinline__ void transpose_one_tile(const TransformArgs& a, int tile_x, int tile_row,
                                                   Word (&tile)[TileDim][TileDim + Padding], int tx, int ty) {
    const int x0 = tile_x * TileDim;
    const int y0 = tile_row * TileDim;
    // tile[r][c] holds output pixel (x0 + r, y0 + c): consecutive c are consecutive source x.
#pragma unroll
    for (int r = ty; r < TileDim; r += BlockY) {
#pragma unroll
        for (int c = tx; c < TileDim; c += BlockX) {
            if (inside_output(a, x0 + r, y0 + c)) tile[r][c] = load_source<Word>(a, source_of(a.map, a.src_extent, x0 + r, y0 + c));
        }
    }
    __syncthreads();
#pragma unroll
    for (int r = ty; r < TileDim; r += BlockY) {
#pragma unroll
        for (int c = tx; c < TileDim; c += BlockX) {
            if (inside_output(a, x0 + c, y0 + r)) store_output<Word>(a, x0 + c, y0 + r, tile[c][r]);
        }
    }
    __syncthreads();  // the next tile reuses the shared array
}

template <class Word, int TileDim, int BlockX, int BlockY, int Padding>
__device__ __forceinline__ void transpose_one_tile(const TransformArgs& a, int tile_x, int tile_row,
                                                   Word (&tile)[TileDim][TileDim + Padding]) {
    transpose_one_tile<Word, TileDim, BlockX, BlockY, Padding>(a, tile_x, tile_row, tile, static_cast<int>(threadIdx.x),
                                                               static_cast<int>(threadIdx.y));
}

/// A grid of tiles in row-major block order; blocks stride over tile rows beyond gridDim.y.
template <class Word, int TileDim, int BlockX, int BlockY, int Padding, class Passes = OnePass>
__global__ void __launch_bounds__(BlockX * BlockY) transpose_tiled_kernel(TransformArgs args, Passes passes) {
    const TransformArgs a = for_this_image(args);
    __shared__ Word tile[TileDim][TileDim + Padding];
    for (int step = static_cast<int>(blockIdx.y); step < a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        const int tile_row = tile_row_of(a, step);
        transpose_one_tile<Word, TileDim, BlockX, BlockY, Padding>(a, static_cast<int>(blockIdx.x), tile_row, tile);
    }
}

}  // namespace gpurotate::detail
