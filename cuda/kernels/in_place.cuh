#pragma once
// In-place elements for callers without memory for a second image. Only involutions (elements equal to
// their own inverse: transpose, transverse, rot180, flip-h, flip-v) can be done in one pass in place,
// because each pixel then trades places with exactly one partner.
//
// Transpose of a square image: a block owns a pair of 32x32 tiles, (i, j) and (j, i), loads both into
// shared memory (padded as in the out-of-place kernel), and writes each transposed into the other's
// place; a diagonal tile is transposed onto itself. The other involutions swap pixel pairs directly.

#include "kernels/pixel_access.cuh"

namespace gpurotate::detail {

template <class Word, int TileDim, int BlockRows>
__global__ void __launch_bounds__(TileDim * BlockRows) transpose_in_place_kernel(std::byte* data, std::size_t pitch, int n) {
    // Blocks above the diagonal have nothing to do: their pair is handled by the block below it.
    if (blockIdx.y > blockIdx.x) return;
    __shared__ Word a[TileDim][TileDim + 1];
    __shared__ Word b[TileDim][TileDim + 1];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int ax = static_cast<int>(blockIdx.x) * TileDim, ay = static_cast<int>(blockIdx.y) * TileDim;  // tile a
    const int bx = ay, by = ax;                                                                        // its mirror b
    const bool diagonal = ax == ay;
    auto at = [&](int x, int y) -> Word& {
        return *reinterpret_cast<Word*>(data + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * sizeof(Word));
    };
#pragma unroll
    for (int r = ty; r < TileDim; r += BlockRows) {
        if (ax + tx < n && ay + r < n) a[r][tx] = at(ax + tx, ay + r);
        if (!diagonal && bx + tx < n && by + r < n) b[r][tx] = at(bx + tx, by + r);
    }
    __syncthreads();
#pragma unroll
    for (int r = ty; r < TileDim; r += BlockRows) {
        // out(x, y) = in(y, x): tile a's place receives tile b transposed, and b's place tile a transposed.
        if (ax + tx < n && ay + r < n) at(ax + tx, ay + r) = diagonal ? a[tx][r] : b[tx][r];
        if (!diagonal && bx + tx < n && by + r < n) at(bx + tx, by + r) = a[tx][r];
    }
}

/// Swaps every pixel with its partner under the involution `map`; the pixel that comes first in row-major
/// order does the swap, fixed points stay.
template <class Word, int BlockX, int BlockY>
__global__ void __launch_bounds__(BlockX * BlockY) swap_pairs_kernel(std::byte* data, std::size_t pitch, Extent extent, AxisMap map) {
    const int x = static_cast<int>(blockIdx.x) * BlockX + static_cast<int>(threadIdx.x);
    for (int y = static_cast<int>(blockIdx.y) * BlockY + static_cast<int>(threadIdx.y); y < extent.height;
         y += static_cast<int>(gridDim.y) * BlockY) {
        if (x >= extent.width) continue;
        const SourcePoint q = source_of(map, extent, x, y);
        if (q.y < y || (q.y == y && q.x <= x)) continue;
        Word* p = reinterpret_cast<Word*>(data + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * sizeof(Word));
        Word* o = reinterpret_cast<Word*>(data + static_cast<std::size_t>(q.y) * pitch + static_cast<std::size_t>(q.x) * sizeof(Word));
        const Word mine = *p;
        *p = *o;
        *o = mine;
    }
}

}  // namespace gpurotate::detail
