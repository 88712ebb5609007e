#pragma once
// The tiled kernels' launchers (the 32x32 padded tile, the 16x16 skip-lines tile, their mirrors) and the
// in-place kernels', templated on the pixel word. Included by the generated per-width translation units
// (cuda/instantiate/).

#include "check.cuh"
#include "kernels/in_place.cuh"
#include "kernels/mirror.cuh"
#include "kernels/transpose_tile16_skiplines.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "launch.cuh"
#include "kernels/tile_policy.cuh"

#include "core/pixel_word.hpp"

#include <algorithm>

namespace gpurotate::detail {

/// The tiled kernel `kernel` of l.map on pixel words `Word`, each block walking its tile rows `passes` times (once
/// in the product; the bench's loop inside the kernel passes more).
template <class Word, class Passes = OnePass>
void launch_tiled_word(const Launch& l, CudaKernel kernel, Passes passes = {}) {
    constexpr TilePolicy p = tile32_policy;
    if (!l.map.swap_axes && kernel == CudaKernel::tile16_skiplines) {  // its mirror: 16x16 threads, one pixel each
        constexpr int t = tile16_skiplines_policy.tile_dim;
        const TransformArgs a = make_args(l, t);
        mirror_kernel<Word, t, t, Passes><<<grid_for(a, t, l), dim3(t, t), 0, l.stream>>>(a, passes);
    } else if (!l.map.swap_axes) {
        const TransformArgs a = make_args(l, p.tile_dim);
        mirror_kernel<Word, p.tile_dim, p.block_rows, Passes>
            <<<grid_for(a, p.tile_dim, l), dim3(p.tile_dim, p.block_rows), 0, l.stream>>>(a, passes);
    } else if (kernel == CudaKernel::tile16_skiplines) {
        constexpr int t = tile16_skiplines_policy.tile_dim;
        const TransformArgs a = make_args(l, t);
        transpose_tile16_skiplines_kernel<Word, Passes><<<grid_for(a, t, l), dim3(t, t), 0, l.stream>>>(a, passes);
    } else {
        const TransformArgs a = make_args(l, p.tile_dim);
        transpose_tiled_kernel<Word, p.tile_dim, p.tile_dim, p.block_rows, column_padding(p), Passes>
            <<<grid_for(a, p.tile_dim, l), dim3(p.tile_dim, p.block_rows), 0, l.stream>>>(a, passes);
    }
}

template <int S>
void launch_tiled(const Launch& l, CudaKernel kernel, bool aligned_word) {
    // Not visit_pixel_word: its switch would instantiate every width here.
    aligned_word ? launch_tiled_word<AlignedWord<S>>(l, kernel) : launch_tiled_word<UnalignedWord<S>>(l, kernel);
}

template <class Word>
void launch_in_place_word(ImageView image, AxisMap map, cudaStream_t stream) {
    // The namespace-scope policy, not a local copy: nvcc 13.0 mishandles constexpr locals in lambdas.
    constexpr int tile_dim = tile32_policy.tile_dim, block_rows = tile32_policy.block_rows;
    if (map.swap_axes && !map.mirror_x && !map.mirror_y) {
        const auto n = static_cast<int>(image.width);
        const unsigned tiles = static_cast<unsigned>((n + tile_dim - 1) / tile_dim);
        transpose_in_place_kernel<Word, tile_dim, block_rows><<<dim3(tiles, tiles), dim3(tile_dim, block_rows), 0, stream>>>(
            image.data, image.pitch, n);
    } else {
        const dim3 block(32, 8);
        const dim3 grid(static_cast<unsigned>((image.width + 31) / 32), std::min(static_cast<unsigned>((image.height + 7) / 8), max_grid_y));
        swap_pairs_kernel<Word, 32, 8><<<grid, block, 0, stream>>>(image.data, image.pitch, image.extent(), map);
    }
}

template <int S>
void launch_in_place(ImageView image, AxisMap map, bool aligned_word, cudaStream_t stream) {
    aligned_word ? launch_in_place_word<AlignedWord<S>>(image, map, stream) : launch_in_place_word<UnalignedWord<S>>(image, map, stream);
}

}  // namespace gpurotate::detail
