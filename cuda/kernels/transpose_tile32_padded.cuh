#pragma once
// The padded shared-memory transpose (Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA"),
// with the element's mirrors folded into the source lookup. A block owns one 32x32 output tile:
// it reads the matching source tile with rows along source x (coalesced, also when mirrored: a reversed
// warp still touches the same segments), parks it in shared memory, and writes output rows from the
// tile's columns. The extra column of padding puts the 32 words of a column in 32 different banks.

#include "kernels/pixel_access.cuh"
#include "tile_policy.cuh"

namespace gpurotate::detail {

template <class Word, int TileDim, int BlockRows, int Padding>
__global__ void __launch_bounds__(TileDim * BlockRows)
transpose_tile32_padded_kernel(TransformArgs a) {
    __shared__ Word tile[TileDim][TileDim + Padding];
    const int tx = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    const int x0 = static_cast<int>(blockIdx.x) * TileDim;
    for (int tile_row = static_cast<int>(blockIdx.y); tile_row < a.tiles_y; tile_row += static_cast<int>(gridDim.y)) {
        const int y0 = tile_row * TileDim;
        // tile[r][c] holds output pixel (x0 + r, y0 + c): consecutive c are consecutive source x.
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) {
            if (inside_output(a, x0 + r, y0 + tx)) {
                tile[r][tx] = load_source<Word>(a, source_of(a.map, a.src_extent, x0 + r, y0 + tx));
            }
        }
        __syncthreads();
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) {
            if (inside_output(a, x0 + tx, y0 + r)) store_output<Word>(a, x0 + tx, y0 + r, tile[tx][r]);
        }
        __syncthreads();  // the next tile row reuses the shared tile
    }
}

}  // namespace gpurotate::detail
