#pragma once
// The elements that keep the axes (rot180, flip-h, flip-v): each output row is one source row, read
// forwards or backwards. Both sides stay coalesced without shared memory, so this is a plain copy with
// a mirrored source index: 32x8 threads per 32x32 tile, 4 pixels per thread (the tile32 family), or 16x16
// threads per 16x16 tile, one pixel per thread (the tile16 family; the default for 16-byte pixels).

#include "kernels/pixel_access.cuh"

namespace gpurotate::detail {

template <class Word, int TileDim, int BlockRows, class Passes = OnePass>
__global__ void __launch_bounds__(TileDim * BlockRows) mirror_kernel(TransformArgs args, Passes passes) {
    const TransformArgs a = for_this_image(args);
    const int x = static_cast<int>(blockIdx.x) * TileDim + static_cast<int>(threadIdx.x);
    for (int step = static_cast<int>(blockIdx.y); step < a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        const int tile_row = tile_row_of(a, step);
#pragma unroll
        for (int r = static_cast<int>(threadIdx.y); r < TileDim; r += BlockRows) {
            const int y = tile_row * TileDim + r;
            if (inside_output(a, x, y)) store_output<Word>(a, x, y, load_source<Word>(a, source_of(a.map, a.src_extent, x, y)));
        }
    }
}

}  // namespace gpurotate::detail
