#pragma once
// One read, k writes, the textbook way: a block parks one source tile in padded shared memory and
// writes it to every requested output through that output's map. Correct for any size and alignment, one
// pixel per access: the library runs it where it measured faster than the vectorized fused kernel
// (multi_output_vectorized.cuh): 8- and 16-byte pixels, 6-byte pixels of images under 85 MB, and where the
// vectorized kernel's alignment rules refuse the buffers or the sides (launch_multi_output.cu).
//
// The tile is indexed by source coordinates (rows along source x, loaded coalesced). Each output then
// walks the rectangle of output pixels that this source tile feeds, in output rows, so its stores are
// coalesced too; an axis-swapping output reads a column of the tile, which the one-word padding spreads
// over all banks, as in the single-output padded kernel.

#include "kernels/pixel_access.cuh"

namespace gpurotate::detail {

/// The most outputs one launch writes: the 8 elements of D4.
inline constexpr int max_multi_targets = 8;

/// One output of a multi-output launch.
struct MultiTarget {
    std::byte* __restrict__ dst;
    std::size_t pitch;
    AxisMap map;
    int width;
    int height;
};

struct MultiOutputArgs {
    const std::byte* __restrict__ src;
    std::size_t src_pitch;
    Extent src_extent;
    int tiles_y;  ///< tile rows of the source; blocks stride over them when gridDim.y is smaller
    int count;
    MultiTarget targets[max_multi_targets];
};

template <class Word, int TileDim, int BlockRows>
__global__ void __launch_bounds__(TileDim * BlockRows) multi_output_kernel(const MultiOutputArgs a) {
    __shared__ Word tile[TileDim][TileDim + 1];
    const int tx = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    const int width = static_cast<int>(a.src_extent.width);
    const int height = static_cast<int>(a.src_extent.height);
    const int sx0 = static_cast<int>(blockIdx.x) * TileDim;
    for (int tile_row = static_cast<int>(blockIdx.y); tile_row < a.tiles_y; tile_row += static_cast<int>(gridDim.y)) {
        const int sy0 = tile_row * TileDim;
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) {
            if (sx0 + tx < width && sy0 + r < height) {
                tile[r][tx] = *reinterpret_cast<const Word*>(a.src + static_cast<std::size_t>(sy0 + r) * a.src_pitch +
                                                             static_cast<std::size_t>(sx0 + tx) * sizeof(Word));
            }
        }
        __syncthreads();
        for (int j = 0; j < a.count; ++j) {
            const MultiTarget& t = a.targets[j];
            // The tile's corner in the mirrored (u, v) frame; negative on a partial edge tile that is mirrored,
            // where the rows and columns outside the image fall below zero and are skipped.
            const int u0 = t.map.mirror_x ? width - (sx0 + TileDim) : sx0;
            const int v0 = t.map.mirror_y ? height - (sy0 + TileDim) : sy0;
            const int ox = (t.map.swap_axes ? v0 : u0) + tx;
            const int oy0 = t.map.swap_axes ? u0 : v0;
#pragma unroll
            for (int r = ty; r < TileDim; r += BlockRows) {
                const int oy = oy0 + r;
                if (ox < 0 || oy < 0 || ox >= t.width || oy >= t.height) continue;
                const SourcePoint s = source_of(t.map, a.src_extent, ox, oy);
                *reinterpret_cast<Word*>(t.dst + static_cast<std::size_t>(oy) * t.pitch + static_cast<std::size_t>(ox) * sizeof(Word)) =
                    tile[s.y - sy0][s.x - sx0];
            }
        }
        __syncthreads();  // the next tile row reuses the shared array
    }
}

}  // namespace gpurotate::detail
